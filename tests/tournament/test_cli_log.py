"""`ball event log sanction|signal` and `ball result …` go through the same checked service
calls as the desk (issue 11, item 15): a step off the ladder, a signal 2 before the
10-minute gap, an over-long reason are exit 2 with one line and store nothing; what is
accepted lands in the desk's tables, where the desk and the printed forms read it."""

from __future__ import annotations

import json
import time

from sqlalchemy import select
from typer.testing import CliRunner

from ball.cli import app
from ball.sanctions import LADDER
from ball.tournament import TournamentService, sanction_log, signals
from ball.tournament.models import Entrant, ResultState

runner = CliRunner()


def ball(*args: str):
    return runner.invoke(app, list(args))


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def paired_event(tmp_path) -> str:
    db = str(tmp_path / "e.db")
    assert (
        ball("event", "create", "--db", db, "--name", "Cup", "--system", "round-robin").exit_code
        == 0
    )
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert ball("event", "add-player", "--db", db, name).exit_code == 0
    assert ball("round", "pair", "--db", db).exit_code == 0
    return db


def desk_tables(db: str) -> dict:
    """What the desk's tables and the arbiter's log hold for the event."""
    svc = TournamentService(db)
    with svc.store.sessions() as s:
        sanctions = [
            (e.step, e.reason, e.round_number, e.table) for e in sanction_log.event_log(s, 1)
        ]
        control = signals.round_control(s, 1, 1, time.time(), signals.gap_seconds())
    return {
        "sanctions": sanctions,
        "signals": (control.signal1, control.signal2),
        "log": [(x["kind"], x["detail"]) for x in svc.arbiter.log()],
    }


def test_a_sanction_off_the_ladder_is_refused_naming_the_steps(tmp_path):
    db = paired_event(tmp_path)
    before = desk_tables(db)
    for args in (
        ("banana", "--player", "Ann"),
        ("late again", "--player", "Ann", "--step", "banana"),
    ):
        line = one_line_error(ball("event", "log", "sanction", *args, "--db", db))
        assert "'banana' is not on the ladder" in line
        assert all(step in line for step in LADDER.names)
    assert "reason: at most 500 characters" in one_line_error(
        ball("event", "log", "sanction", "x" * 501, "--player", "Ann", "--step", "warning",
             "--db", db)
    )  # fmt: skip
    assert "--player" in one_line_error(
        ball("event", "log", "sanction", "late", "--step", "warning", "--db", db)
    )
    assert desk_tables(db) == before


def test_a_sanction_is_stored_where_the_desk_and_the_forms_read_it(tmp_path):
    db = paired_event(tmp_path)
    given = ball(
        "event", "log", "sanction", "slow play", "--player", "Ann", "--step", "warning",
        "--round", "1", "--table", "1", "--db", db,
    )  # fmt: skip
    assert given.exit_code == 0, given.output
    # The older form, "STEP: REASON" as the detail, is read the same way.
    again = ball("event", "log", "sanction", "loss-of-turn: phone rang", "--player", "Ann",
                 "--db", db)  # fmt: skip
    assert again.exit_code == 0, again.output
    stored = desk_tables(db)
    assert stored["sanctions"] == [
        ("warning", "slow play", 1, 1),
        ("loss-of-turn", "phone rang", None, None),
    ]
    assert [x for x in stored["log"] if x[0] == "sanction"] == [
        ("sanction", "warning: slow play"),
        ("sanction", "loss-of-turn: phone rang"),
    ]
    # The desk suggests the next step up from what the CLI gave.
    with TournamentService(db).store.sessions() as s:
        ann = s.scalar(select(Entrant.id).where(Entrant.name == "Ann"))
        assert sanction_log.suggest(s, 1, ann).name == "loss-of-possession"


