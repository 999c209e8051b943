"""A Swiss of teams through `ball` (issue 17; seed 004 articles 11.4, 13.3, 14.2, 15.4): teams
paired by the Dutch system on match points, colours by board, the team bye (E-26)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest
from typer.testing import CliRunner

from ball.cli import app

runner = CliRunner()


class Desk:
    def __init__(self, tmp_path, teams: int):
        self.db = str(tmp_path / "swiss.db")
        self.ok("event", "create", "--name", "TS", "--system", "swiss", "--teams", 2,
                "--rounds", 3)  # fmt: skip
        self.rating: dict[str, int] = {}
        self.team_of: dict[str, str] = {}
        for t in range(1, teams + 1):
            players = [(f"T{t}a", 2400 - 20 * t), (f"T{t}b", 2390 - 20 * t)]
            args = [x for name, r in players for x in ("--player", f"{name}={r}")]
            self.ok("team", "add", f"T{t}", *args)
            for name, r in players:
                self.rating[name], self.team_of[name] = r, f"T{t}"
        self.mp: dict[str, int] = defaultdict(int)
        self.met: Counter[frozenset[str]] = Counter()
        self.byes: list[str] = []

    def ok(self, *args):
        r = runner.invoke(app, [*(str(a) for a in args), "--db", self.db])
        assert r.exit_code == 0, r.output
        return r.output

    def play(self, rnd: int, upset: set[str] = frozenset()):
        """Pair round `rnd`; the higher-rated player wins each board, except that the teams
        in `upset` win both their boards. Returns the round's team matches."""
        self.ok("round", "pair")
        matches = json.loads(self.ok("team", "boards", "--json"))
        for m in matches:
            if m["second"] is None:
                self.byes.append(m["first"])
                continue
            self.met[frozenset((m["first"], m["second"]))] += 1
            won = Counter()
            for board in m["boards"]:
                # 13.3: on odd boards the first-named team's player has the first colour
                first_colour = self.team_of[board["a"]]
                assert (first_colour == m["first"]) == (board["board"] % 2 == 1)
                a, b = board["a"], board["b"]
                if self.team_of[a] in upset or self.team_of[b] in upset:
                    winner = a if self.team_of[a] in upset else b
                else:
                    winner = a if self.rating[a] > self.rating[b] else b
                side = "B" if winner == a else "A"
                self.ok("result", "enter", "--round", rnd, "--table", board["table"],
                        "--forfeit", side)  # fmt: skip
                won[self.team_of[winner]] += 1
            first, second = won[m["first"]], won[m["second"]]
            self.mp[m["first"]] += 2 if first > second else (1 if first == second else 0)
            self.mp[m["second"]] += 2 if second > first else (1 if first == second else 0)
        return matches


@pytest.mark.slow
def test_eight_teams_are_paired_on_match_points_and_never_meet_twice(tmp_path):
    desk = Desk(tmp_path, teams=8)
    before: dict[str, int] = {}
    for rnd, upset in ((1, set()), (2, {"T6", "T8"}), (3, {"T7"})):
        before = dict(desk.mp)
        matches = desk.play(rnd, upset)
        assert len(matches) == 4 and not desk.byes
        # the Dutch system pairs teams with the same match points (always possible here)
        assert all(before.get(m["first"], 0) == before.get(m["second"], 0) for m in matches)
    assert max(desk.met.values()) == 1
    teams = json.loads(desk.ok("standings", "--json"))["teams"]
    assert teams["ranking"] == "15.4"  # points pairing: 15.4 by default
    got = {t["team"]: t["match_points"] for t in teams["standings"]}
    assert got == {f"T{t}": desk.mp[f"T{t}"] for t in range(1, 9)}
    ranked = [t["match_points"] for t in teams["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    r = runner.invoke(app, ["round", "pair", "--db", desk.db])
    assert r.exit_code == 2 and "all 3 rounds are paired" in r.output
    exported = desk.ok("export", "trf")
    assert "092 Swiss Dutch" in exported and exported.count("\n013 T") == 8


@pytest.mark.slow
def test_five_teams_the_bye_rotates_and_scores_nothing(tmp_path):
    desk = Desk(tmp_path, teams=5)
    for rnd in (1, 2, 3):
        desk.play(rnd)
    assert len(desk.byes) == 3 and len(set(desk.byes)) == 3  # never the same team twice
    assert max(desk.met.values()) == 1
    teams = json.loads(desk.ok("standings", "--json"))["teams"]["standings"]
    got = {t["team"]: t["match_points"] for t in teams}
    assert got == {f"T{t}": desk.mp[f"T{t}"] for t in range(1, 6)}  # the bye added nothing
