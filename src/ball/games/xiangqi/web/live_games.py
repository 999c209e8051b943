"""The Xiangqi games recorded at a round's tables, as the public live boards read them
(`XiangqiGame.live_board.games`, `ball.web.public.live_boards`): which table has a game, a
game's version (the one cheap read a live board's stream repeats), its snapshot (board,
moves, how it ended) and its PGN. The games themselves are `game_store`'s; nothing here
writes one."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ball.games.xiangqi.engine import pgn
from ball.games.xiangqi.web import game_store
from ball.web.core.models import XiangqiGameRow

# What a snapshot keeps of a Xiangqi state: the board, the moves and how it ended (the
# legal moves and the page's choices are the recording device's, not a follower's).
LIVE_FIELDS = (
    "id", "title", "version", "fen", "turn", "pieces", "check", "king", "last", "moves",
    "over", "ending",
)  # fmt: skip


class LiveGames:
    """The Xiangqi games recorded at the tables of one database, as the live boards read
    them; rebuilt games are kept by (id, version) in this database's own cache."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._cache = game_store.GameCache()

    def tables(self, session: Session, event: int, round_: int) -> dict[int, str]:
        """Table number -> id of its recorded game, in round `round_` of `event`."""
        rows = session.execute(
            select(XiangqiGameRow.desk_table, XiangqiGameRow.id).where(
                XiangqiGameRow.desk_event == event, XiangqiGameRow.desk_round == round_
            )
        )
        return {int(t): str(i) for t, i in rows if t is not None}

    def version(self, session: Session, game_id: str) -> str | None:
        """The game's version, None once it is gone."""
        found = session.execute(
            select(XiangqiGameRow.version).where(XiangqiGameRow.id == int(game_id))
        ).scalar_one_or_none()
        return None if found is None else str(found)

    def snapshot(self, game_id: str) -> dict[str, Any] | None:
        """The board, the moves and how it ended; None if the game is gone."""
        with self.sessions() as session:
            row = session.get(XiangqiGameRow, int(game_id))
            if row is None:
                return None
            state = game_store.state(row, self._cache.get(row))
        return {k: state[k] for k in LIVE_FIELDS}

    def record(self, game_id: str, tags: dict[str, str]) -> tuple[str, str] | None:
        """("pgn", the game's PGN with `tags`), the result and the ruling's reason once the
        board has ended it; None if the game is gone."""
        with self.sessions() as session:
            row = session.get(XiangqiGameRow, int(game_id))
            if row is None:
                return None
            game = self._cache.get(row)
        ending = game.outcome()
        all_tags = {**tags, "Result": ending.result if ending is not None else "*"}
        record = pgn.from_game(game, tags=all_tags)
        if ending is not None:  # the reason as a ruling comment; its detail may hold braces
            record.add_ruling(ending.result, str(ending.reason))
        return "pgn", pgn.write(record)


def live(sessions: sessionmaker[Session]) -> LiveGames:
    return LiveGames(sessions)
