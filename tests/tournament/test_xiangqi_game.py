"""Xiangqi as a game of the tournament (issue 16): the arbiter's result document (seed 4.1,
4.2, 4.1.8, 21.4), scoring 1/½/0 or 2/1/0 (14.1), the tie-break chains of 15.1/15.2 with
18.4 first after points, and Red = White in the TRF and the pairings (13.1)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball import games
from ball.games.xiangqi.game import REASONS, XiangqiGame
from ball.tournament import TournamentError, TournamentService
from ball.tournament.scoring import Scoring

from .test_cli import ball, one_line_error

XQ = XiangqiGame()


def doc(result="1-0", reason="checkmate", players=("Red", "Black"), **extra):
    return {"players": list(players), "result": result, "reason": reason, **extra}


# ------------------------------------------------------------------ the result document


def test_the_plugin_is_registered_as_xiangqi():
    assert isinstance(games.GAMES["xiangqi"], XiangqiGame)
    assert games.game("xiangqi").name == "xiangqi"


@pytest.mark.parametrize(
    ("result", "reason", "outcome"),
    [
        ("1-0", "checkmate", "A"),  # 4.1.1
        ("0-1", "no-legal-move", "B"),  # 4.1.3: a side without a legal move loses
        ("1-0", "resignation", "A"),  # 4.1.9
        ("0-1", "time", "B"),  # 4.1.4
        ("1/2-1/2", "agreement", "D"),  # 4.2.2
        ("½-½", "repetition", "D"),  # 4.2.3
        ("1/2-1/2", "natural-move-limit", "D"),  # 4.2.4
    ],
)
def test_a_result_decides_the_outcome(result, reason, outcome):
    decided = XQ.decide(doc(result, reason))
    assert decided.outcome == outcome
    assert decided.decision["article"] == REASONS[reason].article
    # Red is player A: only B played with Black, and wins with Black only when B won.
    assert decided.figures["A"]["black"] == 0 and decided.figures["B"]["black"] == 1
    assert decided.figures["B"]["black_win"] == (1 if outcome == "B" else 0)


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (doc(result="2-0"), "\"result\" '2-0' is not 1-0, 0-1 or 1/2-1/2"),
        (doc(reason="stalemate"), "\"reason\" 'stalemate' is not one of"),
        (doc(result="1/2-1/2", reason="checkmate"), "ends the game in a win (4.1.1)"),
        (doc(result="1-0", reason="agreement"), "ends the game in a draw (4.2.2)"),
        (doc(players=["Red"]), '"players" must be the two names'),
        (doc(players=["Red", "Red"]), "cannot play themself"),
        (doc(fouls={"Someone": 1}), "'Someone' does not play here"),
        (doc(fouls={"Red": -1}), '"fouls" of Red must be a whole number from 0 to 3'),
        (doc(fouls={"Red": 4}), '"fouls" of Red must be a whole number from 0 to 3'),
        (doc(fouls={"Red": True}), '"fouls" of Red must be a whole number'),
        (doc(fouls=[1, 2]), '"fouls" must map each player'),
        (doc(article="4.1.9"), '"article" 4.1.9 does not match "reason" \'checkmate\' (4.1.1)'),
        (doc(article="chapter four"), "is not an article number"),
        (doc(reason="arbiter"), "a ruling by the arbiter names its article"),
        (doc(moves=-3), '"moves" must be a whole number from 0 to 9999'),
        (doc(reason="forfeit", moves=12), "a forfeit (21.4) was not played"),
        (doc(reason="forfeit", fouls={"Black": 1}), "a forfeit (21.4) was not played"),
        ({**doc(), "score": 3}, "unknown field(s) 'score'"),
        ("1-0", "must be a JSON object"),
    ],
)
def test_a_bad_document_is_refused_naming_the_field(sheet, message):
    with pytest.raises(TournamentError) as exc:
        XQ.decide(sheet)
    assert message in str(exc.value)
    assert str(exc.value).startswith("illegal result: ")


def test_three_fouls_lose_the_game_4_1_8():
    # The third foul loses: a sheet giving the winner three fouls is refused ...
    with pytest.raises(TournamentError, match=r"Red has 3 fouls and cannot win or draw \(4.1.8\)"):
        XQ.decide(doc("1-0", "checkmate", fouls={"Red": 3}))
    with pytest.raises(TournamentError, match="cannot win or draw"):
        XQ.decide(doc("1/2-1/2", "agreement", fouls={"Black": 3}))
    # ... as is a loser with three fouls whose game is said to have ended otherwise ...
    with pytest.raises(TournamentError, match="the game ends by three-fouls"):
        XQ.decide(doc("1-0", "checkmate", fouls={"Black": 3}))
    # ... and a three-fouls result whose loser has fewer.
    with pytest.raises(TournamentError, match="three-fouls: Black has 2 fouls, not 3"):
        XQ.decide(doc("1-0", "three-fouls", fouls={"Black": 2}))
    decided = XQ.decide(doc("1-0", "three-fouls", fouls={"Black": 3, "Red": 2}))
    assert decided.outcome == "A"
    assert decided.figures["A"]["fouls"] == 2 and decided.figures["B"]["fouls"] == 3


def test_a_forfeit_document_is_a_forfeit_without_figures_21_4():
    decided = XQ.decide(doc("0-1", "forfeit"))
    assert decided.outcome == "B"
    assert decided.figures == XQ.forfeit("B")
    # No game was played: neither side played with Black.
    assert all(f["black"] == 0 and f["fouls"] == 0 for f in decided.figures.values())


WIN_REASONS = [r for r, v in REASONS.items() if v.decisive and r not in ("forfeit", "three-fouls")]
DRAW_REASONS = [r for r, v in REASONS.items() if not v.decisive]


@settings(max_examples=150, deadline=None)
@given(
    winner=st.sampled_from(["A", "B", "D"]),
    data=st.data(),
    fouls=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    moves=st.none() | st.integers(0, 9999),
)
def test_any_legal_document_decides_consistently(winner, data, fouls, moves):
    reason = data.draw(st.sampled_from(DRAW_REASONS if winner == "D" else WIN_REASONS))
    result = {"A": "1-0", "B": "0-1", "D": "1/2-1/2"}[winner]
    sheet = doc(result, reason, fouls={"Red": fouls[0], "Black": fouls[1]}, moves=moves)
    decided = XQ.decide(sheet)
    assert decided.outcome == winner
    assert [decided.figures[s]["fouls"] for s in "AB"] == list(fouls)
    assert sum(decided.figures[s]["black_win"] for s in "AB") == (winner == "B")
    # The stored decision decides again to the same thing (JSON round trip).
    again = XQ.decide(json.loads(json.dumps(sheet)))
    assert again == decided


# ------------------------------------------------------------------ events


def xiangqi_event(tmp_path, names, system="round-robin", **options):
    svc = TournamentService(tmp_path / "x.db")
    svc.events.create_event(name="XQ", system=system, game_name="xiangqi", **options)
    for name in names:
        svc.entrants.add_player(name)
    return svc


def enter(svc, rnd, table, result, reason="checkmate", **extra):
    t = next(t for t in svc.rounds.pairings(rnd) if t["table"] == table)
    return svc.results.record_table_result(
        rnd, table, sheet=doc(result, reason, players=(t["a"], t["b"]), **extra)
    )


def test_scoring_is_one_half_zero_by_default_14_1_or_two_one_zero(tmp_path):
    svc = xiangqi_event(tmp_path, ["A1", "B1"])
    assert svc.events.event_info()["scoring"]["win"] == 1.0
    assert svc.events.event_info()["scoring"]["draw"] == 0.5
    svc.rounds.pair_next_round()
    enter(svc, 1, 1, "1/2-1/2", "agreement")
    assert [x["points"] for x in svc.ranking.standings()["standings"]] == [0.5, 0.5]
    db = str(tmp_path / "two.db")
    r = ball("event", "create", "--db", db, "--name", "X2", "--system", "swiss",
             "--game", "xiangqi", "--scoring", "2-1-0")  # fmt: skip
    assert r.exit_code == 0, r.output
    scoring = TournamentService(db).events.event_info()["scoring"]
    # A forfeit win (21.4 "+") scores as a win in either system.
    assert (scoring["win"], scoring["draw"], scoring["forfeit_win"]) == (2.0, 1.0, 2.0)
    assert Scoring.from_dict(scoring).points("+") == 2.0


def test_a_scoring_name_not_known_is_one_line_naming_the_known(tmp_path):
    line = one_line_error(ball("event", "create", "--db", str(tmp_path / "e.db"), "--name",
                               "X", "--system", "swiss", "--scoring", "5-2-0"))  # fmt: skip
    assert "unknown system '5-2-0'" in line and "2-1-0" in line
    # The JSON form still works next to the names.
    r = ball("event", "create", "--db", str(tmp_path / "e.db"), "--name", "X", "--system",
             "swiss", "--scoring", '{"win": 3, "draw": 1}')  # fmt: skip
    assert r.exit_code == 0, r.output


def test_default_chains_follow_15_1_and_15_2(tmp_path):
    rr = xiangqi_event(tmp_path, []).events.event_info()["tiebreaks"]
    assert rr == ["sanctions", "sonneborn-berger", "wins", "direct-encounter", "fouls"]
    swiss = TournamentService(tmp_path / "s.db")
    swiss.events.create_event(name="S", system="swiss", game_name="xiangqi")
    assert swiss.events.event_info()["tiebreaks"] == ["sanctions", "buchholz", "wins", "fouls"]
    # A BALL event keeps its own chain.
    ball_event = TournamentService(tmp_path / "b.db")
    ball_event.events.create_event(name="B", system="swiss")
    assert "sanctions" not in ball_event.events.event_info()["tiebreaks"]


def test_the_table_s_players_must_be_the_document_s_red_first(tmp_path):
    svc = xiangqi_event(tmp_path, ["Wang", "Li"])
    (table,) = svc.rounds.pair_next_round()
    red, black = table["a"], table["b"]
    with pytest.raises(TournamentError, match=rf"this table is {red} \(Red\) - {black} \(Black\)"):
        svc.results.record_table_result(1, 1, sheet=doc(players=(black, red)))
    assert "result" not in svc.rounds.pairings(1)[0]


def test_fouls_then_wins_separate_equal_sonneborn_15_1(tmp_path):
    # 4 players, 3 rounds, every game drawn; P3 commits one foul in each game.
    svc = xiangqi_event(tmp_path, ["P1", "P2", "P3", "P4"])
    for rnd in (1, 2, 3):
        svc.rounds.pair_next_round()
        for t in svc.rounds.pairings(rnd):
            enter(svc, rnd, t["table"], "1/2-1/2", "agreement",
                  fouls={"P3": 1} if "P3" in (t["a"], t["b"]) else {})  # fmt: skip
    table = svc.ranking.standings()["standings"]
    # Everyone drew everything: equal points, SB, wins and direct encounter; P3's fouls
    # put them last (15.1), the others stay equal on fouls and go on to Black games.
    assert [x["points"] for x in table] == [1.5] * 4
    assert table[-1]["name"] == "P3" and table[-1]["tiebreaks"]["fouls"] == 3
    assert {x["rank"] for x in table if x["name"] != "P3"} <= {1, 2, 3}


def test_a_sanctioned_entrant_ranks_last_among_equals_18_4(tmp_path):
    svc = xiangqi_event(tmp_path, ["P1", "P2", "P3", "P4"])
    svc.rounds.pair_next_round()
    for t in svc.rounds.pairings(1):
        enter(svc, 1, t["table"], "1/2-1/2", "agreement")
    svc.arbiter.give_sanction("warning", "spoke to a spectator", player="P1")  # 18.1
    svc.arbiter.give_sanction("warning", "again", player="P2")
    svc.arbiter.give_sanction("warning", "and again", player="P2")
    svc.arbiter.give_sanction("disqualification", "refused the ruling", player="P4")  # 18.2
    names = [x["name"] for x in svc.ranking.standings()["standings"]]
    # Severity first (18.2 below any number of 18.1), then the number of sanctions.
    assert names == ["P3", "P1", "P2", "P4"]
    # The BALL ladder is not Xiangqi's: its steps are refused, naming Xiangqi's.
    with pytest.raises(TournamentError, match=r"\(warning, disqualification\)"):
        svc.arbiter.give_sanction("loss-of-turn", "late", player="P3")


def test_sanctions_do_not_reorder_entrants_with_different_points(tmp_path):
    svc = xiangqi_event(tmp_path, ["P1", "P2"])
    svc.rounds.pair_next_round()
    t = svc.rounds.pairings(1)[0]
    enter(svc, 1, 1, "1-0", "resignation")
    svc.arbiter.give_sanction("disqualification", "misconduct", player=t["a"])
    table = svc.ranking.standings()["standings"]
    assert table[0]["name"] == t["a"] and table[0]["points"] == 1.0


def test_a_forfeit_is_plus_minus_in_the_trf_and_red_is_white(tmp_path):
    chain = ["sanctions", "sonneborn-berger", "wins", "black-games"]  # the organiser's
    svc = xiangqi_event(tmp_path, ["P1", "P2", "P3", "P4"], tiebreaks=chain)
    svc.rounds.pair_next_round()
    t1, t2 = svc.rounds.pairings(1)
    enter(svc, 1, 1, "0-1", "forfeit")  # Red absent (21.4)
    svc.results.record_table_result(1, 2, forfeit="B")
    trf = svc.trf.export_trf()
    rows = {line[14:47].strip(): line for line in trf.splitlines() if line.startswith("001")}
    assert rows[t1["a"]].rstrip().endswith("w -")
    assert rows[t1["b"]].rstrip().endswith("b +")
    assert rows[t2["a"]].rstrip().endswith("w +")
    table = {x["name"]: x for x in svc.ranking.standings()["standings"]}
    # Forfeit wins are wins (14.1, 21.4 "+" = 1) but no game with Black was played.
    assert table[t1["b"]]["tiebreaks"]["wins"] == 1
    assert table[t1["b"]]["tiebreaks"]["black-games"] == 0


# ------------------------------------------------------------------ properties (18.4)


def round_robin_lines(n: int, results: list[str]):
    """Lines of a single round robin of `n` entrants (every pair once, lower number Red),
    `results[k]` the k-th pair's result, figures decided by the plug-in."""
    from ball.tournament.crosstable import Cell, Line

    lines = {i: Line(i, 100 + i, f"E{i}", None, "") for i in range(1, n + 1)}
    points = {"1-0": ("1", "0", 1.0, 0.0), "0-1": ("0", "1", 0.0, 1.0),
              "1/2-1/2": ("=", "=", 0.5, 0.5)}  # fmt: skip
    pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    for rnd, ((a, b), result) in enumerate(zip(pairs, results, strict=False), start=1):
        reason = "agreement" if result == "1/2-1/2" else "resignation"
        figures = XQ.decide(doc(result, reason, players=(f"E{a}", f"E{b}"))).figures
        ca, cb, pa, pb = points[result]
        lines[a].cells.append(Cell(rnd, b, "w", ca, pa, figures["A"]))
        lines[b].cells.append(Cell(rnd, a, "b", cb, pb, figures["B"]))
    return list(lines.values()), len(pairs)


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(3, 6),
    data=st.data(),
    sanctioned=st.dictionaries(
        st.integers(1, 6), st.lists(st.sampled_from(["warning", "disqualification"]), max_size=3)
    ),
)
def test_sanctions_order_only_entrants_equal_on_points_18_4(n, data, sanctioned):
    from ball.tournament import standings

    results = data.draw(st.lists(st.sampled_from(["1-0", "0-1", "1/2-1/2"]),
                                 min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2))  # fmt: skip
    lines, _ = round_robin_lines(n, results)
    chain = XQ.default_chains["round-robin"]
    steps = {100 + k: v for k, v in sanctioned.items() if k <= n}
    table = standings.compute(lines, Scoring(), chain, XQ, round_robin=True, sanctions=steps)
    without = standings.compute(lines, Scoring(), chain, XQ, round_robin=True)
    weight = {s.entrant_id: s.tiebreaks["sanctions"] for s in table}
    for upper, lower in zip(table, table[1:], strict=False):
        # Points first; among equal points the lighter sanction weight first.
        assert upper.points >= lower.points
        if upper.points == lower.points:
            assert weight[upper.entrant_id] <= weight[lower.entrant_id]
    # Sanctions never change points, and an entrant's own sanction never improves their
    # rank (others' sanctions may: they drop below).
    rank = {s.entrant_id: s.rank for s in table}
    for entrant in [e for e, w in weight.items() if w > 0]:
        lighter = {k: v for k, v in steps.items() if k != entrant}
        before = standings.compute(lines, Scoring(), chain, XQ, round_robin=True, sanctions=lighter)
        assert rank[entrant] >= next(s.rank for s in before if s.entrant_id == entrant)
    assert [s.points for s in table] == [s.points for s in without]
