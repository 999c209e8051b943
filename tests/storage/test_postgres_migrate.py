"""`migrate()` on a real PostgreSQL server: every branch head, and again without change."""

from __future__ import annotations

from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

# Importing the subsystems declares their tables on the shared Base.
import ball.clocks.store  # noqa: F401
import ball.play.models  # noqa: F401
import ball.tournament.models  # noqa: F401
import ball.tournament.sanction_log  # noqa: F401
import ball.tournament.signals  # noqa: F401
import ball.web.core.models  # noqa: F401
import ball.web.core.security  # noqa: F401
import ball.web.desk.results  # noqa: F401
from ball.storage import MIGRATIONS, Base, make_engine, migrate


def _script() -> ScriptDirectory:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def _applied(versions: set[str]) -> set[str]:
    """Every revision the stored version rows stand for (a head that another branch
    depends on is implied by that branch's row, so Alembic stores no row of its own)."""
    script = _script()
    return {r.revision for r in script.iterate_revisions(tuple(versions), "base")}


def _state(engine) -> tuple[set[str], dict[str, list[str]]]:
    with engine.connect() as connection:
        versions = set(connection.scalars(text("SELECT version_num FROM alembic_version")))
        inspector = inspect(connection)
        tables = {
            name: sorted(c["name"] for c in inspector.get_columns(name))
            for name in inspector.get_table_names()
        }
    return versions, tables


def test_migrate_reaches_every_head_twice(postgres_url):
    engine = make_engine(postgres_url)
    assert engine.dialect.name == "postgresql"
    try:
        migrate(engine)
        versions, tables = _state(engine)
        every = {r.revision for r in _script().walk_revisions()}
        assert _applied(versions) == every
        assert set(_script().get_heads()) <= every
        labels = {label for r in _script().walk_revisions() for label in r.branch_labels}
        assert labels == {"tournament", "desk", "web", "clocks", "public", "searches"}
        for table in Base.metadata.sorted_tables:
            assert table.name in tables, table.name
            assert set(tables[table.name]) >= {c.name for c in table.columns}, table.name
        migrate(engine)  # idempotent: nothing left to do, nothing changed
        assert _state(engine) == (versions, tables)
    finally:
        engine.dispose()
