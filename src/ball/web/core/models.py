"""The web layer's own tables (Alembic branches "web" and "desk"; names unchanged).

- `DeskAccess`, `DeskSession`, `PinThrottleRow`, `DeskRecovery`: the arbiter desk's access
  (the event PIN's hash, PIN sessions, wrong-PIN counts, the recovery code's hash); the rules
  that use them are `ball.web.core.security`.

The tournament's own rows (results, signals, sanctions, ...) are in `ball.tournament.models`;
the simulator's stored games and the computer's searches in `ball.play.models`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ball.storage import Base


def _now() -> datetime:
    return datetime.now(UTC)


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
    of `ball.web.core.limits.StoredCreationRate` (revision web_0010_w)."""

    __tablename__ = "web_creation_stamps"
    __table_args__ = (Index("ix_web_creation_stamps_key", "kind", "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    client: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class DeskRecovery(Base):
    """The hash of an event's recovery code (revision desk_0004_r): the arbiter's way in
    when wrong PINs from strangers have locked the desk's address (`ball.web.core.security`)."""

    __tablename__ = "desk_recovery"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    code_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class XiangqiGameRow(Base):
    """A stored Xiangqi game (revision web_0003_x): a start FEN, the ICCS moves played and an
    ending declared off the board; rebuilt by replaying its moves with `ball.games.xiangqi.engine`,
    so the stored data is exactly the game record."""

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
    # the client address that made it through the web API (`ball.web.api.game_quota`); NULL:
    # a desk table's game, or one stored before owners (revision web_0008_o)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class LiveBroadcast(Base):
    """A round whose recorded games the desk published as a broadcast (revision desk_0005_l):
    its live boards are public (`ball.web.public.live_boards`). No row: the round's games are seen
    only at the desk and on the tables' own devices."""

    __tablename__ = "desk_live_broadcasts"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    published_at: Mapped[float] = mapped_column(Float)
