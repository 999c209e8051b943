"""A command that only reads or adds to an event never creates its database: a mistyped
`--db` (or BALL_DB) is one line naming the path, exit 2, and no file is left behind. Only
the commands that make an event (`event create`, `event import trf`) create the file."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ball.cli import app

runner = CliRunner()

# Commands that need an existing event, each with just enough arguments to be parsed.
NEEDS_AN_EVENT = [
    ("standings",),
    ("standings", "--json"),
    ("event", "show"),
    ("event", "add-player", "Ann"),
    ("event", "withdraw", "Ann"),
    ("event", "bye", "Ann", "--round", "1"),
    ("event", "log"),
    ("round", "pair"),
    ("round", "show"),
    ("export", "trf"),
    ("team", "boards"),
    ("clock", "history", "1"),
    ("clock", "round", "R1"),
]


@pytest.mark.parametrize("command", NEEDS_AN_EVENT, ids=" ".join)
def test_a_missing_file_is_named_and_not_created(tmp_path, command):
    db = tmp_path / "typo.db"
    r = runner.invoke(app, [*command, "--db", str(db)])
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == [
        f"error: no database at {db} (an event is made with 'ball event create --db {db}')"
    ]
    assert list(tmp_path.iterdir()) == []


def test_a_sqlite_url_and_ball_db_are_checked_alike(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'typo.db'}"
    r = runner.invoke(app, ["standings", "--db", url])
    assert r.exit_code == 2 and f"no database at {url}" in r.stderr
    monkeypatch.setenv("BALL_DB", str(tmp_path / "env.db"))
    r = runner.invoke(app, ["standings"])
    assert r.exit_code == 2 and f"no database at {tmp_path / 'env.db'}" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_making_an_event_creates_the_file_and_then_the_others_work(tmp_path):
    db = str(tmp_path / "cup.db")
    r = runner.invoke(app, ["event", "create", "--db", db, "--name", "Cup", "--system", "swiss"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["event", "add-player", "--db", db, "Ann"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["standings", "--db", db, "--json"])
    assert r.exit_code == 0 and "Ann" in r.output


def test_a_mahjong_event_creates_its_file_too(tmp_path):
    db = tmp_path / "mj.db"
    r = runner.invoke(
        app,
        ["event", "create", "--db", str(db), "--name", "MJ", "--game", "mahjong",
         "--sessions", "2"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert db.is_file()
