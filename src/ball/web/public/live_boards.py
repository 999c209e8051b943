"""Live boards (issue 35 §5): the games the desk records at a round's tables, as the public
sees them once the desk has published the round as a broadcast.

Owns `LiveBoards`, the service behind the broadcast page, a table's live board, its event
stream and its record download: which rounds are published (`desk_live_broadcasts`), which
table has a recorded game (what the desk's "Record the game" opened: a Xiangqi game,
`web_xiangqi_games.desk_*`, or a BALL match on the simulator board, `web_games.desk_*` with
its half 2 made by `next-half`), a game's version (the one cheap read the event stream
repeats), its snapshot (board and moves, built once per version and shared by every
follower) and its record (Xiangqi PGN as `ball xiangqi` writes it; BALL `.bgn` with both
halves, docs/record-format.md). The switch's table is a `desk_` table, so publishing renews
the event's revision token (`ball.tournament.revisions`): the cached public pages render
again with the round's "Live boards" link.

A game is public only while its round is published: unpublishing hides the boards and
ends the streams at their next check. The game's writes stay where they are
(`ball.games.xiangqi.web.game_store`: the desk or the table's device key); nothing here
writes a game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ball.games.xiangqi.web import game_store as xiangqi_games
from ball.play.models import WebGame
from ball.play.records import match_record_text
from ball.play.store import GameStore
from ball.web.core.models import LiveBroadcast, XiangqiGameRow
from ball.xiangqi import pgn

XIANGQI = "xiangqi"
BALL = "ball"
# What a snapshot keeps of a Xiangqi state: the board, the moves and how it ended (the
# legal moves and the page's choices are the recording device's, not a follower's).
XIANGQI_FIELDS = (
    "id", "title", "version", "fen", "turn", "pieces", "check", "king", "last", "moves",
    "over", "ending",
)  # fmt: skip


@dataclass(frozen=True)
class GameRef:
    """One recorded game: its kind (`XIANGQI`, `BALL`) and its id in that kind's table (a
    BALL match by its first half)."""

    kind: str
    id: str


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
                session.delete(found)  # through the flush: the event's token is renewed
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
            found: dict[int, GameRef] = {}
            for kind, model in ((XIANGQI, XiangqiGameRow), (BALL, WebGame)):
                rows = session.execute(
                    select(model.desk_table, model.id).where(
                        model.desk_event == event_id, model.desk_round == number
                    )
                )
                found.update({int(t): GameRef(kind, str(i)) for t, i in rows if t is not None})
            return found

    def game_of(self, event_id: int, number: int, table: int) -> GameRef:
        """The recorded game of a table of a published round (else NotBroadcast)."""
        found = self.round_games(event_id, number).get(table)
        if found is None:
            raise NotBroadcast(f"table {table} of round {number} has no recorded game")
        return found

    def version(self, event_id: int, number: int, ref: GameRef) -> str | None:
        """The game's version while its round is published; None once it is not (or the
        game is gone). A small read or two: what a stream repeats between snapshots. A BALL
        match's version names both halves (half 2 is a game of its own)."""
        with self.sessions() as session:
            if session.get(LiveBroadcast, (event_id, number)) is None:
                return None
            if ref.kind == XIANGQI:
                found = session.execute(
                    select(XiangqiGameRow.version).where(XiangqiGameRow.id == int(ref.id))
                ).scalar_one_or_none()
                return None if found is None else str(found)
            first = session.execute(
                select(WebGame.version).where(WebGame.id == ref.id)
            ).scalar_one_or_none()
            if first is None:
                return None
            second = session.execute(
                select(WebGame.id, WebGame.version).where(WebGame.first_half == ref.id)
            ).first()
            return f"{first}" if second is None else f"{first}:{second[0]}:{second[1]}"

    def snapshot(self, ref: GameRef) -> dict[str, Any]:
        """The board and moves of a game, as the live board page draws them."""
        if ref.kind == BALL:
            return self._ball_snapshot(ref)
        with self.sessions() as session:
            row = self._xiangqi_row(session, ref)
            state = xiangqi_games.state(row, self._cache.get(row))
        return {"kind": ref.kind, **{k: state[k] for k in XIANGQI_FIELDS}}

    def _halves(self, ref: GameRef) -> list[str]:
        """The ids of a BALL match's halves so far, half 1 first."""
        with self.sessions() as session:
            if session.get(WebGame, ref.id) is None:
                raise NotBroadcast(f"game {ref.id} does not exist")
            second = session.scalar(
                select(WebGame.id).where(WebGame.first_half == ref.id).order_by(WebGame.created_at)
            )
        return [ref.id] if second is None else [ref.id, second]

    def _ball_snapshot(self, ref: GameRef) -> dict[str, Any]:
        store = GameStore(self.sessions)
        states = [store.state(game_id) for game_id in self._halves(ref)]
        now = states[-1]
        log = [entry for state in states for entry in state["log"]]
        plies = [{k: e[k] for k in ("half", "ply", "turn", "side", "action", "pb")} for e in log]
        return {
            "kind": BALL,
            "id": ref.id,
            "title": now["title"],
            "version": ":".join(str(s["version"]) for s in states),
            "half": now["position"]["half"],
            "position": now["position"],
            "actor": now["actor"],
            "last": now["log"][-1]["action"] if now["log"] else None,
            "plies": plies,
            "over": now["over"],
            "halves": [s["id"] for s in states],
        }

    def record(self, ref: GameRef, tags: dict[str, str]) -> tuple[str, str]:
        """(file extension, text) of the game's record with `tags` (Event, Round, the
        players): Xiangqi PGN with the result once the board has ended the game, or a
        BALL match's `.bgn` with its halves so far."""
        if ref.kind == BALL:
            store = GameStore(self.sessions)
            halves = []
            for game_id in self._halves(ref):
                initial, actions, _headers = store.history(game_id)
                halves.append((initial, actions))
            return "bgn", match_record_text(halves, tags)
        with self.sessions() as session:
            row = self._xiangqi_row(session, ref)
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

    def _xiangqi_row(self, session: Session, ref: GameRef) -> XiangqiGameRow:
        row = session.get(XiangqiGameRow, int(ref.id))
        if row is None:
            raise NotBroadcast(f"game {ref.id} does not exist")
        return row
