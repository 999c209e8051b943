"""Every pairing proves itself (issue 35 §2): each round is checked when paired (Swiss by
FIDE's Dutch checker, round robin by its Berger row, knockout by its draw), `ball round
pair --json` carries the verdict, and a pairing changed in the database behind the
toolbox's back fails its check again and cannot be published."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentService, berger
from ball.tournament.errors import TournamentError

from .generator import enter_random_results

runner = CliRunner()


def ball(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str) -> str:
    r = ball(*args)
    assert r.exit_code == 0, r.output
    return r.output


def tables_of(output: str) -> list[dict]:
    return json.loads(output)


def the_check(tables: list[dict]) -> dict:
    """The round's check, which every table of the JSON carries."""
    checks = [t["check"] for t in tables]
    assert all(c == checks[0] for c in checks)
    assert set(checks[0]) == {"ok", "by", "detail"}
    return checks[0]


def swap_opponents(db: str, round_number: int, first: int, second: int) -> None:
    """Tamper with the stored rows: coach B of two tables change places (raw SQL, as a
    hand edit of the file would, without the toolbox)."""
    with sqlite3.connect(db) as con:
        rows = dict(
            con.execute(
                'SELECT p."table", p.b_id FROM tournament_pairings p '
                "JOIN tournament_rounds r ON r.id = p.round_id WHERE r.number = ?",
                (round_number,),
            ).fetchall()
        )
        for table, b_id in ((first, rows[second]), (second, rows[first])):
            con.execute(
                'UPDATE tournament_pairings SET b_id = ? WHERE "table" = ? AND round_id = '
                "(SELECT id FROM tournament_rounds WHERE number = ?)",
                (b_id, table, round_number),
            )


# ------------------------------------------------------------------------------ Swiss


@pytest.mark.slow
def test_a_swiss_of_40_over_7_rounds_passes_the_dutch_checker_every_round(tmp_path):
    db = str(tmp_path / "swiss.db")
    ok("event", "create", "--db", db, "--name", "Open 40", "--system", "swiss", "--rounds", "7")
    rng = random.Random(35)
    for i in range(40):
        ok("event", "add-player", "--db", db, f"Coach {i:02d}", "--rating", str(1300 + 17 * i))
    svc = TournamentService(db)
    for number in range(1, 8):
        if number in (3, 5):  # requested byes and a withdrawal on the way
            svc.entrants.request_bye(f"Coach {number:02d}", number, "half")
            svc.entrants.withdraw(f"Coach {30 + number:02d}")
        tables = tables_of(ok("round", "pair", "--db", db, "--json"))
        check = the_check(tables)
        assert check["ok"] is True, check
        assert check["by"].startswith("FIDE Dutch checker (gacrux pairingchecker")
        assert svc.checks.round_verdict(number).published
        enter_random_results(svc, number, tables, rng)
    # checked again with every result in, each round still proves itself
    for number in range(1, 8):
        assert ok("round", "check", "--db", db, "--round", str(number)).startswith(
            f"round {number}: check passed"
        )


def test_a_tampered_swiss_round_fails_its_check_and_is_not_published(tmp_path):
    db = str(tmp_path / "swiss.db")
    ok("event", "create", "--db", db, "--name", "Open", "--system", "swiss", "--rounds", "5")
    for i in range(12):
        ok("event", "add-player", "--db", db, f"P{i:02d}", "--rating", str(2000 - 25 * i))
    svc = TournamentService(db)
    enter_random_results(
        svc, 1, tables_of(ok("round", "pair", "--db", db, "--json")), random.Random(1)
    )
    tables = tables_of(ok("round", "pair", "--db", db, "--json"))
    assert the_check(tables)["ok"] is True
    swap_opponents(db, 2, 1, 2)

    r = ball("round", "check", "--db", db, "--json")
    assert r.exit_code == 1, r.output
    data = json.loads(r.output)
    assert data["published"] is False
    assert data["check"]["ok"] is False
    assert "the Dutch pairing has" in data["check"]["detail"]

    r = ball("round", "publish", "--db", db)
    assert r.exit_code == 2
    assert r.output.startswith("error: round 2 is not published: its pairing check failed")
    assert svc.checks.round_verdict(2).published is False

    # the fix: the rows put back, checked again, published
    swap_opponents(db, 2, 1, 2)
    assert json.loads(ok("round", "publish", "--db", db, "--json"))["published"] is True
    assert svc.checks.round_verdict(2).check.ok is True


