"""One database for everything the toolbox stores: SQLite by default, PostgreSQL by URL.

Each subsystem (tournament, web games, clocks) declares its tables on the shared `Base` in
its own module and owns an Alembic *branch* in `migrations/versions/` (its own
`branch_labels`, `down_revision=None` for its first revision); `migrate()` upgrades every
branch head, so subsystems evolve their schemas independently.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_ENV = "BALL_DB"


class Base(DeclarativeBase):
    """Declarative base of every table of the toolbox."""


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """A SQLAlchemy URL from `--db` (a file path or a URL) or the BALL_DB variable."""
    value = str(db) if db is not None else os.environ.get(DEFAULT_ENV, "")
    if not value:
        raise ValueError("no database given: pass --db PATH or set BALL_DB")
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL keeps readers going while one writer commits; foreign keys are off by default in
    # SQLite; synchronous=FULL makes an acknowledged commit survive a killed process.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(db: str | os.PathLike[str] | None = None) -> Engine:
    url = database_url(db)
    engine = create_engine(url, future=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema of every subsystem to its newest revision (idempotent)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "heads")


def open_database(db: str | os.PathLike[str] | None = None) -> tuple[Engine, sessionmaker]:
    """Engine + session factory of a migrated database; the file is created if needed."""
    engine = make_engine(db)
    migrate(engine)
    return engine, sessionmaker(engine, expire_on_commit=False)
