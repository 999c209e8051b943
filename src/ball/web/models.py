"""Stored simulator games: the initial position document plus the list of applied actions.

A game is rebuilt by replaying its actions from the initial position, so the stored data is
exactly what a record holds and survives a server restart or an engine upgrade.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ball.storage import Base


def _now() -> datetime:
    return datetime.now(UTC)


class WebGame(Base):
    __tablename__ = "web_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    # "free" (free play: undo/redo, position editor), "play" (no take-backs),
    # "computer" (the server answers for `computer_side`).
    mode: Mapped[str] = mapped_column(String(16), default="free")
    computer_side: Mapped[str | None] = mapped_column(String(1), nullable=True)
    initial: Mapped[str] = mapped_column(Text)  # spec 18.2 position document (JSON)
    actions: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of 18.1 strings
    redo: Mapped[str] = mapped_column(Text, default="[]")  # undone actions, newest last
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