def test_a_manual_pairing_that_is_not_the_dutch_one_stays_back_until_overridden(tmp_path):
    svc = TournamentService(tmp_path / "m.db")
    svc.events.create_event(name="M", system="swiss", rounds=3)
    for i in range(4):
        svc.entrants.add_player(f"P{i}", rating=2000 - i)
    # the Dutch pairs 1-3 and 4-2 (top half against bottom half); the arbiter pairs 1-2
    svc.rounds.set_pairing(1, [("P0", "P1"), ("P2", "P3")], reason="test")
    checked = svc.checks.round_verdict(1)
    assert checked.check.ok is False and not checked.published
    with pytest.raises(TournamentError, match="not published: its pairing check failed"):
        svc.checks.publish_round(1)
    with pytest.raises(TournamentError, match="reason is at most"):
        svc.checks.publish_round(1, override="x" * 501)
    published = svc.checks.publish_round(1, override="brothers may not meet late")
    assert published.published and published.check.ok is False
    logged = [x for x in svc.arbiter.log() if x.kind == "publish-override"]
    assert logged and logged[0].detail.startswith("brothers may not meet late (check failed:")
    # a re-check that fails the same way leaves the arbiter's decision standing
    assert svc.checks.check_round(1).published


# ------------------------------------------------------------------------------ Berger


@pytest.mark.parametrize(("players", "system"), [(6, "round-robin"), (5, "double-round-robin")])
def test_every_round_robin_round_is_its_berger_row(tmp_path, players, system):
    svc = TournamentService(tmp_path / "rr.db")
    svc.events.create_event(name="RR", system=system)
    for i in range(players):
        svc.entrants.add_player(f"P{i}")
    rng = random.Random(players)
    rounds = berger.berger_rounds(players) * (2 if system.startswith("double") else 1)
    for number in range(1, rounds + 1):
        tables = [t.as_dict() for t in svc.rounds.pair_next_round()]
        checked = svc.checks.round_verdict(number)
        assert checked.check.ok is True and checked.published, checked
        assert checked.check.by.startswith("FIDE Berger tables")
        enter_random_results(svc, number, tables, rng)


def test_a_tampered_round_robin_round_names_the_tables_off_the_berger_row(tmp_path):
    db = str(tmp_path / "rr.db")
    ok("event", "create", "--db", db, "--name", "RR", "--system", "round-robin")
    for i in range(6):
        ok("event", "add-player", "--db", db, f"P{i}")
    tables = tables_of(ok("round", "pair", "--db", db, "--json"))
    assert the_check(tables)["ok"] is True
    swap_opponents(db, 1, 2, 3)
    r = ball("round", "check", "--db", db, "--json")
    assert r.exit_code == 1
    detail = json.loads(r.output)["check"]["detail"]
    expected = berger.round_robin_round(6, 1)
    assert f"table 2: the Berger table has {expected[1][0]}–{expected[1][1]}" in detail
    assert "table 3:" in detail and "table 1:" not in detail
    r = ball("round", "publish", "--db", db)
    assert r.exit_code == 2 and "Berger" in r.output


# ------------------------------------------------------------------------------ knockout


