"""Article 20 applied by `ball event withdraw` (issue 17): a 10-player round robin with one
withdrawal after 3 rounds (3 of 9 games, fewer than half: all results cancelled, 20.3) and
one after 6 (6 of 9, half or more: results stand, the rest forfeited, 20.3); a Swiss (20.4);
before the start (20.2). Standings --json and the TRF show which ruling applies."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentService, trf

from .generator import random_sheet

runner = CliRunner()


def ball(*args: str):
    return runner.invoke(app, list(args))


def play(svc: TournamentService, number: int, rng: random.Random) -> None:
    """Pair round `number` and enter a random score sheet at every table still open."""
    for t in svc.rounds.pair_next_round():
        if t["b"] is not None and "result" not in t:
            svc.results.enter_result(number, t["table"], sheet=random_sheet(rng))


def withdraw(db: str, name: str) -> str:
    r = ball("event", "withdraw", "--db", db, name, "--reason", "ill")
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.slow
def test_ten_player_round_robin_with_withdrawals_after_3_and_after_6(tmp_path):
    db = str(tmp_path / "e.db")
    r = ball("event", "create", "--db", db, "--name", "RR", "--system", "round-robin")
    assert r.exit_code == 0, r.output
    for i in range(1, 11):
        assert ball("event", "add-player", "--db", db, f"P{i}").exit_code == 0
    svc = TournamentService(db)
    rng = random.Random(17)
    for number in (1, 2, 3):
        play(svc, number, rng)
    out = withdraw(db, "P3")
    assert "article 20.3: 3 of 9 games played, fewer than half: all results cancelled" in out
    for number in (4, 5, 6):
        play(svc, number, rng)
    out = withdraw(db, "P7")
    assert "article 20.3: 6 of 9 games played, half or more" in out
    for number in (7, 8, 9):
        play(svc, number, rng)

    rounds = [svc.rounds.pairings(n) for n in range(1, 10)]
    # P7's games after round 6 are forfeits it lost (20.3: the rest is forfeited).
    for n, tables in enumerate(rounds, start=1):
        (game,) = [t for t in tables if "P7" in (t["a"], t["b"])]
        if n > 6 and "P3" not in (game["a"], game["b"]):
            assert game["result"]["kind"] == "forfeit"
            assert game["result"]["forfeit_by"] == ("A" if game["a"] == "P7" else "B")

    # Oracle: each remaining entrant's points, from the tables, without P3's games (20.3).
    expected: dict[str, float] = {f"P{i}": 0.0 for i in range(1, 11) if i != 3}
    for tables in rounds:
        for t in tables:
            if t["b"] is None or "P3" in (t["a"], t["b"]):
                continue
            outcome = t["result"]["outcome"]
            expected[t["a"]] += {"A": 1.0, "D": 0.5, "B": 0.0}[outcome]
            expected[t["b"]] += {"A": 0.0, "D": 0.5, "B": 1.0}[outcome]
    r = ball("standings", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    ranked = [x for x in rows if x["rank"] is not None]
    assert {x["name"]: x["points"] for x in ranked} == expected
    assert sum(expected.values()) == len(list(combinations(expected, 2)))  # 36 games, 1 each
    assert [x["points"] for x in ranked] == sorted((x["points"] for x in ranked), reverse=True)
    (p3,) = [x for x in rows if x["name"] == "P3"]
    assert p3["rank"] is None and p3["withdrawal"]["action"] == "cancel-results"
    assert p3["withdrawal"]["article"] == "20.3" and p3["withdrawal"]["after_round"] == 3
    (p7,) = [x for x in rows if x["name"] == "P7"]
    assert p7["withdrawal"]["action"] == "results-stand" and p7["withdrawal"]["played"] == 6
    assert p7["withdrawal"]["forfeit_remaining"] is True
    assert "withdrawal" not in [x for x in rows if x["name"] == "P1"][0]

    # The TRF: P3 and its games are gone (its opponents were not paired: Z), P7's last three
    # rounds are forfeits (- for P7, + for the opponent), P7 is listed as withdrawn.
    r = ball("export", "trf", "--db", db)
    assert r.exit_code == 0, r.output
    parsed = trf.read(r.output)
    names = {p.name: p for p in parsed.players}
    assert "P3" not in names and len(names) == 9
    p7_number = names["P7"].number
    assert parsed.withdrawn == [p7_number]
    for name, p in names.items():
        codes = [code for _, _, code in p.cells]
        assert len(codes) == 9
        if name == "P7":
            met_p3 = [any("P3" in (t["a"], t["b"]) and "P7" in (t["a"], t["b"]) for t in rounds[n])
                      for n in (6, 7, 8)]  # fmt: skip
            assert codes[6:] == ["Z" if met else "-" for met in met_p3]
        else:
            assert codes.count("Z") == 1  # the round against P3
            late = [code for opp, _, code in p.cells[6:] if opp == p7_number]
            assert late == ["+"] or late == []
        points = {"1": 1.0, "+": 1.0, "=": 0.5}
        assert sum(points.get(code, 0.0) for code in codes) == expected[name]


def test_before_the_start_the_cli_names_20_2(tmp_path):
    db = str(tmp_path / "e.db")
    assert (
        ball("event", "create", "--db", db, "--name", "RR", "--system", "round-robin").exit_code
        == 0
    )
    for i in range(1, 6):
        assert ball("event", "add-player", "--db", db, f"P{i}").exit_code == 0
    out = withdraw(db, "P2")
    assert "article 20.2: 4 entrants remain, an even number: the table is drawn again" in out
    out = withdraw(db, "P4")
    assert "article 20.2 (E-09): 3 entrants remain, an odd number" in out
    r = ball("event", "withdraw", "--db", db, "P4")
    assert r.exit_code == 2 and "already withdrawn" in r.output


@pytest.mark.slow
def test_a_swiss_withdrawal_keeps_results_and_says_20_4(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="S", system="swiss", rounds=3)
    for i in range(1, 5):
        svc.entrants.add_player(f"P{i}", rating=2000 - i)
    play(svc, 1, random.Random(3))
    svc.entrants.withdraw("P1")
    ruling = svc.entrants.withdrawal_ruling("P1")
    assert (ruling["action"], ruling["article"], ruling["played"]) == ("results-stand", "20.4", 1)
    standing = svc.ranking.standings()
    assert "P1" in [x["name"] for x in standing["standings"]]  # results stand
    assert standing["withdrawals"] == [{"name": "P1", **ruling}]


@pytest.mark.slow
def test_a_round_robin_whose_results_stand_passes_the_fide_berger_checker(tmp_path):
    """20.3 with half or more played: the forfeits are pairings of the Berger table, so the
    TRF still passes gacrux's pairing checker (the independent oracle) as a round robin."""
    import subprocess
    import sys

    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="RR", system="round-robin", date_start="2025-06-01")
    for i in range(1, 11):
        svc.entrants.add_player(f"P{i}")
    rng = random.Random(5)
    for number in range(1, 10):
        if number == 7:
            svc.entrants.withdraw("P7")
        play(svc, number, rng)
    assert svc.entrants.withdrawal_ruling("P7")["action"] == "results-stand"
    path = tmp_path / "rr.trf"
    path.write_text(svc.trf.export_trf(), encoding="utf-8")
    check = subprocess.run(
        [sys.executable, "-m", "gacrux.pairingchecker", "-i", str(path), "-c", "-m", "berger",
         "-d", "T"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert check.returncode == 0 and "Check: True" in check.stdout, check.stdout[-3000:]
