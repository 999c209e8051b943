"""Issue 17, seed 004 article 11.3 end to end through `ball`: 16 entrants in 4 snake-seeded
groups of 4 (single round robins), the top 2 of each group to a knockout final (BALL), and
a round-robin final with the group results carried or not (Xiangqi). Every expected figure
is counted here from the results this test enters, not read back from the program."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import trf

runner = CliRunner()
NAMES = [f"P{i:02d}" for i in range(1, 17)]
RATING = {name: 2000 - i for i, name in enumerate(NAMES)}
# snake seeding by rating (11.3): 1-4, 8-5, 9-12, 16-13
GROUPS = {
    "A": {"P01", "P08", "P09", "P16"},
    "B": {"P02", "P07", "P10", "P15"},
    "C": {"P03", "P06", "P11", "P14"},
    "D": {"P04", "P05", "P12", "P13"},
}
GROUP_OF = {n: g for g, members in GROUPS.items() for n in members}


class Desk:
    def __init__(self, tmp_path, game="ball"):
        self.db = str(tmp_path / "groups.db")
        self.tmp = tmp_path
        self.game = game
        self.points: dict[str, float] = defaultdict(float)
        self.games: list[tuple[int, str, str, float]] = []  # round, a, b, a's points

    def ok(self, *args):
        r = runner.invoke(app, [*(str(a) for a in args), "--db", self.db])
        assert r.exit_code == 0, r.output
        return r.output

    def refused(self, *args):
        r = runner.invoke(app, [*(str(a) for a in args), "--db", self.db])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
        return r.output.strip()

    def sheet(self, a, b, outcome):
        path = self.tmp / "sheet.json"
        if self.game == "xiangqi":
            result = {"A": "1-0", "B": "0-1", "D": "1/2-1/2"}[outcome]
            reason = "agreement" if outcome == "D" else "checkmate"
            data = {"players": [a, b], "result": result, "reason": reason, "fouls": {},
                    "moves": 40}  # fmt: skip
        else:
            pb = {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}
            td = None if outcome == "D" else outcome
            halves = [{"atk_first": "A", "td": td, "pb": pb},
                      {"atk_first": "B", "td": None, "pb": pb}]  # fmt: skip
            data = {"coaches": ["A", "B"], "halves": halves, "forfeit": None}
        path.write_text(json.dumps(data))
        return path

    def play(self, rnd, decide):
        """Pair round `rnd` and enter `decide(a, b)`: A, B, D or ("forfeit", SIDE)."""
        tables = json.loads(self.ok("round", "pair", "--json"))
        for t in tables:
            a, b = t["a"], t["b"]
            if b is None:
                continue
            outcome = decide(a, b)
            if isinstance(outcome, tuple):
                how = ["--forfeit", outcome[1]]
                got = 1.0 if outcome[1] == "B" else 0.0
            else:
                how = ["--sheet", self.sheet(a, b, outcome)]
                got = {"A": 1.0, "B": 0.0, "D": 0.5}[outcome]
            self.ok("result", "enter", "--round", rnd, "--table", t["table"], *how)
            self.points[a] += got
            self.points[b] += 1 - got
            self.games.append((rnd, a, b, got))
        return tables


def higher_rated(a, b):
    return "A" if RATING[a] > RATING[b] else "B"


def group_results(a, b):
    """Higher rating wins, except: P08-P09 and P07-P10 draw; P16 forfeits to P08."""
    pair = {a, b}
    if pair in ({"P08", "P09"}, {"P07", "P10"}):
        return "D"
    if pair == {"P08", "P16"}:
        return ("forfeit", "A" if a == "P16" else "B")
    return higher_rated(a, b)


def group_points(desk, name, upto):
    return sum(
        (got if a == name else 1 - got)
        for rnd, a, b, got in desk.games
        if rnd <= upto and name in (a, b)
    )


@pytest.mark.slow
def test_16_entrants_4_groups_of_4_top_2_to_a_knockout_final(tmp_path):
    desk = Desk(tmp_path)
    out = desk.ok("event", "create", "--name", "Open", "--system", "groups", "--groups", 4,
                  "--final", "knockout", "--qualifiers", 2)  # fmt: skip
    assert out.startswith("event 1: Open (groups)")
    for name in NAMES:
        desk.ok("event", "add-player", name, "--rating", RATING[name])

    for rnd in (1, 2, 3):
        tables = desk.play(rnd, group_results)
        # every game of a group round is inside one group
        assert all(GROUP_OF[t["a"]] == GROUP_OF[t["b"]] for t in tables)
    met = {frozenset((a, b)) for _, a, b, _ in desk.games}
    assert met == {frozenset(p) for g in GROUPS.values() for p in itertools.combinations(g, 2)}

    section = json.loads(desk.ok("standings", "--json"))["groups"]
    assert section["stage"] == "groups" and section["group_rounds"] == 3
    for g in section["groups"]:
        assert {r["name"] for r in g["standings"]} == GROUPS[g["group"]]
        for r in g["standings"]:
            assert r["points"] == group_points(desk, r["name"], 3)
    a_table = {r["name"]: r for r in section["groups"][0]["standings"]}
    # P08 and P09 tie on 1.5 with the same direct encounter, SB, wins and koya; the chain
    # separates them by touchdown difference (the forfeit win counts 2-0, E-14).
    assert a_table["P08"]["points"] == a_table["P09"]["points"] == 1.5
    tb8, tb9 = a_table["P08"]["tiebreaks"], a_table["P09"]["tiebreaks"]
    for same in ("direct-encounter", "sonneborn-berger", "wins", "koya"):
        assert tb8[same] == tb9[same]
    assert tb8["td-difference"] > tb9["td-difference"]
    assert a_table["P08"]["rank"] == 2 and a_table["P09"]["rank"] == 3

    # Round 4: the final's first round, the top 2 of each group in a seeded bracket.
    final = desk.play(4, higher_rated)
    qualified = {"P01", "P08", "P02", "P07", "P03", "P06", "P04", "P05"}
    assert {x for t in final for x in (t["a"], t["b"])} == qualified
    # group mates are in opposite halves (tables 1-2 and 3-4): they can meet only in the final
    top = {x for t in final[:2] for x in (t["a"], t["b"])}
    assert all(len(top & (GROUPS[g] & qualified)) == 1 for g in GROUPS)
    log = json.loads(desk.ok("event", "log", "--json"))
    lines = [x["detail"] for x in log if x["kind"] == "qualification"]
    assert lines[0].startswith("11.3: group A: P01, P08; group B: P02, P07")
    # P07 and P10 are level after the whole chain: the higher seed goes through (E-15)
    assert any("P07, P10 tied at the cut" in x and "E-15" in x for x in lines)

    semis = desk.play(5, higher_rated)
    assert len(semis) == 2
    last = desk.play(6, higher_rated)
    assert [(t["a"], t["b"]) for t in last] in ([("P01", "P02")], [("P02", "P01")])
    assert "the final is complete" in desk.refused("round", "pair")

    section = json.loads(desk.ok("standings", "--json"))["groups"]
    assert section["stage"] == "final" and section["final"]["start_round"] == 4
    ranks = {r["name"]: r["rank"] for r in section["final"]["standings"]}
    assert ranks["P01"] == 1 and ranks["P02"] == 2
    assert {n for n, r in ranks.items() if r == 3} == {"P03", "P04"}
    assert {n for n, r in ranks.items() if r == 5} == {"P05", "P06", "P07", "P08"}
    text = desk.ok("standings")
    assert "group A" in text and "final (knockout)" in text

    # The TRF: 6 rounds, eliminated entrants not paired (blank), read back as an event.
    exported = desk.ok("export", "trf")
    parsed = trf.read(exported)
    assert parsed.rounds == 6 and len(parsed.players) == 16
    by_name = {p.name: p for p in parsed.players}
    assert [c[2] for c in by_name["P16"].cells[3:]] == [" ", " ", " "]
    assert sum(1 for c in by_name["P01"].cells if c[2] == "1") == 6  # 3 group wins + 3
    path = tmp_path / "open.trf"
    path.write_text(exported)
    assert "event 2" in desk.ok("event", "import", "trf", path, "--name", "Copy")


def xiangqi_results(a, b):
    """Higher rating wins, except P02 beats P01 wherever they meet, and P03-P06 draw."""
    if {a, b} == {"P01", "P02"}:
        return "A" if a == "P02" else "B"
    if {a, b} == {"P03", "P06"}:
        return "D"
    return higher_rated(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("carry", [True, False])
def test_16_entrants_to_a_round_robin_final_with_or_without_carried_results(tmp_path, carry):
    desk = Desk(tmp_path, game="xiangqi")
    desk.ok("event", "create", "--name", "XQ", "--system", "groups", "--game", "xiangqi",
            "--groups", 4, "--final", "round-robin", *(["--carry"] if carry else []))  # fmt: skip
    for name in NAMES:
        desk.ok("event", "add-player", name, "--rating", RATING[name])
    for rnd in (1, 2, 3):
        desk.play(rnd, xiangqi_results)
    qualified = {"P01", "P08", "P02", "P07", "P03", "P06", "P04", "P05"}
    rounds = 6 if carry else 7  # carried: the group mates' Berger round is left out
    for rnd in range(4, 4 + rounds):
        tables = desk.play(rnd, xiangqi_results)
        assert {x for t in tables for x in (t["a"], t["b"]) if x} <= qualified
        if carry:
            assert all(GROUP_OF[t["a"]] != GROUP_OF[t["b"]] for t in tables if t["b"])
    assert "the final is complete" in desk.refused("round", "pair")
    final_games = [(a, b, got) for rnd, a, b, got in desk.games if rnd >= 4]
    met = {frozenset((a, b)) for a, b, _ in final_games}
    expected = {
        frozenset(p)
        for p in itertools.combinations(sorted(qualified), 2)
        if not (carry and GROUP_OF[p[0]] == GROUP_OF[p[1]])
    }
    assert met == expected and len(final_games) == len(expected)

    def final_points(name):
        own = sum((got if a == name else 1 - got) for a, b, got in final_games if name in (a, b))
        carried = sum(
            (got if a == name else 1 - got)
            for rnd, a, b, got in desk.games
            if carry and rnd <= 3 and name in (a, b) and {a, b} <= qualified
        )
        return own + carried

    section = json.loads(desk.ok("standings", "--json"))["groups"]
    table = section["final"]["standings"]
    assert section["final"]["carry"] is carry
    assert {r["name"]: r["points"] for r in table} == {n: final_points(n) for n in qualified}
    ordered = sorted(qualified, key=lambda n: -final_points(n))
    assert [r["points"] for r in table] == [final_points(n) for n in ordered]
    # P02 beat P01 in the final: P02 ranks first (carried or not)
    assert table[0]["name"] == "P02"
    assert trf.read(desk.ok("export", "trf")).rounds == 3 + rounds


def test_groups_setup_errors_exit_2_with_one_line(tmp_path):
    desk = Desk(tmp_path)
    assert "--groups G" in desk.refused("event", "create", "--name", "X", "--system", "groups")
    assert "need --system groups" in desk.refused(
        "event", "create", "--name", "X", "--system", "swiss", "--groups", 2
    )
    assert "need --groups G" in desk.refused(
        "event", "create", "--name", "X", "--system", "groups", "--final", "round-robin"
    )
    assert "--carry applies to a round-robin final" in desk.refused(
        "event", "create", "--name", "X", "--system", "groups", "--groups", 2, "--carry"
    )
    desk.ok("event", "create", "--name", "Small", "--system", "groups", "--groups", 4)
    for name in NAMES[:7]:
        desk.ok("event", "add-player", name)
    assert "7 entrants cannot make 4 groups" in desk.refused("round", "pair")
    assert "Small (groups" in desk.ok("event", "show")


def test_a_withdrawn_group_winner_does_not_qualify_and_an_undone_final_is_drawn_again(tmp_path):
    from ball.tournament import TournamentService
    from ball.tournament.groups import Setup

    svc = TournamentService(str(tmp_path / "w.db"))
    svc.events.create_event(name="W", system="groups", groups=Setup(2, qualifiers=2))
    for i in range(8):
        svc.entrants.add_player(f"Q{i + 1}", rating=2000 - i)
    for rnd in (1, 2, 3):
        for t in svc.rounds.pair_next_round():
            if t.b is not None:  # the higher rating (the lower number) wins by forfeit
                svc.results.enter_result(rnd, t.table, forfeit="B" if t.a < t.b else "A")
    svc.entrants.withdraw("Q1")  # group A's winner leaves after the group stage
    first = svc.rounds.pair_next_round()
    finalists = {x for t in first for x in (t.a, t.b)}
    # groups by snake: A = Q1, Q4, Q5, Q8; B = Q2, Q3, Q6, Q7
    assert finalists == {"Q4", "Q5", "Q2", "Q3"}
    assert svc.rounds.unpair_round() == 4
    again = svc.rounds.pair_next_round()
    # the same matches (colours go by a fresh toss, 13.4)
    assert [{t.a, t.b} for t in again] == [{t.a, t.b} for t in first]
    log = [x.detail for x in svc.arbiter.log() if x.kind == "qualification"]
    assert len(log) == 2 and log[0] == log[1] == "11.3: group A: Q4, Q5; group B: Q2, Q3"


def test_a_hand_set_round_1_leaves_no_groups_and_pairing_says_so(tmp_path):
    desk = Desk(tmp_path)
    desk.ok("event", "create", "--name", "H", "--system", "groups", "--groups", 2)
    for name in NAMES[:8]:
        desk.ok("event", "add-player", name, "--rating", RATING[name])
    pairs = json.dumps([[NAMES[i], NAMES[i + 1]] for i in range(0, 8, 2)])
    desk.ok("round", "set", "--round", 1, "--pairs", pairs)
    for table in (1, 2, 3, 4):
        desk.ok("result", "enter", "--round", 1, "--table", table, "--forfeit", "B")
    assert "round 1 was set by hand" in desk.refused("round", "pair")
    assert "has results" in desk.refused("round", "undo")
    assert json.loads(desk.ok("standings", "--json"))  # still readable: no groups section


def test_article_20_3_inside_a_group(tmp_path):
    """E-27: leaving during the group stage is ruled as a round robin over the group: fewer
    than half of the group's games played cancels every result; half or more keeps them and
    forfeits the rest."""
    from ball.tournament import TournamentService
    from ball.tournament.groups import Setup

    svc = TournamentService(str(tmp_path / "w.db"))
    svc.events.create_event(name="W", system="groups", groups=Setup(2, qualifiers=2))
    for i in range(8):
        svc.entrants.add_player(f"Q{i + 1}", rating=2000 - i)
    # groups by snake: A = Q1, Q4, Q5, Q8; B = Q2, Q3, Q6, Q7; every game a draw
    draw = {"coaches": ["A", "B"], "forfeit": None, "halves": [
        {"atk_first": s, "td": None, "pb": {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}}
        for s in "AB"]}  # fmt: skip
    met: dict[str, list[str]] = {}
    for rnd in (1, 2, 3):
        for t in svc.rounds.pair_next_round():
            met.setdefault(t.a, []).append(t.b)
            met.setdefault(t.b, []).append(t.a)
            if t.b is not None and t.result is None:  # a withdrawn one's game: forfeited
                svc.results.enter_result(rnd, t.table, sheet=draw)
        if rnd == 1:
            svc.entrants.withdraw("Q8")  # 1 of 3 group games played: cancelled
        if rnd == 2:
            svc.entrants.withdraw("Q7")  # 2 of 3 played: the results stand
    assert svc.entrants.withdrawal_ruling("Q8")["action"] == "cancel-results"
    kept = svc.entrants.withdrawal_ruling("Q7")
    assert kept["action"] == "results-stand" and kept["article"] == "20.3"
    section = svc.ranking.standings().groups
    a = {r["name"]: r["points"] for r in section["groups"][0]["standings"]}
    b = {r["name"]: r["points"] for r in section["groups"][1]["standings"]}
    assert "Q8" not in a  # no line: cancelled
    # Q8's first opponent keeps only their two other draws; Q7's round-3 opponent wins by forfeit
    assert a[met["Q8"][0]] == 1.0
    assert b["Q7"] == 1.0 and b[met["Q7"][2]] == 2.0
    qualified = {r["name"] for g in section["groups"] for r in g["standings"] if r["qualified"]}
    assert "Q7" not in qualified and "Q8" not in qualified