def test_knockout_rounds_are_their_draw_and_a_tampered_one_is_not(tmp_path):
    db = str(tmp_path / "ko.db")
    svc = TournamentService(db)
    svc.events.create_event(name="KO", system="knockout", knockout_replays=1)
    for i in range(7):
        svc.entrants.add_player(f"K{i}", rating=2000 - 10 * i)
    rng = random.Random(7)
    number = 0
    while True:
        try:
            tables = [t.as_dict() for t in svc.rounds.pair_next_round()]
        except TournamentError as exc:
            assert "complete" in str(exc)
            break
        number += 1
        checked = svc.checks.round_verdict(number)
        assert checked.check.ok is True and checked.published, checked
        assert checked.check.by == "the knockout draw (bracket order)"
        for t in tables:
            if t["b"] is not None:  # decisive results: no replays needed
                svc.results.enter_result(number, t["table"], forfeit=rng.choice("AB"))
    assert number == 3
    # round 2 (the semi-finals): its two matches' opponents exchanged in the file
    swap_opponents(db, 2, 1, 2)
    checked = svc.checks.check_round(2)
    assert checked.check.ok is False and not checked.published
    assert "table 1: the draw has" in checked.check.detail
    with pytest.raises(TournamentError, match="not published"):
        svc.checks.publish_round(2)


def test_a_knockout_replay_is_checked_with_its_colours(tmp_path):
    svc = TournamentService(tmp_path / "ko.db")
    svc.events.create_event(name="KO", system="knockout", knockout_replays=1)
    for i in range(2):
        svc.entrants.add_player(f"K{i}")
    [table] = [t for t in svc.rounds.pair_next_round() if t.b is not None]
    drawn = {
        "coaches": ["A", "B"],
        "halves": [
            {
                "atk_first": side,
                "td": None,
                "pb": {"A": {"atk": 0, "def": 0}, "B": {"atk": 0, "def": 0}},
            }
            for side in "AB"
        ],
        "forfeit": None,
    }
    svc.results.enter_result(1, table.table, sheet=drawn)
    svc.rounds.pair_next_round()  # the replay, colours swapped
    assert svc.checks.round_verdict(2).check.ok is True
    with svc.store.tx() as s:  # the replay's colours put back as the first game's
        rnd = svc.store.event(s, None).rounds_[1]
        p = rnd.pairings[0]
        p.a_id, p.b_id = p.b_id, p.a_id
    assert svc.checks.check_round(2).check.ok is False


# ------------------------------------------------------------------------------ no reference


def test_a_round_without_a_reference_says_so_and_stays_published(tmp_path):
    db = str(tmp_path / "ko.db")
    ok("event", "create", "--db", db, "--name", "Drawn", "--system", "knockout")
    for i in range(4):
        ok("event", "add-player", "--db", db, f"D{i}")
    ok("round", "draw", "--db", db, "--seed", "5")
    r = ball("round", "check", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["published"] is True
    assert data["check"] == {
        "ok": False,
        "by": "not checkable",
        "detail": "paired by a drawing of lots at the venue (its record is in the log)",
    }


def test_an_imported_round_is_not_checked_and_stays_public(tmp_path):
    source = TournamentService(tmp_path / "a.db")
    source.events.create_event(name="S", system="swiss", rounds=2)
    for i in range(4):
        source.entrants.add_player(f"P{i}", rating=2000 - i)
    enter_random_results(source, 1, source.rounds.pair_next_round(), random.Random(2))
    trf = tmp_path / "s.trf"
    trf.write_text(source.trf.export_trf(), encoding="utf-8")
    db = str(tmp_path / "b.db")
    ok("event", "import", "trf", "--db", db, str(trf), "--name", "Imported")
    imported = TournamentService(db).checks.round_verdict(1)
    assert imported.published and imported.check is None  # paired elsewhere: not checked
    assert ball("round", "show", "--db", db).exit_code == 0
    # checked on demand: the round the source's engine paired is the Dutch pairing
    data = json.loads(ok("round", "check", "--db", db, "--json", "--round", "1"))
    assert data["published"] is True and data["check"]["ok"] is True
