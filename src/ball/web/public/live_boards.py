"""Live boards (issue 35 §5): the games the desk records at a round's tables, as the public
sees them once the desk has published the round as a broadcast.

Owns `LiveBoards`, the service behind the broadcast page, a table's live board, its event
stream and its record download: which rounds are published (`desk_live_broadcasts`), and,
asking each game with a live board (`Game.live_board.games`: what the desk's "Record the
game" opened, in the game's own store), which table has a recorded game, a game's version
(the one cheap read the event stream repeats), its snapshot (board and moves, built once per
version and shared by every follower) and its record. The switch's table is a `desk_`
table, so publishing renews the event's revision token (`ball.tournament.revisions`): the
cached public pages render again with the round's "Live boards" link.

A game is public only while its round is published: unpublishing hides the boards and
ends the streams at their next check. The game's writes stay where they are (the desk or
the table's device key); nothing here writes a game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ball.games import GAMES, load
from ball.web.core.models import LiveBroadcast


@dataclass(frozen=True)
class GameRef:
    """One recorded game: its kind (the game's name) and its id in that game's store (a
    BALL match by its first half)."""

    kind: str
    id: str


class RecordedGames(Protocol):
    """What a game's live-board module answers (`LiveBoard.games`, its `live(sessions)`)."""

    def tables(self, session: Session, event: int, round_: int) -> dict[int, str]: ...
    def version(self, session: Session, game_id: str) -> str | None: ...
    def snapshot(self, game_id: str) -> dict[str, Any] | None: ...
    def record(self, game_id: str, tags: dict[str, str]) -> tuple[str, str] | None: ...


class NotBroadcast(LookupError):
    """The round is not published, or the table has no recorded game: 404 naming it."""


class LiveBoards:
    """The live boards of one database (the app's sessionmaker)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._games: dict[str, RecordedGames] = {
            name: load(entry.live_board.games).live(sessions)
            for name, entry in GAMES.items()
            if entry.live_board is not None
        }

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
            for kind, games in self._games.items():
                tables = games.tables(session, event_id, number)
                found.update({t: GameRef(kind, i) for t, i in tables.items()})
            return found

    def game_of(self, event_id: int, number: int, table: int) -> GameRef:
        """The recorded game of a table of a published round (else NotBroadcast)."""
        found = self.round_games(event_id, number).get(table)
        if found is None:
            raise NotBroadcast(f"table {table} of round {number} has no recorded game")
        return found

    def version(self, event_id: int, number: int, ref: GameRef) -> str | None:
        """The game's version while its round is published; None once it is not (or the
        game is gone). A small read or two: what a stream repeats between snapshots."""
        with self.sessions() as session:
            if session.get(LiveBroadcast, (event_id, number)) is None:
                return None
            return self._kind(ref).version(session, ref.id)

    def snapshot(self, ref: GameRef) -> dict[str, Any]:
        """The board and moves of a game, as the live board page draws them."""
        found = self._kind(ref).snapshot(ref.id)
        if found is None:
            raise NotBroadcast(f"game {ref.id} does not exist")
        return {"kind": ref.kind, **found}

    def record(self, ref: GameRef, tags: dict[str, str]) -> tuple[str, str]:
        """(file extension, text) of the game's record with `tags` (Event, Round, the
        players), as the game writes it (Xiangqi PGN, BALL `.bgn` with its halves so far)."""
        found = self._kind(ref).record(ref.id, tags)
        if found is None:
            raise NotBroadcast(f"game {ref.id} does not exist")
        return found

    def _kind(self, ref: GameRef) -> RecordedGames:
        games = self._games.get(ref.kind)
        if games is None:  # a game unregistered since the board was found
            raise NotBroadcast(f"game {ref.id} does not exist")
        return games

    def _require(self, session: Session, event_id: int, number: int) -> None:
        if session.get(LiveBroadcast, (event_id, number)) is None:
            raise NotBroadcast(f"round {number} of event {event_id} is not broadcast")
