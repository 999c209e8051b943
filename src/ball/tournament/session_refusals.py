"""Which events seat their tables by sessions (tables of four, by the registry of games)
and the refusals that follow: a two-player use case (pairing, standings by points, TRF) on
such an event, a system chosen for its game, a session undone with its sheets.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.games import game, runs_sessions
from ball.tournament.errors import TournamentError
from ball.tournament.models import Event, Round, SessionSheet


def is_sessions(ev: Event) -> bool:
    return runs_sessions(ev.game)  # tables of four, by the registry (`ball.games`)


def refuse_two_player(ev: Event, what: str) -> None:
    """The two-player use cases (pairing, standings by points) on an event of sessions."""
    if is_sessions(ev):
        raise TournamentError(f"{ev.name!r} is a {game(ev.game).label} event: {what}")


def refuse_undo_with_sheets(s: Session, ev: Event, rnd: Round) -> None:
    """A session is undone only while none of its tables has a sheet (the sheets
    would go with its seats)."""
    if not is_sessions(ev):
        return
    tables = sorted(
        t for (t,) in s.execute(select(SessionSheet.table).where(SessionSheet.round_id == rnd.id))
    )
    if tables:
        listed = ", ".join(map(str, tables))
        raise TournamentError(
            f"session {rnd.number} has sheets (tables {listed}); it cannot be undone"
        )


def refuse_game(game_name: str) -> None:
    """A pairing system chosen for a game whose events have sessions instead."""
    if runs_sessions(game_name):
        raise TournamentError(
            f"a {game(game_name).label} event has sessions, not a system: create it with "
            f"'ball event create --game {game_name} --sessions N'"
        )
