"""Hand scores, session totals, table points and standings (issue 18, MCR as the WMC plays)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.games.mahjong.engine.scoring import (
    HandResult,
    ScoringError,
    hand_scores,
    parse_entry,
    session_over,
    session_result,
    standings,
    table_points,
    team_standings,
)

from .published_hands import HANDS, doc


def test_discard_win_discarder_pays_8_plus_fan_others_8():
    # Sloper #289: "25+8=33 from discarder" and 8 from each of the others.
    assert hand_scores(HandResult("discard", winner=0, discarder=2, fan=25)) == (49, -8, -33, -8)


def test_self_drawn_each_pays_8_plus_fan():
    assert hand_scores(HandResult("self_drawn", winner=3, fan=10)) == (-18, -18, -18, 54)


def test_draw_hand_is_a_valid_entry_and_scores_nothing():
    assert hand_scores(HandResult("draw")) == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (HandResult("discard", winner=0, discarder=0, fan=8), "own discard"),
        (HandResult("discard", winner=0, fan=8), "discarder"),
        (HandResult("self_drawn", winner=0, discarder=1, fan=8), "no discarder"),
        (HandResult("discard", winner=4, discarder=1, fan=8), "winner"),
        (HandResult("discard", winner=0, discarder=1, fan=7), "under the minimum of 8"),
        (HandResult("draw", winner=1), "no winner"),
        (HandResult("chombo"), "outcome"),
    ],
)
def test_bad_hands_are_refused(hand, message):
    with pytest.raises(ScoringError, match=message):
        hand_scores(hand)


def test_entry_with_the_hand_computes_the_fan():
    thirteen = next(h for h in HANDS if h.name == "Thirteen Orphans")
    entry = parse_entry({"outcome": "discard", "winner": 1, "discarder": 0, "hand": doc(thirteen)})
    assert entry.fan == 88 and hand_scores(entry) == (-96, 112, -8, -8)


def test_entry_hand_under_minimum_or_mismatched_is_refused():
    single = next(h for h in HANDS if h.name.startswith("single wait"))
    with pytest.raises(ScoringError, match="under the minimum"):
        parse_entry({"outcome": "discard", "winner": 1, "discarder": 0, "hand": doc(single)})
    with pytest.raises(ScoringError, match="self_drawn does not match"):
        parse_entry({"outcome": "self_drawn", "winner": 1, "hand": doc(HANDS[0])})
    with pytest.raises(ScoringError, match="not both"):
        parse_entry({"outcome": "self_drawn", "winner": 1, "fan": 8, "hand": doc(HANDS[0])})


@pytest.mark.parametrize(
    ("scores", "points"),
    [
        ((50, 20, -10, -60), (4, 2, 1, 0)),
        ((0, 30, 30, -60), (1, 3, 3, 0)),  # tied first and second: (4 + 2) / 2
        ((10, 0, 0, -10), (4, Fraction(3, 2), Fraction(3, 2), 0)),
        ((5, 5, 5, -15), (Fraction(7, 3),) * 3 + (0,)),
        ((0, 0, 0, 0), (Fraction(7, 4),) * 4),
        ((9, -3, -3, -3), (4, 1, 1, 1)),
    ],
)
def test_table_points_ties_share_the_places_they_span(scores, points):
    assert table_points(scores) == tuple(Fraction(p) for p in points)


seats = st.integers(0, 3)


@st.composite
def hands(draw):
    kind = draw(st.sampled_from(["discard", "self_drawn", "draw"]))
    if kind == "draw":
        return HandResult("draw")
    winner = draw(seats)
    fan = draw(st.integers(8, 400))
    if kind == "self_drawn":
        return HandResult(kind, winner=winner, fan=fan)
    discarder = draw(seats.filter(lambda s: s != winner))
    return HandResult(kind, winner=winner, discarder=discarder, fan=fan)


@given(hands())
def test_every_hand_sums_to_zero(hand):
    assert sum(hand_scores(hand)) == 0


@given(st.lists(st.integers(-500, 500), min_size=4, max_size=4))
def test_table_points_always_sum_to_seven_and_follow_the_order(scores):
    points = table_points(scores)
    assert sum(points) == 7
    for i in range(4):
        for j in range(4):
            if scores[i] > scores[j]:
                assert points[i] > points[j]
            if scores[i] == scores[j]:
                assert points[i] == points[j]


@given(st.lists(hands(), max_size=20))
def test_session_totals_sum_to_zero_with_zero_sum_penalties(hs):
    result = session_result((1, 2, 3, 4), hs, penalties=[(-30, 10, 10, 10)])
    assert sum(result.scores) == 0
    assert sum(result.table_points) == 7


def test_session_scores_add_hands_and_penalties():
    result = session_result(
        (11, 12, 13, 14),
        [HandResult("discard", winner=0, discarder=1, fan=8),
         HandResult("self_drawn", winner=2, fan=12), HandResult("draw")],
        penalties=[(0, -5, 0, 0)],
    )
    assert result.scores == (32 - 20, -16 - 20 - 5, -8 + 60, -8 - 20)
    assert result.table_points == (2, 0, 4, 1)


def test_standings_by_table_points_then_score_and_teams_sum():
    a = session_result((1, 2, 3, 4), [HandResult("self_drawn", winner=0, fan=8)])
    b = session_result((1, 2, 3, 4), [HandResult("self_drawn", winner=1, fan=20)])
    c = session_result((5, 6, 7, 8), [HandResult("discard", winner=0, discarder=3, fan=8)])
    assert a.table_points == (4, 1, 1, 1) and b.table_points == (1, 4, 1, 1)
    assert c.table_points == (4, Fraction(3, 2), Fraction(3, 2), 0)
    rows = standings([a, b, c])
    # 2 and 1 both have 5 table points; 2 scored 68, 1 scored 20. 3 and 4 (2 points) come
    # before 6 and 7 (3/2) although they scored less: table points first.
    assert [r.name for r in rows] == [2, 1, 5, 3, 4, 6, 7, 8]
    assert [(r.table_points, r.score, r.sessions) for r in rows[:3]] == [
        (5, 68, 2), (5, 20, 2), (4, 32, 1)]
    teams = team_standings(rows, {1: "A", 2: "A", 5: "B", 6: "B"})
    assert [(t.name, t.table_points, t.score) for t in teams] == [
        ("A", 10, 88), ("B", Fraction(11, 2), 24)]


def test_session_ends_after_16_hands_or_the_time_limit():
    assert not session_over(15, time_up=False)
    assert session_over(16, time_up=False)
    assert session_over(3, time_up=True)
    assert session_over(8, time_up=False, hands=8)
