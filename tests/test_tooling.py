"""The developer set-up the suite relies on: the migrated template database, the test lanes
of `scripts/test.sh --fast`, the test client's HTTP library and the shipped type marker."""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from ball.storage import MIGRATIONS, make_engine
from ball.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
# The selection of scripts/test.sh --fast.
FAST_LANE = " and ".join(
    f"not {mark}" for mark in ("browser", "postgres", "pdf", "process", "hypothesis", "slow")
)


def _schema(path: Path) -> list[tuple]:
    engine = make_engine(path)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        )
        schema = [tuple(row) for row in rows]
        stored = connection.execute(sa.text("SELECT version_num FROM alembic_version"))
        versions = sorted(row[0] for row in stored)
    engine.dispose()
    return [*schema, ("alembic_version", *versions)]


def test_a_test_app_gets_the_template_and_no_migration_run(tmp_path, monkeypatch,
                                                           migrated_template):
    migrated_template.ready()  # made on first use, by a real migration: do that first
    # The reference: every branch upgraded by Alembic itself on an empty file.
    reference = make_engine(tmp_path / "alembic.sqlite")
    with reference.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "heads")
    reference.dispose()

    def refuse(*_args, **_kwargs):
        raise AssertionError("a test app ran an Alembic upgrade instead of copying the template")

    monkeypatch.setattr(command, "upgrade", refuse)
    create_app(str(tmp_path / "app.sqlite")).state.engine.dispose()
    assert _schema(tmp_path / "app.sqlite") == _schema(tmp_path / "alembic.sqlite")


def _collected(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: nothing selected
    return {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}


@pytest.mark.slow  # a second pytest collecting modules that import WeasyPrint and Playwright
def test_the_fast_lane_leaves_out_browser_postgres_pdf_and_process_tests():
    # None of these files marks itself postgres, pdf or process: the root conftest does.
    files = [
        "tests/web/test_browser.py",
        "tests/storage/test_postgres_migrate.py",
        "tests/printing/test_printing_source.py",
        "tests/engine/test_cli.py",
        "tests/storage/test_sqlite_migrate.py",
    ]
    fast = _collected("-m", FAST_LANE, *files)
    assert fast == {"tests/storage/test_sqlite_migrate.py"}


@pytest.mark.process  # a fresh interpreter: the warning comes once, at first import
def test_the_test_client_uses_httpx2_without_a_deprecation_warning():
    code = (
        "import warnings; warnings.simplefilter('error');"
        "from fastapi.testclient import TestClient"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_package_ships_its_type_marker():
    assert (ROOT / "src" / "ball" / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["package-data"]["*"]
    assert any(fnmatch.fnmatch("py.typed", p) for p in patterns)
