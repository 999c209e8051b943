"""Options and error handling shared by the tournament commands (event, round, result,
standings, export)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer

from ball.cli.common import fail

T = TypeVar("T")

DB = typer.Option(
    None, "--db", help="Event database: a file path or a SQLAlchemy URL (else BALL_DB)."
)
EVENT = typer.Option(
    None,
    "--event",
    help="Event id (3 or #3) or name; an ambiguous name is refused (default: the latest event).",
)


def service(db: str | None, *, create: bool = False):
    """The tournament service on `--db` (or BALL_DB). Only the commands that make an event
    (`event create`, `event import`) may create the database file: every other command on a
    mistyped path would otherwise leave an empty database behind and answer "no event"."""
    from ball.tournament import TournamentError, TournamentService

    if not create:
        require_existing_file(db)
    try:
        return TournamentService(db)
    except TournamentError as exc:
        fail(str(exc))


def require_existing_file(db: str | None) -> None:
    """A SQLite file named by path or URL must exist; other databases (PostgreSQL, an
    in-memory SQLite) are the URL's business."""
    from ball.storage import database_url

    try:
        url = database_url(db)
    except ValueError as exc:
        fail(str(exc))
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return
    path = url[len(prefix) :].split("?", 1)[0]
    if path in ("", ":memory:") or path.startswith("file:"):
        return
    if not Path(path).is_file():
        shown = db if db is not None else path
        fail(f"no database at {shown} (an event is made with 'ball event create --db {shown}')")


def run(call: Callable[[], T]) -> T:
    """Run a service call; a `TournamentError` becomes exit 2 with its one line."""
    from ball.tournament import TournamentError

    try:
        return call()
    except TournamentError as exc:
        fail(str(exc))


def event_ref(event: str | None) -> Any:
    """`--event` as the service takes it: `3` or `#3` is the id, anything else a name (which
    the service refuses when several events have it, listing their ids)."""
    from ball.storage.ids import parse_id

    if not event:
        return event
    digits = event[1:] if event.startswith("#") else event
    number = parse_id(digits)  # ASCII digits only: "²" passes isdigit() but not int()
    return event if number is None else number


def own_commands(svc: Any, event: str | None) -> Any | None:
    """The module of the event's game that runs the tournament commands for it in its own
    way (`Game.event_commands`: tables of four seated by sessions), or None when the shared
    commands serve the event."""
    from ball.games import game

    name = game(run(lambda: svc.events.event_game(event_ref(event)))).event_commands
    return None if name is None else importlib.import_module(name)


def own_commands_of_game(name: str) -> Any | None:
    """`own_commands` of a game by its name (an unknown name: None, refused later)."""
    from ball.games import GAMES

    entry = GAMES.get(name)
    module = None if entry is None else entry.event_commands
    return None if module is None else importlib.import_module(module)
