"""`ball event export` and `ball event import FILE`: a whole event as one file
(`ball.event_file`), the venue laptop's way to hand its event to a federation's server.

`ball event import` keeps its older form too: `ball event import trf FILE` reads a TRF.
Anything else as the first word is the event file's path (`ImportGroup`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperGroup

from ball.cli.common import fail, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service

FILE_COMMAND = "file"


class ImportGroup(TyperGroup):
    """`ball event import FILE` runs the `file` command; `ball event import trf FILE` (any
    command's name first) runs that command. A file named like a command: `./trf`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = [FILE_COMMAND, *args]
        return super().parse_args(ctx, args)


def export_command(
    output: str = typer.Option(
        ..., "-o", "--output", help="The file to write (- for standard output)."
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Write the whole event to one file (JSON, docs/deploy.md).

    Every round, pairing, result, tie game, sanction, log line, team, group stage, Mahjong
    session, recorded Xiangqi game and table clock. No secrets: PINs, recovery codes and
    device keys stay in this database."""
    from sqlalchemy import select

    from ball.event_file.write import ExportError, dumps, event_document, snapshot

    svc = service(db)
    info = run(lambda: svc.events.event_info(event=event_ref(event)))
    events = _events_table()
    with snapshot(svc.engine) as connection:
        uid = connection.scalar(select(events.c.uid).where(events.c.id == info.id))
        try:
            text = dumps(event_document(connection, info.id, str(uid)))
        except ExportError as exc:
            fail(f"event {info.id}: {exc}")
    if output == "-":
        typer.echo(text, nl=False)
        return
    _write_atomically(Path(output), text)
    typer.echo(f"event {info.id}: {info.name}: written to {output}")


def _events_table() -> Any:
    from ball.event_file.tables import EVENTS, table

    return table(EVENTS)


def _write_atomically(path: Path, text: str) -> None:
    """The whole file or none: written beside the target, then renamed over it."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(f"-o {path}: no such folder {folder}")
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        fail(f"-o {path}: cannot write ({exc.strerror or exc})")


def import_command(
    path: str = typer.Argument(..., help="An event file (from 'ball event export'), or -."),
    db: str | None = DB,
) -> None:
    """Import an event file: created, replaced or unchanged.

    The event is found by its uid: a new one is created; one this database has is replaced
    by the file's content (keeping its id and desk PIN); the same file again changes nothing.
    A bad file is one line and nothing written."""
    from ball.event_file.check import EventFileError, parse
    from ball.event_file.load import import_event

    text = read_text(path)
    try:
        doc = parse(text)
    except EventFileError as exc:
        fail(f"{path}: {exc}")
    svc = service(db, create=True)  # opens (and migrates) the database; may create the file
    try:
        done = import_event(svc.engine, doc)
    except EventFileError as exc:
        fail(f"{path}: {exc}")
    typer.echo(f"event {done.event_id}: {done.name}: {done.status}")
