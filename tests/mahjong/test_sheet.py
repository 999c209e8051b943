"""The session sheet (`ball.games.mahjong.engine.sheet`): hands, rulings in hand order, totals, and
the errors that name the field."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.mahjong.engine.sheet import SheetError, read_sheet

SEATS = {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"}


def sheet(**over: object) -> dict[str, object]:
    return {"table": 1, "seats": dict(SEATS), "hands": [], **over}


def test_discard_self_drawn_draw_and_a_computed_hand():
    hand = {  # Big Three Dragons, Half Flush, Melded Kong: 95 fan (docs/mahjong.md)
        "hand": ["W2", "W3", "W6", "W6"], "melds": [["GANG", "J1"], ["PENG", "J2"],
                                                  ["PENG", "J3"]], "win_tile": "W4",
    }  # fmt: skip
    got = read_sheet(sheet(hands=[
        {"winner": "E", "discarder": "S", "fan": 8},  # E +32, S -16, W -8, N -8
        {"winner": "N", "discarder": None, "fan": 10},  # N +54, each -18
        {"draw": True},
        {"winner": "W", "discarder": "E", "hand": hand},  # W +119, E -103, S -8, N -8
    ]))  # fmt: skip
    assert got.scores == (32 - 18 - 103, -16 - 18 - 8, -8 - 18 + 119, -8 + 54 - 8)
    assert got.table_points == (0, 1, 4, 2)
    assert got.players == ("Ann", "Bo", "Cy", "Di") and got.hands == 4


def test_dead_hand_cannot_win_that_hand_but_the_next():
    dead = [{"hand": 2, "seat": "W", "kind": "short-hand", "at": "10:00"}]  # LS 3
    hands = [{"winner": "E", "discarder": "S", "fan": 8}, {"winner": "W", "discarder": "E",
                                                           "fan": 8}]  # fmt: skip
    with pytest.raises(SheetError, match=r"hands\[1\]\.winner: W's hand is dead"):
        read_sheet(sheet(hands=hands, penalties=dead))
    ok = read_sheet(sheet(hands=[*hands, hands[1]], penalties=[dict(dead[0], hand=1)]))
    assert ok.scores[2] == -8 + 32 + 32  # dead in hand 1 only; wins hands 2 and 3


def test_a_false_winner_cannot_win_that_hand_but_the_next():
    # Issue 32 item 5 (MCR): a false win in hand 2 bars that seat from winning hand 2.
    false = [{"hand": 2, "seat": "W", "kind": "false-win", "at": "10:00"}]
    hands = [{"winner": "E", "discarder": "S", "fan": 8}, {"winner": "W", "discarder": "E",
                                                           "fan": 8}]  # fmt: skip
    with pytest.raises(SheetError, match=r"hands\[1\]\.winner: W declared a false win"):
        read_sheet(sheet(hands=hands, penalties=false))
    ok = read_sheet(sheet(hands=[*hands, {"draw": True}], penalties=[dict(false[0], hand=3)]))
    assert ok.scores[2] == -8 + 32 - 30  # wins hand 2; the false win comes in hand 3


def test_an_arbiter_penalty_of_any_amount():
    # Issue 32 item 4: 10 and 5 points, deducted and given to no one (MCR).
    got = read_sheet(sheet(hands=[{"draw": True}], penalties=[
        {"seat": "E", "kind": "arbiter", "points": 10, "article": "LS 6"},
        {"seat": "N", "kind": "arbiter", "points": 5, "article": "WC 2"}]))  # fmt: skip
    assert got.penalty_points == (-10, 0, 0, -5) and got.scores == (-10, 0, 0, -5)


def test_false_win_and_time_penalty_and_a_tie():
    got = read_sheet(sheet(
        hands=[{"winner": "E", "discarder": "S", "fan": 8}],
        penalties=[{"seat": "N", "kind": "false-win", "at": "10:42"}],  # WC 6: -30, +10 each
        time_penalties=[{"seat": "S", "at": 61, "over_seconds": 31, "limit": "hand"}],  # 15
    ))  # fmt: skip
    assert got.penalty_points == (10, 10 - 15, 10, -30)
    assert got.scores == (42, -21, 2, -38)
    assert [e["article"] for e in got.log] == ["WC 6", "TL 1"]
    tie = read_sheet(sheet(hands=[{"winner": "E", "discarder": None, "fan": 8}]))
    assert tie.table_points == (4, Fraction(1), Fraction(1), Fraction(1))


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (sheet(seats={"E": "A", "S": "A", "W": "C", "N": "D"}), "seats: four different"),
        (sheet(seats={"E": "A", "S": "B", "W": "C"}), "seats.N"),
        (sheet(hands=[{"winner": "Q", "fan": 8}]), r"hands\[0\]\.winner"),
        (sheet(hands=[{"winner": "E", "discarder": "E", "fan": 8}]), r"hands\[0\]\.discarder"),
        (sheet(hands=[{"winner": "E"}]), r"hands\[0\]\.fan"),
        (sheet(hands=[{"draw": True, "fan": 8}]), r"hands\[0\]"),
        (sheet(hands=[{"winner": "E", "fan": 8}] * 17), "at most 16"),
        (sheet(penalties=[{"hand": 3, "seat": "E", "kind": "false-win"}]), r"\.hand"),
        (sheet(hands=[{"draw": True}], penalties=[{"seat": "E", "kind": "arbiter"}]),
         r"penalties\[0\]\.points"),
        (sheet(hands=[{"draw": True}], totals={"E": 1, "S": 0, "W": 0, "N": 0}), "sum to 1"),
        (sheet(colour="red"), "colour: unknown field"),
        ([], "JSON object"),
    ],
)  # fmt: skip
def test_refusals_name_the_field(doc, field):
    with pytest.raises(SheetError, match=field):
        read_sheet(doc)


HAND = st.one_of(
    st.just({"draw": True}),
    st.builds(
        lambda w, d, fan: {"winner": w, "discarder": None if d == w else d, "fan": fan},
        st.sampled_from("ESWN"), st.sampled_from("ESWN"), st.integers(8, 88),
    ),
)  # fmt: skip


@pytest.mark.hypothesis
@settings(max_examples=60, deadline=None)
@given(st.lists(HAND, max_size=16), st.lists(st.sampled_from("ESWN"), max_size=3))
def test_hands_and_shared_rulings_sum_to_zero_and_give_seven_table_points(hands, false_wins):
    # a false winner may not win the hand of its false win (MCR), so not hand 1's winner
    rulings = [{"hand": 1, "seat": s, "kind": "false-win"} for s in false_wins
               if s != hands[0].get("winner")] if hands else []  # fmt: skip
    got = read_sheet(sheet(hands=hands, penalties=rulings))
    assert sum(got.hand_points) == 0 and sum(got.scores) == 0
    assert sum(got.table_points) == 7
    ranked = sorted(range(4), key=lambda i: -got.scores[i])
    assert [got.table_points[i] for i in ranked] == sorted(got.table_points, reverse=True)


def test_running_totals_after_each_hand_include_that_hands_rulings():
    got = read_sheet(sheet(
        hands=[{"winner": "E", "discarder": "S", "fan": 8}, {"draw": True},
               {"winner": "N", "discarder": None, "fan": 8}],
        penalties=[{"hand": 2, "seat": "W", "kind": "false-win"}],  # WC 6: -30, +10 each
    ))  # fmt: skip
    assert got.running == ((32, -16, -8, -8), (42, -6, -38, 2), (26, -22, -54, 50))
    assert got.running[-1] == got.scores and got.fans == (8, 0, 8)


def test_a_waived_overrun_gives_the_points_back_and_stays_in_the_log():
    # TL 6: the referee may waive an overrun with good reason; the entry stays, marked.
    over = {"seat": "S", "at": 30, "over_seconds": 20, "limit": "turn"}  # TL 2: 10 points
    got = read_sheet(sheet(hands=[{"draw": True}],
                           time_penalties=[dict(over, waived="tile fell off the table")]))
    assert got.penalty_points == (0, 0, 0, 0)
    assert [(e["ruling"], e["waived"]) for e in got.log] == [("turn_overrun", True),
                                                             ("waiver", False)]  # fmt: skip
    with pytest.raises(SheetError, match=r"time_penalties\[0\]\.waived"):
        read_sheet(sheet(hands=[{"draw": True}], time_penalties=[dict(over, waived=" ")]))


def test_the_80_point_line_waits_for_the_arbiter():
    # TL 7: 80 time points in one hand; the arbiter confirms "unwilling to continue".
    big = {"hand": 1, "seat": "W", "at": 10, "over_seconds": 240, "limit": "hand"}  # 80
    got = read_sheet(sheet(hands=[], time_penalties=[big]), in_play=True)
    assert got.pending == (2,) and got.penalty_points == (0, 0, -80, 0)
    done = read_sheet(sheet(hands=[], time_penalties=[big],
                            penalties=[{"hand": 1, "seat": "W", "kind": "unwilling"}]),
                      in_play=True)  # fmt: skip
    assert done.pending == () and done.log[-1]["ruling"] == "unwilling_to_continue"
    with pytest.raises(SheetError, match=r"penalties\[0\]: seat 1: has not reached 80"):
        read_sheet(sheet(hands=[{"draw": True}],
                         penalties=[{"hand": 1, "seat": "S", "kind": "unwilling"}]))


def test_rulings_of_the_hand_in_play_only_on_a_sheet_in_play():
    ruling = [{"hand": 2, "seat": "E", "kind": "long-hand"}]  # LS 4: dead in hand 2
    hands = [{"draw": True}]
    with pytest.raises(SheetError, match=r"penalties\[0\]\.hand: the sheet has 1 hands"):
        read_sheet(sheet(hands=hands, penalties=ruling))
    got = read_sheet(sheet(hands=hands, penalties=ruling), in_play=True)
    assert got.log[0]["hand"] == 2 and got.running == ((0, 0, 0, 0),)


def test_corrected_exposure_and_cancelled_kong_are_logged_without_points():
    # WC 1: the spare tiles of a corrected exposure become penalty tiles; WC 4: a cancelled
    # kong carries no penalty. Neither changes the score.
    got = read_sheet(sheet(hands=[{"draw": True}], penalties=[
        {"seat": "S", "kind": "corrected-exposure", "spare_tiles": 1},
        {"seat": "W", "kind": "cancelled-kong"},
    ]))  # fmt: skip
    assert [(e["article"], e["seat"], e["penalty_tiles"]) for e in got.log] == [
        ("WC 1", 1, 1), ("WC 4", 2, 0)]
    assert got.penalty_points == (0, 0, 0, 0)
