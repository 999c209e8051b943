"""The stored Xiangqi game (Alembic branch "web", revision web_0003_x): a start FEN plus the
list of ICCS moves played, and an ending declared off the board. Like a simulator game
(`ball.web.models.WebGame`) it is rebuilt by replaying its moves with `ball.xiangqi`, so the
stored data is exactly the game record.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ball.storage import Base


def _now() -> datetime:
    return datetime.now(UTC)


class XiangqiGameRow(Base):
    __tablename__ = "xiangqi_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    mode: Mapped[str] = mapped_column(String(16), default="hotseat")  # or "computer"
    computer: Mapped[str | None] = mapped_column(String(8), nullable=True)  # "red"/"black"
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # ball.ai.xiangqi
    start: Mapped[str] = mapped_column(Text)  # FEN
    moves: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of ICCS moves
    ending: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON, declared ending
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
