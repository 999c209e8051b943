"""The BALL matches recorded at a round's tables on the simulator board, as the public live
boards read them (`BallGame.live_board.games`, `ball.web.public.live_boards`): which table
has a match (by its first half; half 2 is the game `next-half` made), a match's version
(naming both halves), its snapshot (position and plies of both halves) and its `.bgn`
record with both halves (docs/record-format.md). Nothing here writes a game."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ball.games.ball.play.records import match_record_text
from ball.games.ball.play.store import GameStore
from ball.play.models import WebGame

PLY_FIELDS = ("half", "ply", "turn", "side", "action", "pb")


class LiveGames:
    """The BALL matches recorded at the tables of one database."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def tables(self, session: Session, event: int, round_: int) -> dict[int, str]:
        """Table number -> id of its match's first half, in round `round_` of `event`."""
        rows = session.execute(
            select(WebGame.desk_table, WebGame.id).where(
                WebGame.desk_event == event, WebGame.desk_round == round_
            )
        )
        return {int(t): str(i) for t, i in rows if t is not None}

    def version(self, session: Session, game_id: str) -> str | None:
        """The match's version: half 1's, then half 2's id and version once it exists;
        None once the match is gone."""
        first = session.execute(
            select(WebGame.version).where(WebGame.id == game_id)
        ).scalar_one_or_none()
        if first is None:
            return None
        second = session.execute(
            select(WebGame.id, WebGame.version).where(WebGame.first_half == game_id)
        ).first()
        return f"{first}" if second is None else f"{first}:{second[0]}:{second[1]}"

    def _halves(self, game_id: str) -> list[str] | None:
        """The ids of a match's halves so far, half 1 first; None if it is gone."""
        with self.sessions() as session:
            if session.get(WebGame, game_id) is None:
                return None
            second = session.scalar(
                select(WebGame.id)
                .where(WebGame.first_half == game_id)
                .order_by(WebGame.created_at)
            )
        return [game_id] if second is None else [game_id, second]

    def snapshot(self, game_id: str) -> dict[str, Any] | None:
        """The position now and the plies of both halves; None if the match is gone."""
        halves = self._halves(game_id)
        if halves is None:
            return None
        store = GameStore(self.sessions)
        states = [store.state(half) for half in halves]
        now = states[-1]
        log = [entry for state in states for entry in state["log"]]
        return {
            "id": game_id,
            "title": now["title"],
            "version": ":".join(str(s["version"]) for s in states),
            "half": now["position"]["half"],
            "position": now["position"],
            "actor": now["actor"],
            "last": now["log"][-1]["action"] if now["log"] else None,
            "plies": [{k: e[k] for k in PLY_FIELDS} for e in log],
            "over": now["over"],
            "halves": [s["id"] for s in states],
        }

    def record(self, game_id: str, tags: dict[str, str]) -> tuple[str, str] | None:
        """("bgn", the match's record with `tags` and its halves so far); None if gone."""
        halves = self._halves(game_id)
        if halves is None:
            return None
        store = GameStore(self.sessions)
        played = []
        for half in halves:
            initial, actions, _headers = store.history(half)
            played.append((initial, actions))
        return "bgn", match_record_text(played, tags)


def live(sessions: sessionmaker[Session]) -> LiveGames:
    return LiveGames(sessions)
