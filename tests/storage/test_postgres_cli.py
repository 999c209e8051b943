"""The CLI contract by URL: the commands on `--db postgresql+psycopg://...` (or BALL_DB) give
what the same event gives on a SQLite file, and a refused command leaves one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ball.tournament import TournamentService

from .test_postgres_tournament import PLAYERS, sheet

BALL = Path(sys.executable).with_name("ball")


def ball(*args: str, db: str, stdin: str = "", env_db: bool = False):
    """Run `ball ARGS --db DB` (or with BALL_DB=DB when `env_db`)."""
    env = {**os.environ, "BALL_DB": db} if env_db else os.environ.copy()
    command = [str(BALL), *args] if env_db else [str(BALL), *args, "--db", db]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=env, timeout=120
    )


def ok(*args: str, **kwargs) -> str:
    done = ball(*args, **kwargs)
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_cli_event(db: str) -> tuple[list[dict], list[dict]]:
    ok(
        "event",
        "create",
        "--name",
        "CLI RR",
        "--system",
        "round-robin",
        "--draw-lots",
        "5",
        "--start",
        "2026-11-28",
        db=db,
    )
    for name, rating, club in PLAYERS:
        ok("event", "add-player", name, "--rating", str(rating), "--club", club, db=db)
    tables = json.loads(ok("round", "pair", "--json", db=db, env_db=True))
    first, second = (str(t["table"]) for t in tables)
    ok(
        "result",
        "enter",
        "--round",
        "1",
        "--table",
        first,
        "--sheet",
        "-",
        stdin=json.dumps(sheet("B", "A", 3)),
        db=db,
    )
    ok("result", "enter", "--round", "1", "--table", second, "--forfeit", "A", db=db)
    return tables, json.loads(ok("standings", "--json", db=db))


def run_service_event(db: str) -> tuple[list[dict], list[dict]]:
    """The same event through the service in this process (the CLI's JSON keeps four keys)."""
    svc = TournamentService(db)
    svc.events.create_event(
        name="CLI RR", system="round-robin", draw_lots=5, date_start="2026-11-28"
    )
    for name, rating, club in PLAYERS:
        svc.entrants.add_player(name, rating=rating, club=club)
    tables = [{k: t[k] for k in ("table", "a", "b")} for t in svc.rounds.pair_next_round()]
    svc.results.enter_result(1, tables[0]["table"], sheet=sheet("B", "A", 3))
    svc.results.enter_result(1, tables[1]["table"], forfeit="A")
    keys = ("rank", "name", "points", "tiebreaks")
    return tables, [{k: r[k] for k in keys} for r in svc.ranking.standings()["standings"]]


@pytest.mark.slow
def test_cli_by_url_matches_sqlite(fresh_postgres_url, tmp_path):
    assert BALL.exists(), f"{BALL} is missing (bash scripts/setup.sh installs it)"
    tables, rows = run_cli_event(fresh_postgres_url)
    # every table carries the round's pairing check (issue 35 §2): the Berger row here
    assert [set(t) for t in tables] == [{"table", "a", "b", "check"}] * 2
    assert all(t.pop("check")["ok"] is True for t in tables)
    assert {t["a"] for t in tables} | {t["b"] for t in tables} == {p[0] for p in PLAYERS}
    assert [set(r) for r in rows] == [{"rank", "name", "points", "tiebreaks"}] * 4
    assert sum(r["points"] for r in rows) == 2.0  # a decided sheet and a forfeit
    assert (tables, rows) == run_service_event(str(tmp_path / "same.sqlite"))

    # A second result for a table: exit 2, one line naming it, and nothing changes.
    again = ball(
        "result",
        "enter",
        "--round",
        "1",
        "--table",
        str(tables[0]["table"]),
        "--forfeit",
        "B",
        db=fresh_postgres_url,
    )
    assert again.returncode == 2
    assert len(again.stderr.strip().splitlines()) == 1
    assert "already has a result" in again.stderr
    assert json.loads(ok("standings", "--json", db=fresh_postgres_url)) == rows
