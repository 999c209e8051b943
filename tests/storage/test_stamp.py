"""`ball.storage.stamp`: the at-head check without Alembic (issue 15, target 1).

It must agree with Alembic's own answer (`ball.storage.at_head`) wherever it says yes, say
no when unsure, and spare the Alembic import on a database at head — the CLI's start-up.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from ball.storage import MIGRATIONS, at_head, make_engine, migrate
from ball.storage.stamp import revision_graph, surely_at_head

VERSIONS = MIGRATIONS / "versions"


def _config(connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def test_the_graph_read_from_the_scripts_is_alembics():
    found = revision_graph(VERSIONS)
    assert found is not None
    graph, heads = found
    scripts = ScriptDirectory(str(MIGRATIONS))
    assert heads == set(scripts.get_heads())
    for rev in scripts.walk_revisions():
        parents = rev.down_revision
        parents = (parents,) if isinstance(parents, str) else tuple(parents or ())
        deps = rev.dependencies
        deps = (deps,) if isinstance(deps, str) else tuple(deps or ())
        assert set(graph[rev.revision]) == set(parents + deps), rev.revision


def _answers(engine) -> tuple[bool, bool]:
    with engine.connect() as connection:
        return surely_at_head(connection, VERSIONS), at_head(connection)


def test_it_agrees_with_alembic_at_head_behind_and_on_a_new_file(tmp_path):
    engine = make_engine(tmp_path / "db.sqlite")
    assert _answers(engine) == (False, False)  # new file: no stamp table
    migrate(engine)
    assert _answers(engine) == (True, True)
    for branch in ("clocks", "web", "desk"):
        with engine.begin() as connection:
            command.downgrade(_config(connection), f"{branch}@-1")
        assert _answers(engine) == (False, False), branch
        migrate(engine)
        assert _answers(engine) == (True, True), branch


def test_an_unknown_stamp_is_left_to_alembic(tmp_path):
    engine = make_engine(tmp_path / "db.sqlite")
    migrate(engine)
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO alembic_version VALUES ('zz_newer_code')"))
    with engine.connect() as connection:
        assert not surely_at_head(connection, VERSIONS)


def test_a_script_in_another_form_is_left_to_alembic(tmp_path):
    (tmp_path / "a.py").write_text('revision = "a"\ndown_revision = None\n')
    (tmp_path / "b.py").write_text('revision = "b"\ndown_revision = compute()\n')
    revision_graph.cache_clear()
    try:
        assert revision_graph(tmp_path) is None
    finally:
        revision_graph.cache_clear()


@pytest.mark.process
def test_opening_a_database_at_head_does_not_import_alembic(tmp_path):
    db = tmp_path / "db.sqlite"
    migrate(make_engine(db))
    code = (
        "import sys; from ball.storage import open_database; "
        f"open_database({str(db)!r}); print('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
