"""One database for everything the toolbox stores: SQLite by default, PostgreSQL by URL.

Each subsystem (tournament, web games, clocks) declares its tables on the shared `Base` in
its own module and owns an Alembic *branch* in `migrations/versions/` (its own
`branch_labels`, `down_revision=None` for its first revision); `migrate()` upgrades every
branch head, so subsystems evolve their schemas independently.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, sessionmaker

from ball.storage import lengths  # noqa: F401 - registers the length check on every flush

if TYPE_CHECKING:
    from alembic.script import ScriptDirectory

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
    # SQLite; synchronous=FULL makes an acknowledged commit survive a power loss or an
    # operating-system crash too (in WAL mode NORMAL already survives a killed process; the
    # simulator's practice games use it, D-W1).
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


@cache
def _scripts() -> ScriptDirectory:
    """The revision scripts in migrations/versions/ (read once per process)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS))


def at_head(connection: Connection) -> bool:
    """Whether the database already has every branch's newest revision.

    Alembic records only the heads it reached; a head that another branch's revision depends
    on (desk needs tournament) is then implied, not stored, so the stored revisions are
    expanded to everything they stand for before comparing. Anything unexpected (a revision
    this code does not know) answers False, so `migrate` lets Alembic report it as before."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script.revision import RevisionError
    from alembic.util import CommandError

    scripts = _scripts()
    todo = list(MigrationContext.configure(connection).get_current_heads())
    applied: set[str] = set()
    try:
        while todo:
            revision = scripts.get_revision(todo.pop())
            if revision is None or revision.revision in applied:
                continue
            applied.add(revision.revision)
            for parents in (revision.down_revision, revision.dependencies):
                todo.extend([parents] if isinstance(parents, str) else parents or ())
    except (CommandError, RevisionError):
        return False
    return set(scripts.get_heads()) <= applied


def migrate(engine: Engine) -> None:
    """Bring the schema of every subsystem to its newest revision (idempotent)."""
    from ball.storage.stamp import surely_at_head

    with engine.begin() as connection:
        # Most opens find the database at head already (every CLI command, every app start):
        # one SELECT then, without even importing Alembic (`ball.storage.stamp`).
        if surely_at_head(connection, MIGRATIONS / "versions") or at_head(connection):
            return
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "heads")


def open_database(db: str | os.PathLike[str] | None = None) -> tuple[Engine, sessionmaker]:
    """Engine + session factory of a migrated database; the file is created if needed."""
    engine = make_engine(db)
    migrate(engine)
    return engine, sessionmaker(engine, expire_on_commit=False)
