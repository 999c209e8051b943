"""The clocks' tables on the shared `Base` (Alembic branch "clocks"; names unchanged).

- `ClockRow` (`clock_clocks`): one table clock: its labels, the time control as it was at
  creation (JSON, so a later edit of a control file never changes a running clock), the
  players, the PIN's hash and the event it belongs to, if any, with the table device key
  the desk hands that table (issue 30; "" for a free clock).
- `ClockEventRow` (`clock_events`): the append-only log of one clock; `(clock_id, seq)` is
  unique, so two presses racing each other cannot both take the same place in the log.

- `ClockSnapshotRow` (`clock_snapshots`): the fold of one clock's log up to event `seq`
  (`ball.clocks.fold`), so recording an event replays only the events after it. A cache:
  the log stays the authority, and a missing or unreadable snapshot means a full replay.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ball.storage import Base


class ClockRow(Base):
    __tablename__ = "clock_clocks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_label: Mapped[str] = mapped_column(String(80))
    round_label: Mapped[str] = mapped_column(String(80), default="", index=True)
    control_name: Mapped[str] = mapped_column(String(80))
    control: Mapped[str] = mapped_column(Text)  # the control as it was at creation (JSON)
    players: Mapped[str] = mapped_column(Text)
    pin_hash: Mapped[str] = mapped_column(String(200))  # "" when only the event desk may act
    created_at: Mapped[float] = mapped_column(Float)
    event_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    # The table device's key (`secrets.token_urlsafe`): kept as written, because the desk
    # shows it again (link, table card); compared in constant time. "" when not bound.
    device_key: Mapped[str] = mapped_column(String(64), default="", server_default="")


class ClockEventRow(Base):
    __tablename__ = "clock_events"
    __table_args__ = (UniqueConstraint("clock_id", "seq", name="uq_clock_events_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    clock_id: Mapped[int] = mapped_column(ForeignKey("clock_clocks.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[str] = mapped_column(Text, default="{}")


class ClockSnapshotRow(Base):
    __tablename__ = "clock_snapshots"

    clock_id: Mapped[int] = mapped_column(
        ForeignKey("clock_clocks.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer)  # the last event folded into `state`
    at: Mapped[float] = mapped_column(Float)  # that event's instant
    state: Mapped[str] = mapped_column(Text)  # `ball.clocks.fold.save` as JSON
