"""`ball publish` from PostgreSQL (issue 35 §4): the same event stored in PostgreSQL and in
SQLite publishes to the same bytes, file for file, and a second run from PostgreSQL writes
nothing."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ball.cli import app
from web.published import broken_links, snapshot, swiss_event

runner = CliRunner()


def publish(db: str, out: Path) -> dict:
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_postgres_and_sqlite_publish_the_same_files(fresh_postgres_url, tmp_path):
    sqlite = str(tmp_path / "open.sqlite")
    assert swiss_event(fresh_postgres_url, 30, 2) == swiss_event(sqlite, 30, 2)
    from_postgres, from_sqlite = tmp_path / "pg", tmp_path / "lite"
    written = publish(fresh_postgres_url, from_postgres)["written"]
    publish(sqlite, from_sqlite)
    assert "en/standings-page2.html" in written and broken_links(from_postgres) == []
    pages = {name: data for name, (data, _) in snapshot(from_postgres).items()}
    assert pages == {name: data for name, (data, _) in snapshot(from_sqlite).items()}
    assert publish(fresh_postgres_url, from_postgres)["written"] == []
