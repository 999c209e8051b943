"""`ball export …`: the event in interchange formats."""

from __future__ import annotations

import typer

from ball.cli.common import fail
from ball.cli.tournament_common import DB, EVENT, event_ref, own_commands, run, service

app = typer.Typer(help="Export an event.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Export an event."""


@app.command("trf")
def trf_command(db: str | None = DB, event: str | None = EVENT) -> None:
    """FIDE TRF-16 on standard output (coach A written as White)."""
    svc = service(db)
    typer.echo(run(lambda: svc.trf.export_trf(event=event_ref(event))), nl=False)


@app.command("seating")
def seating_command(
    round_number: int | None = typer.Option(None, "--round", help="One session (default all)."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Mahjong: the seating as CSV session,table,E,S,W,N (player numbers), importable with
    'ball round pair --seating'."""
    svc = service(db)
    own = own_commands(svc, event)  # the event's game seats its tables itself, or not
    if own is None or not hasattr(own, "export_seating"):
        name = run(lambda: svc.events.event_info(event_ref(event))).name
        fail(f"{name!r} is not a {' or '.join(seating_games())} event")
    typer.echo(run(lambda: own.export_seating(svc, event, round_number)), nl=False)


def seating_games() -> list[str]:
    """The names (as shown) of the games whose events have a seating to export."""
    from ball.games import GAMES, load

    return [
        entry.label
        for entry in GAMES.values()
        if entry.event_commands is not None
        and hasattr(load(entry.event_commands), "export_seating")
    ]
