"""Live boards (issue 35 §5): the games the desk records at a round's tables, as the public
sees them once the desk has published the round as a broadcast.

Owns `LiveBoards`, the service behind the broadcast page, a table's live board, its event
stream and its record download: which rounds are published (`web_live_broadcasts`), which
table has a recorded game (a Xiangqi game the desk's "Record the game" opened,
`web_xiangqi_games.desk_*`), a game's version (the one cheap read the event stream repeats),
its snapshot (board and moves, built once per version and shared by every follower) and
its record (PGN, as `ball xiangqi` writes it).

A game is public only while its round is published: unpublishing hides the boards and
ends the streams at their next check. The game's writes stay where they are
(`ball.web.xiangqi_games`: the desk or the table's device key); nothing here writes a game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from ball.web import xiangqi_games
from ball.web.models import LiveBroadcast, XiangqiGameRow
from ball.xiangqi import pgn

XIANGQI = "xiangqi"
# What a snapshot keeps of a Xiangqi state: the board, the moves and how it ended (the
# legal moves and the page's choices are the recording device's, not a follower's).
XIANGQI_FIELDS = (
    "id", "title", "version", "fen", "turn", "pieces", "check", "king", "last", "moves",
    "over", "ending",
)  # fmt: skip


@dataclass(frozen=True)
class GameRef:
    """One recorded game: its kind (`XIANGQI`) and its id in that kind's table."""

    kind: str
    id: int


class NotBroadcast(LookupError):
    """The round is not published, or the table has no recorded game: 404 naming it."""


class LiveBoards:
    """The live boards of one database (the app's sessionmaker)."""

    def __init__(
        self, sessions: sessionmaker[Session], cache: xiangqi_games.GameCache | None = None
    ) -> None:
        self.sessions = sessions
        self._cache = cache or xiangqi_games.GameCache()

    # -- the desk's switch -------------------------------------------------------------

    def publish(self, event_id: int, number: int, on: bool) -> None:
        """Make round `number`'s recorded games public (`on`), or hide them again."""
        with self.sessions() as session:
            found = session.get(LiveBroadcast, (event_id, number))
            if on and found is None:
                row = LiveBroadcast(event_id=event_id, round=number, published_at=time.time())
                session.add(row)
            elif not on and found is not None:
                session.execute(
                    delete(LiveBroadcast).where(
                        LiveBroadcast.event_id == event_id, LiveBroadcast.round == number
                    )
                )
            session.commit()

    def published(self, event_id: int, number: int) -> bool:
        with self.sessions() as session:
            return session.get(LiveBroadcast, (event_id, number)) is not None

    def published_rounds(self, event_id: int) -> list[int]:
        with self.sessions() as session:
            rows = session.scalars(
                select(LiveBroadcast.round).where(LiveBroadcast.event_id == event_id)
            )
            return sorted(rows)

    # -- what the public reads -----------------------------------------------------------

    def round_games(self, event_id: int, number: int) -> dict[int, GameRef]:
        """Table number -> its recorded game, for a published round (else NotBroadcast)."""
        with self.sessions() as session:
            self._require(session, event_id, number)
            rows = session.execute(
                select(XiangqiGameRow.desk_table, XiangqiGameRow.id).where(
                    XiangqiGameRow.desk_event == event_id, XiangqiGameRow.desk_round == number
                )
            )
            return {int(t): GameRef(XIANGQI, int(i)) for t, i in rows if t is not None}

    def game_of(self, event_id: int, number: int, table: int) -> GameRef:
        """The recorded game of a table of a published round (else NotBroadcast)."""
        found = self.round_games(event_id, number).get(table)
        if found is None:
            raise NotBroadcast(f"table {table} of round {number} has no recorded game")
        return found

    def version(self, event_id: int, number: int, ref: GameRef) -> int | None:
        """The game's version while its round is published; None once it is not (or the
        game is gone). One small read: what a stream repeats between snapshots."""
        with self.sessions() as session:
            if session.get(LiveBroadcast, (event_id, number)) is None:
                return None
            found = session.execute(
                select(XiangqiGameRow.version).where(XiangqiGameRow.id == ref.id)
            ).scalar_one_or_none()
            return None if found is None else int(found)

    def snapshot(self, ref: GameRef) -> dict[str, Any]:
        """The board and moves of a game, as the live board page draws them."""
        with self.sessions() as session:
            row = self._row(session, ref)
            state = xiangqi_games.state(row, self._cache.get(row))
        return {"kind": ref.kind, **{k: state[k] for k in XIANGQI_FIELDS}}

    def record(self, ref: GameRef, tags: dict[str, str]) -> tuple[str, str]:
        """(file extension, text) of the game's record: Xiangqi PGN with `tags` (Event,
        Round, Red, Black) and the result once the board has ended the game."""
        with self.sessions() as session:
            row = self._row(session, ref)
            game = self._cache.get(row)
        ending = game.outcome()
        all_tags = {**tags, "Result": ending.result if ending is not None else "*"}
        record = pgn.from_game(game, tags=all_tags)
        if ending is not None:  # the reason as a ruling comment; its detail may hold braces
            record.add_ruling(ending.result, str(ending.reason))
        return "pgn", pgn.write(record)

    def _require(self, session: Session, event_id: int, number: int) -> None:
        if session.get(LiveBroadcast, (event_id, number)) is None:
            raise NotBroadcast(f"round {number} of event {event_id} is not broadcast")

    def _row(self, session: Session, ref: GameRef) -> XiangqiGameRow:
        row = session.get(XiangqiGameRow, ref.id)
        if row is None:
            raise NotBroadcast(f"game {ref.id} does not exist")
        return row