def test_signals_from_the_cli_keep_the_ten_minute_rule(tmp_path):
    db = paired_event(tmp_path)
    assert "not a signal" in one_line_error(ball("event", "log", "signal", "banana", "--db", db))
    assert "signal 1 has not been given" in one_line_error(
        ball("event", "log", "signal", "2", "--round", "1", "--db", db)
    )
    first = ball("event", "log", "signal", "1", "--round", "1", "--db", db)
    assert first.exit_code == 0, first.output
    assert "still play their first half" in one_line_error(
        ball("event", "log", "signal", "2", "--round", "1", "--db", db)
    )
    # Both first halves end now: signal 2 is refused until the gap has passed.
    for table in ("1", "2"):
        ended = ball("event", "log", "half-end", "--round", "1", "--table", table, "--db", db)
        assert ended.exit_code == 0, ended.output
    assert "too early" in one_line_error(
        ball("event", "log", "signal", "signal 2", "--round", "1", "--db", db)
    )
    stored = desk_tables(db)
    assert stored["signals"][0] is not None and stored["signals"][1] is None
    assert [x for x in stored["log"] if x[0] == "signal"] == [("signal", "signal 1 of round 1")]


def test_signal_2_after_the_gap_is_stored(tmp_path):
    db = paired_event(tmp_path)
    svc = TournamentService(db)
    gap = signals.gap_seconds()
    start = time.time() - gap - 1800
    svc.arbiter.give_signal(1, 1, at=start)
    for table in (1, 2):
        svc.arbiter.record_half_end(1, table, at=start + 1200)
    given = ball("event", "log", "signal", "2", "--db", db)  # the latest round
    assert given.exit_code == 0, given.output
    assert desk_tables(db)["signals"][1] is not None


def test_other_log_entries_stay_free_notes(tmp_path):
    db = paired_event(tmp_path)
    noted = ball("event", "log", "note", "hall opened late", "--db", db)
    assert noted.exit_code == 0, noted.output
    assert ("note", "hall opened late") in desk_tables(db)["log"]


def test_result_enter_takes_steals_and_sanctions_in_one_step(tmp_path):
    db = paired_event(tmp_path)
    before = desk_tables(db)
    refused = ball(
        "result", "enter", "--db", db, "--round", "1", "--table", "1", "--forfeit", "A",
        "--sanction", "A:warning:" + "x" * 501,
    )  # fmt: skip
    assert "reason: at most 500 characters" in one_line_error(refused)
    assert desk_tables(db) == before
    assert "result" not in TournamentService(db).rounds.pairings(1)[0]
    args = (
        "result", "enter", "--db", db, "--round", "1", "--table", "1", "--forfeit", "A",
        "--sanction", "A:loss-of-match:left the hall", "--steal", "1:B:reset",
    )  # fmt: skip
    assert ball(*args).exit_code == 0
    # The same command again (a retry) changes nothing and is no correction.
    assert ball(*args).exit_code == 0
    svc = TournamentService(db)
    assert svc.results.corrections() == []
    assert desk_tables(db)["sanctions"] == [("loss-of-match", "left the hall", 1, 1)]
    assert svc.rounds.pairings(1)[0]["result"]["forfeit_by"] == "A"
    with svc.store.sessions() as s:
        state = s.scalars(select(ResultState)).one()
    b = svc.rounds.pairings(1)[0]["b"]
    assert (state.version, json.loads(state.steals)) == (
        1,
        [{"half": 1, "by": b, "choice": "reset"}],
    )


def test_a_sanction_at_a_table_must_name_one_of_its_coaches(tmp_path):
    """The forms print a sanction at its table, A or B: a coach of another table is refused."""
    db = paired_event(tmp_path)
    tables = TournamentService(db).rounds.pairings(1)
    elsewhere = tables[1]["a"]
    line = one_line_error(
        ball("event", "log", "sanction", "late", "--player", elsewhere, "--step", "warning",
             "--round", "1", "--table", "1", "--db", db)
    )  # fmt: skip
    assert "does not play at round 1 table 1" in line
    assert "has no table 9" in one_line_error(
        ball("event", "log", "sanction", "late", "--player", elsewhere, "--step", "warning",
             "--round", "1", "--table", "9", "--db", db)
    )  # fmt: skip
    assert desk_tables(db)["sanctions"] == []
