"""The stored games' tables (Alembic branches "web" and "searches"; names unchanged).

- `WebGame`: a stored simulator game, the initial position document plus the list of
  applied actions. A game is rebuilt by replaying its actions from the initial position, so
  the stored data is exactly what a record holds and survives a server restart or an engine
  upgrade.
- `SearchJob`: a computer search waiting, running or done (`ball.play.search_jobs`): the
  queue every server process reads, so a search outlives the process that asked for it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Float, Integer, String, Text, UniqueConstraint
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
    # the computer's level (`ball.games.ball.play.replay.COMPUTER_LEVELS`); NULL: greedy, as before
    # levels existed
    computer_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the learn-mode lesson this game was made for (`ball.games.ball.web.learn_games`); NULL:
    # free play
    lesson: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    # the game whose second half this is, when `next_half` made it; NULL: a first half, or
    # a half 2 set up in the editor (its first half is named with the result request)
    first_half: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # the client address that made it through the web API (its quota, `ball.web.api.game_quota`,
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
    level: Mapped[str] = mapped_column(String(16))  # a `ball.games.ball.ai` agent name
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
