"""§9 ball actions (hand-off networks, short/long pass), possession and its restriction, and
§10 touchdowns by move, hand-off, pick-up and split (D-11)."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import IllegalAction

from .scenario import ball, from_square, piece, position

COLUMNS = "ABCDEFGHIJKLM"


def playable_squares() -> list[str]:
    """D-01, written independently of the engine: (column index from A=1 + row) even."""
    return [f"{c}{r}" for i, c in enumerate(COLUMNS, 1) for r in range(1, 18) if (i + r) % 2 == 0]


def dist(a: str, b: str) -> int:
    """D-02: max(|Δcolumn|, |Δrow|)."""
    return max(abs(COLUMNS.index(a[0]) - COLUMNS.index(b[0])), abs(int(a[1:]) - int(b[1:])))


def handoffs(g, origin: str) -> set[str]:
    return {a.split("=")[1] for a in from_square(g, origin) if "=" in a}


# --- hand-off (§9) ---------------------------------------------------------------------------


def test_s9_hand_off_reaches_the_whole_chain_of_adjacent_active_allies():
    g = position({"S:X5": "G9", "S:X1": "H10", "S:X3": "I11", "S:X7": "K11", "S:O2": "F8"})
    assert handoffs(g, "G9") == {"H10", "I11", "F8"}


@pytest.mark.parametrize(
    "link",
    [
        {"S:X1": ("H10", "down")},
        {"N:X1": "H10"},
        {"S:X1": ("H10", "top", 4), "N:X3": ("H10", "bottom")},
    ],
    ids=["knocked-down-ally", "opponent", "stack"],
)
def test_s9_inactive_allies_and_opponents_break_the_network(link):
    g = position({"S:X5": "G9", "S:X7": "I11", **link})
    assert handoffs(g, "G9") == set()


def test_s9_hand_off_moves_no_piece_and_the_receiver_may_act_on():
    g = position({"S:X5": "G9", "S:X1": "H10", "S:X3": "I11"})
    g.apply("G9=I11")
    assert ball(g) == {"carrier": "S:X3"}
    assert piece(g, "S:X5")["at"] == "G9"
    assert piece(g, "S:X3")["at"] == "I11"
    assert g.to_json()["restricted"] == []
    g.apply("I11-J12")
    assert piece(g, "S:X3")["at"] == "J12"


def test_s3_only_the_ball_carrier_may_hand_off_or_pass():
    g = position({"S:X5": "G9", "S:X1": "H10", "S:X3": "I11"})
    with pytest.raises(IllegalAction, match="only the ball carrier may pass"):
        g.apply("H10~I11@J12")
    with pytest.raises(IllegalAction, match="only the ball carrier may pass"):
        g.apply("H10@G15")
    with pytest.raises(IllegalAction, match="only the ball carrier may hand off"):
        g.apply("H10=I11")


# --- short pass (§9) --------------------------------------------------------------------------


def test_s9_short_pass_reaches_receivers_at_distance_up_to_4():
    g = position({"S:X5": "G7", "S:X1": "K11", "S:X7": "L12", "S:X3": "G11"})
    receivers = {a.split("~")[1].split("@")[0] for a in from_square(g, "G7") if "~" in a}
    assert receivers == {"K11", "G11"}  # L12 is 5 away
    with pytest.raises(IllegalAction, match="5 squares away"):
        g.apply("G7~L12@K13")


def test_s9_short_pass_puts_the_ball_free_next_to_the_receiver():
    g = position({"S:X5": "G5", "S:X1": "K9", "N:X1": "L10"})
    squares = {a.split("@")[1] for a in from_square(g, "G5") if a.startswith("G5~K9@")}
    assert squares == {"J8", "L8", "J10"}  # L10 holds a piece
    g.apply("G5~K9@J10")
    assert ball(g) == {"at": "J10"}  # the receiver does not take it yet
    assert g.pa == 1


def test_s9_a_knocked_down_ally_is_no_short_pass_receiver():
    g = position({"S:X5": "G5", "S:X1": ("G7", "down")})
    assert not any(a.startswith("G5~G7") for a in g.legal_actions())


# --- long pass (§9) ---------------------------------------------------------------------------


def test_s9_long_pass_targets_every_empty_square_two_or_more_from_every_ally():
    layout = {"S:X5": "G5", "S:X1": "K9", "S:X3": ("C7", "down"), "N:X1": "G9", "N:X3": "H10"}
    g = position(layout)
    occupied = {p["at"] for p in g.to_json()["pieces"]}
    allies = [p["at"] for p in g.to_json()["pieces"] if p["side"] == "S"]
    expected = {
        sq
        for sq in playable_squares()
        if sq not in occupied and all(dist(sq, a) >= 2 for a in allies)
    }
    got = {a.split("@")[1] for a in from_square(g, "G5") if "@" in a and "~" not in a}
    assert got == expected
    assert "F6" not in got and "G11" in got  # next to the passer; next to an opponent


def test_s9_long_pass_leaves_the_ball_free():
    g = position({"S:X5": "G5"})
    g.apply("G5@G11")
    assert ball(g) == {"at": "G11"}


# --- possession and its restriction (§9) ----------------------------------------------------


def test_s9_moving_onto_the_free_ball_takes_it_at_no_extra_pa():
    g = position({"S:X1": "G9", "S:X5": "B2"}, ball="H10")
    g.apply("G9-H10")
    assert ball(g) == {"carrier": "S:X1"}
    assert g.pa == 1


@pytest.mark.parametrize("route", ["G9-H10", "G9-I11", "F10-H10"])
def test_s9_every_movement_that_ends_on_the_free_ball_takes_it(route):
    """§9: 1-step, 2-step diagonal and orthogonal 2-step all end on the ball's square."""
    origin, target = route.split("-")
    pid = "O2" if origin == "F10" else "X1"
    g = position({f"S:{pid}": origin, "S:X5": "B2"}, ball=target)
    g.apply(route)
    assert ball(g) == {"carrier": f"S:{pid}"}


