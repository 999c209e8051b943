"""Options and error handling shared by the tournament commands (event, round, result,
standings, export)."""

from __future__ import annotations

from collections.abc import Callable
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


def service(db: str | None):
    from ball.tournament import TournamentError, TournamentService

    try:
        return TournamentService(db)
    except TournamentError as exc:
        fail(str(exc))


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
