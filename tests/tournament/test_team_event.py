"""Team events end to end (issue 17; seed 004 articles 12-15): a 6-team round robin of 4
boards with substitutes and a line-up change, board colours checked against 13.2/13.3,
match points 2/1/0 from game points (14.2), team standings in the 15.3 order, board scores,
and the TRF-16 team records. Refusals name what was wrong (exit 2, one line)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentService

from .generator import random_sheet

runner = CliRunner()
BOARDS = 4


def ball(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str) -> str:
    r = ball(*args)
    assert r.exit_code == 0, r.output
    return r.output


def team_event(db: str, teams: int = 6) -> None:
    ok("event", "create", "--db", db, "--name", "Teams", "--system", "round-robin", "--teams", "4")
    for t in range(1, teams + 1):
        # Five players: four boards and a substitute; the third is unrated (12.1: last).
        players = [f"T{t}p{i}={2000 - 10 * i}" if i != 3 else f"T{t}p{i}" for i in range(1, 6)]
        out = ok("team", "add", "--db", db, f"T{t}", *[x for p in players for x in ("--player", p)])
        order = [line.split("\t")[1] for line in out.splitlines()[1:]]
        assert order == [f"T{t}p1", f"T{t}p2", f"T{t}p4", f"T{t}p5", f"T{t}p3"]


@pytest.mark.slow
def test_six_team_round_robin_of_four_boards(tmp_path):
    db = str(tmp_path / "t.db")
    team_event(db)
    # 12.2/12.3: T2 fields its substitute on board 4 in round 2 (order kept: p1 p2 p4 p3).
    out = ok("team", "lineup", "--db", db, "--round", "2", "T2", "T2p1", "T2p2", "T2p4", "T2p3")
    assert "T2p1, T2p2, T2p4, T2p3" in out
    svc = TournamentService(db)
    team_of = {f"T{t}p{i}": f"T{t}" for t in range(1, 7) for i in range(1, 6)}
    rng = random.Random(12)
    rounds = []
    for number in range(1, 6):
        tables = svc.rounds.pair_next_round()
        assert len(tables) == 3 * BOARDS  # three team matches, four boards each
        for t in tables:
            svc.results.enter_result(number, t["table"], sheet=random_sheet(rng))
        rounds.append(svc.rounds.pairings(number))
    with pytest.raises(Exception, match="all 5 rounds"):
        svc.rounds.pair_next_round()

    met: set[frozenset[str]] = set()
    expected: dict[str, list[float]] = {f"T{t}": [0, 0.0, 0] for t in range(1, 7)}  # MP GP W
    for number, tables in enumerate(rounds, start=1):
        for m in range(3):
            boards = tables[m * BOARDS : (m + 1) * BOARDS]
            first = team_of[boards[0]["a"]]  # board 1: the first-named team on coach A
            second = team_of[boards[0]["b"]]
            met.add(frozenset((first, second)))
            gp = {first: 0.0, second: 0.0}
            for k, t in enumerate(boards, start=1):
                # 13.2, 13.3: first colour (coach A) to the first-named team on odd boards.
                assert team_of[t["a"]] == (first if k % 2 else second), (number, m, k)
                assert team_of[t["b"]] == (second if k % 2 else first)
                won = {"A": t["a"], "B": t["b"]}.get(t["result"]["outcome"])
                for p in (t["a"], t["b"]):
                    gp[team_of[p]] += 1.0 if won == p else 0.5 if won is None else 0.0
            if number == 1:
                assert (first, second) == ("T1T2T3"[2 * m : 2 * m + 2], f"T{6 - m}")
            if number == 2 and "T2" in (first, second):
                t2 = [p for t in boards for p in (t["a"], t["b"]) if team_of[p] == "T2"]
                assert t2 == ["T2p1", "T2p2", "T2p4", "T2p3"]  # board order, substitute on 4
            for team, other in ((first, second), (second, first)):
                mp = 2 if gp[team] > gp[other] else 1 if gp[team] == gp[other] else 0
                expected[team][0] += mp
                expected[team][1] += gp[team]
                expected[team][2] += mp == 2
    assert len(met) == 15  # all-play-all between the teams (12.4)

    data = json.loads(ok("standings", "--db", db, "--json"))
    section = data["teams"]
    assert section["ranking"] == "15.3" and section["boards"] == BOARDS
    rows = section["standings"]
    got = {r["team"]: [r["match_points"], r["game_points"]] for r in rows}
    assert got == {t: v[:2] for t, v in expected.items()}
    # 15.3: match points first, then game points, then match wins.
    keys = [tuple(expected[r["team"]]) for r in rows]
    assert keys == sorted(keys, reverse=True) or all(
        a[:2] >= b[:2] for a, b in zip(keys, keys[1:], strict=False)
    )
    assert sum(r["match_points"] for r in rows) == 2 * 15
    assert sum(r["game_points"] for r in rows) == 15 * BOARDS
    assert len(data["standings"]) == 30  # every player in the individual ranking
    # Board scores for board prizes: each board's games add up to its results.
    for entry in section["board_scores"]:
        assert sum(p["games"] for p in entry["players"]) == 2 * 15
        assert sum(p["points"] for p in entry["players"]) == 15
        points = [p["points"] for p in entry["players"]]
        assert points == sorted(points, reverse=True)

    trf_text = ok("export", "trf", "--db", db)
    team_lines = [line for line in trf_text.splitlines() if line.startswith("013 ")]
    assert len(team_lines) == 6
    numbers = {}
    for line in trf_text.splitlines():
        if line.startswith("001 "):
            numbers[line[14:47].strip()] = int(line[4:8])
    t1 = team_lines[0]
    assert t1[4:36].strip() == "T1"
    # TRF-16 013: start numbers in columns 37-40, 42-45, ... (1-based).
    cols = [t1[36 + 5 * k : 40 + 5 * k] for k in range(5)]
    assert [int(x) for x in cols] == [numbers[f"T1p{i}"] for i in range(1, 6)]


def test_team_refusals(tmp_path):
    db = str(tmp_path / "t.db")
    team_event(db, teams=2)
    cases = [
        (("team", "add", "T1", "--player", "X"), "already registered"),
        (("team", "add", "T9", "--player", "A", "--player", "B"), "at least 4 players"),
        (("team", "add", "T9", *["--player", "Q"] * 4), "listed twice"),
        (("team", "lineup", "--round", "1", "T1", "T1p2", "T1p1", "T1p4", "T1p5"), "12.2"),
        (("team", "lineup", "--round", "1", "T1", "T1p1", "T1p2", "T1p4"), "4 players"),
        (("team", "lineup", "--round", "1", "T1", "T1p1", "T1p2", "T1p4", "T2p5"), "not in"),
        (("team", "lineup", "--round", "1", "T7", "T1p1"), "no team"),
    ]
    for args, message in cases:
        r = ball(*args[:2], "--db", db, *args[2:])
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output and "Traceback" not in r.output, (args, r.output)
    r = ball("team", "add", "--db", db, "T3", "--player", "T1p1", "--player", "a",
             "--player", "b", "--player", "c")  # fmt: skip
    assert r.exit_code == 2 and "another team" in r.output
    # a Swiss of teams is paired on match points (test_team_swiss.py); a knockout is not
    r = ball("event", "create", "--db", db, "--name", "S", "--system", "knockout", "--teams", "4")
    assert r.exit_code == 2 and "round-robin or --system swiss" in r.output
    r = ball(
        "event", "create", "--db", db, "--name", "Z", "--system", "round-robin", "--teams", "0"
    )
    assert r.exit_code == 2 and "boards per match" in r.output
    other = str(tmp_path / "i.db")
    ok("event", "create", "--db", other, "--name", "I", "--system", "round-robin")
    r = ball("team", "add", "--db", other, "T", "--player", "a")
    assert r.exit_code == 2 and "not a team event" in r.output


def test_two_boards_colours_match_points_and_the_player_total_system(tmp_path):
    """13.2: board 1 to the first-named team's player, board 2 to the other's; 14.2: 1-1 in
    game points is one match point each; 15.5: teams by the sum of their players' ranks."""
    svc = TournamentService(tmp_path / "t.db")
    svc.events.create_event(name="Duo", system="round-robin", teams=2, team_ranking="15.5")
    assert svc.teams.add_team("A", ["a2=2000", "a1=2100", "a3"])["order"] == ["a1", "a2", "a3"]
    assert svc.teams.add_team("B", ["b2", "b1=2050"])["order"] == ["b1", "b2"]
    svc.teams.set_lineup("A", 1, ["a1", "a3"])  # a substitute on board 2, the order kept
    tables = svc.rounds.pair_next_round()
    assert [(t["a"], t["b"]) for t in tables] == [("a1", "b1"), ("b2", "a3")]
    for t in tables:
        svc.results.enter_result(1, t["table"], forfeit="B")  # coach A wins each board
    data = svc.ranking.standings()
    section = data["teams"]
    assert [(r["team"], r["match_points"], r["game_points"]) for r in section["standings"]] in (
        [("A", 1, 1.0), ("B", 1, 1.0)],
        [("B", 1, 1.0), ("A", 1, 1.0)],
    )
    rank = {r["name"]: r["rank"] for r in data["standings"]}
    sums = {
        "A": sorted([rank["a1"], rank["a2"], rank["a3"]])[:2],
        "B": sorted([rank["b1"], rank["b2"]]),
    }
    for row in section["standings"]:
        assert row["individual_ranks"] == sums[row["team"]]
    first, second = section["standings"]
    assert sum(sums[first["team"]]) <= sum(sums[second["team"]])
    assert "013 A" in svc.trf.export_trf()
    r = ball("team", "boards", "--db", str(tmp_path / "t.db"), "--json")
    assert r.exit_code == 0, r.output
    (match,) = json.loads(r.output)
    assert (match["first"], match["second"]) == ("A", "B")
    assert [(b["board"], b["a"], b["b"], b["outcome"]) for b in match["boards"]] == [
        (1, "a1", "b1", "A"),
        (2, "b2", "a3", "A"),
    ]
    r = ball("team", "boards", "--db", str(tmp_path / "t.db"), "--round", "7")
    assert r.exit_code == 2 and "round 7 is not paired" in r.output
