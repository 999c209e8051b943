"""The web layer's own tables (Alembic branches "web" and "desk"; names unchanged).

- `WebGame`: a stored simulator game, the initial position document plus the list of
  applied actions. A game is rebuilt by replaying its actions from the initial position, so
  the stored data is exactly what a record holds and survives a server restart or an engine
  upgrade.
- `SearchJob`: a computer search waiting, running or done (`ball.web.search_jobs`, Alembic
  branch "searches"): the queue every server process reads, so a search outlives the
  process that asked for it.
- `DeskAccess`, `DeskSession`, `PinThrottleRow`, `DeskRecovery`: the arbiter desk's access
  (the event PIN's hash, PIN sessions, wrong-PIN counts, the recovery code's hash); the rules
  that use them are `ball.web.security`.

The tournament's own rows (results, signals, sanctions, ...) are in `ball.tournament.models`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ball.storage import Base


def _now() -> datetime:
    return datetime.now(UTC)


class WebGame(Base):
    __tablename__ = "web_games"
    # One recorded match per desk table (revision web_0009_t), on its first half; NULLs for
    # every other game (half 2 of a table's match keeps only the event and the key).
    __table_args__ = (
        UniqueConstraint("desk_event", "desk_round", "desk_table", name="uq_web_games_desk_table"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    # "free" (free play: undo/redo, position editor), "play" (no take-backs),
    # "computer" (the server answers for `computer_side`).
    mode: Mapped[str] = mapped_column(String(16), default="free")
    computer_side: Mapped[str | None] = mapped_column(String(1), nullable=True)
    # the computer's level (games.COMPUTER_LEVELS); NULL: greedy, as before levels existed
    computer_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the learn-mode lesson this game was made for (`ball.web.learn_games`); NULL: free play
    lesson: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    # the game whose second half this is, when `next_half` made it; NULL: a first half, or
    # a half 2 set up in the editor (its first half is named with the result request)
    first_half: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # the client address that made it through the web API (its quota, `ball.web.game_quota`,
    # revision web_0008_o); NULL: made by the CLI, the desk or a lesson, or before owners
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    initial: Mapped[str] = mapped_column(Text)  # spec 18.2 position document (JSON)
    actions: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of 18.1 strings
    redo: Mapped[str] = mapped_column(Text, default="[]")  # undone actions, newest last
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
    # The BALL table this game records (the desk's "Record the game", `ball.games.ball.web.tables`)
    desk_event: Mapped[int | None] = mapped_column(Integer, nullable=True)
    desk_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    desk_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The table device key (`ball.device_key`): with the desk session, the only way to write
    # a table's game. "" for a game not of a table.
    device_key: Mapped[str] = mapped_column(String(64), default="", server_default="")


class DeskAccess(Base):
    __tablename__ = "desk_access"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    pin_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class DeskSession(Base):
    __tablename__ = "desk_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class PinThrottleRow(Base):
    """Wrong PINs of one client address against one event's (or clock's) PIN; the row with
    client "*" counts the target's wrong PINs from everyone in the current window."""

    __tablename__ = "desk_pin_throttle"

    scope: Mapped[str] = mapped_column(String(10), primary_key=True)  # "desk" or "clock"
    target_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[float] = mapped_column(Float, default=0.0)
    window_start: Mapped[float] = mapped_column(Float, default=0.0)
    window_failures: Mapped[int] = mapped_column(Integer, default=0)


class CreationStamp(Base):
    """One creation (an event, a PIN clock, a game, a PDF render) by one client address at
    `at` (wall-clock seconds, shared by every process of the server): the sliding window
    of `ball.web.limits.StoredCreationRate` (revision web_0010_w)."""

    __tablename__ = "web_creation_stamps"
    __table_args__ = (Index("ix_web_creation_stamps_key", "kind", "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    client: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class DeskRecovery(Base):
    """The hash of an event's recovery code (revision desk_0004_r): the arbiter's way in
    when wrong PINs from strangers have locked the desk's address (`ball.web.security`)."""

    __tablename__ = "desk_recovery"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    code_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class XiangqiGameRow(Base):
    """A stored Xiangqi game (revision web_0003_x): a start FEN, the ICCS moves played and an
    ending declared off the board; rebuilt by replaying its moves with `ball.xiangqi`, so the
    stored data is exactly the game record."""

    __tablename__ = "web_xiangqi_games"
    # One recorded game per desk table (revision web_0005_y); NULLs for games not of a table.
    __table_args__ = (
        UniqueConstraint(
            "desk_event", "desk_round", "desk_table", name="uq_web_xiangqi_games_desk_table"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    mode: Mapped[str] = mapped_column(String(16), default="hotseat")  # or "computer"
    computer: Mapped[str | None] = mapped_column(String(8), nullable=True)  # "red"/"black"
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # xiangqi.ai.search
    start: Mapped[str] = mapped_column(Text)  # FEN
    moves: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of ICCS moves
    ending: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON, declared ending
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
    # The event table this game records (the desk's "Record the game"), else NULL.
    desk_event: Mapped[int | None] = mapped_column(Integer, nullable=True)
    desk_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    desk_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The table device key (`ball.device_key`, revision web_0008_k): with the desk session,
    # the only way to write a game of a table. "" for a game not of a table.
    device_key: Mapped[str] = mapped_column(String(64), default="", server_default="")
    # the client address that made it through the web API (`ball.web.game_quota`); NULL:
    # a desk table's game, or one stored before owners (revision web_0008_o)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class SearchJob(Base):
    """One computer search (revision searches_0001): its input, who holds it and until
    when, and its answer. One job per game and version (the position searched): asking
    again for the same position finds the same job."""

    __tablename__ = "web_search_jobs"
    __table_args__ = (
        UniqueConstraint("kind", "game_id", "version", name="uq_web_search_jobs_game_version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))  # "ball": a simulator game's turn
    game_id: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)  # the game's version that was searched
    level: Mapped[str] = mapped_column(String(16))  # a `ball.ai` agent name
    seed: Mapped[int] = mapped_column(Integer)
    side: Mapped[str] = mapped_column(String(8))  # the side the computer plays
    position: Mapped[str] = mapped_column(Text)  # the search's input (a position document)
    client: Mapped[str] = mapped_column(String(64))  # whose queue it counts in (an address)
    # queued -> running (leased by `worker` until `lease_until`) -> done or failed; a
    # running job whose lease ran out is taken again by any worker
    state: Mapped[str] = mapped_column(String(8), default="queued", index=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[float] = mapped_column(Float, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON, or the error
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class LiveBroadcast(Base):
    """A round whose recorded games the desk published as a broadcast (revision desk_0005_l):
    its live boards are public (`ball.web.live_boards`). No row: the round's games are seen
    only at the desk and on the tables' own devices."""

    __tablename__ = "desk_live_broadcasts"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    published_at: Mapped[float] = mapped_column(Float)