def test_s9_a_piece_that_took_the_free_ball_may_not_act_again_this_turn():
    g = position({"S:X1": "G9", "S:X5": "B2", "S:X3": "I11"}, ball="H10")
    g.apply("G9-H10")
    assert g.to_json()["restricted"] == ["S:X1"]
    assert from_square(g, "H10") == set()
    with pytest.raises(IllegalAction, match="took the ball this turn"):
        g.apply("H10-I9")
    with pytest.raises(IllegalAction, match="took the ball this turn"):
        g.apply("H10=I11")
    g.apply("I11-J12")  # other pieces still act


def test_s9_the_restriction_lasts_only_for_the_turn():
    g = position({"S:X1": "G9", "S:X5": "B2"}, ball="H10")
    g.apply("G9-H10")
    g.apply("end")
    assert g.to_json()["restricted"] == []
    g.apply("end")  # N passes
    assert "H10-I11" in g.legal_actions()


# --- touchdowns (§10, D-11) ---------------------------------------------------------------------


def assert_touchdown(g, side: str) -> None:
    assert g.is_over and g.phase == "over"
    assert g.score == {"S": int(side == "S"), "N": int(side == "N")}
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction, match="the half is over"):
        g.apply("end")


def test_s10_touchdown_by_moving_the_carrier_into_the_end_zone():
    g = position({"S:X5": "H16"})
    events = g.apply("H16-G17")
    assert_touchdown(g, "S")
    assert [e.detail for e in events if e.kind == "touchdown"] == [{"piece": "S:X5", "at": "G17"}]


def test_s10_n_scores_in_row_1():
    g = position({"N:X5": "H2"}, ball="N:X5", attack="N", to_move="N")
    g.apply("H2-G1")
    assert_touchdown(g, "N")


def test_s10_own_back_row_is_not_a_scoring_zone():
    g = position({"S:X5": "H2", "N:X1": "A9"})
    g.apply("H2-G1")
    assert not g.is_over


def test_s10_no_touchdown_without_the_ball():
    g = position({"S:X1": "H16"})
    g.apply("H16-G17")
    assert not g.is_over


def test_d11_hand_off_to_a_receiver_in_the_end_zone_scores():
    g = position({"S:X5": "G15", "S:X1": "H16", "S:X3": "I17"})
    g.apply("G15=I17")
    assert_touchdown(g, "S")


def test_d11_taking_the_free_ball_in_the_end_zone_scores():
    g = position({"S:X1": "H16", "S:X5": "B2"}, ball="G17")
    g.apply("H16-G17")
    assert_touchdown(g, "S")


def test_d11_a_pass_into_the_end_zone_does_not_score_by_itself():
    g = position({"S:X5": "G13", "S:X1": "H16"})
    g.apply("G13~H16@G17")
    assert not g.is_over


def test_d11_split_that_carries_the_ball_into_the_end_zone_scores():
    stack = {"S:X1": ("H16", "top", 4), "S:X3": ("H16", "bottom")}
    g = position(stack, ball="S:X1", phase="release", pa=0)
    g.apply("split H16 I17 G15:top")
    assert_touchdown(g, "S")


def test_d11_dodge_exit_into_the_end_zone_carrying_the_ball_scores():
    g = position({"S:X5": "F14", "N:X3": "H16"})
    g.apply("F14-H16/G17")
    assert_touchdown(g, "S")


def test_d11_tactical_dodge_landing_on_the_free_ball_in_the_end_zone_scores():
    g = position({"S:X1": "E15", "N:X3": "F16", "S:X5": "B2"}, ball="G17")
    g.apply("E15xG17>E17")
    assert_touchdown(g, "S")
