"""§5 dodge and forced fumble, §6 tactical dodge, its push choices and the ball's step (D-08)."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import IllegalAction

from .scenario import ball, from_square, piece, position


def dodges(g, origin: str) -> set[str]:
    return {a for a in from_square(g, origin) if "/" in a}


def tdodges(g, origin: str) -> set[str]:
    return {a for a in from_square(g, origin) if "x" in a}


# --- §5 dodge -------------------------------------------------------------------------------


def test_s5_dodge_knocks_the_opponent_down_and_exits_one_diagonal_step():
    g = position({"S:X1": "G9", "N:X3": "I11"})
    assert dodges(g, "G9") == {"G9-I11/H10", "G9-I11/J10", "G9-I11/H12", "G9-I11/J12"}
    g.apply("G9-I11/J12")
    assert piece(g, "N:X3") == {"side": "N", "id": "X3", "kind": "X", "at": "I11", "state": "down"}
    assert piece(g, "S:X1")["at"] == "J12"
    assert piece(g, "S:X1")["state"] == "active"
    assert g.pa == 1


def test_s5_orthogonal_two_move_of_an_o_can_dodge():
    g = position({"S:O2": "G9", "N:X3": "G11"})
    assert dodges(g, "G9") == {"G9-G11/F10", "G9-G11/H10", "G9-G11/F12", "G9-G11/H12"}


def test_s5_exit_squares_must_be_empty():
    g = position({"S:X1": "G9", "N:X3": "I11", "N:X7": "J12", "S:O2": "H12"})
    assert dodges(g, "G9") == {"G9-I11/H10", "G9-I11/J10"}


def test_s5_dodge_without_an_exit_cannot_start():
    """§3/§5: every exit square taken (the crossed ally stands on one) → no dodge at all."""
    blockers = {"S:X3": "H10", "N:X7": "J10", "N:O2": "H12", "S:O6": "J12"}
    g = position({"S:X1": "G9", "N:X5": "I11", **blockers}, ball="S:O6")
    assert dodges(g, "G9") == set()
    with pytest.raises(IllegalAction):
        g.apply("G9-I11/J12")
    assert piece(g, "N:X5")["state"] == "active"


def test_s5_a_knocked_down_opponent_cannot_be_dodged():
    g = position({"S:X1": "G9", "N:X3": ("I11", "down")})
    assert dodges(g, "G9") == set()


def test_d08_dodge_exit_onto_the_free_ball_takes_possession():
    """D-08: the exit may be the free ball's square; the dodger takes the ball, §9 applies."""
    g = position({"S:X1": "G9", "N:X3": "I11", "S:X5": "B2"}, ball="J12")
    g.apply("G9-I11/J12")
    assert ball(g) == {"carrier": "S:X1"}
    assert g.to_json()["restricted"] == ["S:X1"]
    assert from_square(g, "J12") == set()


def test_s5_dodge_by_the_carrier_carries_the_ball_to_the_exit():
    g = position({"S:X5": "G9", "N:X3": "I11"})
    g.apply("G9-I11/J12")
    assert ball(g) == {"carrier": "S:X5"}
    assert piece(g, "S:X5")["at"] == "J12"


def test_s5_forced_fumble_the_dodger_takes_the_ball_to_its_exit_and_is_restricted():
    """§5 forced fumble (by the ATK coach, so no steal): possession moves to the dodger,
    and §9 forbids it another ordinary action this turn."""
    g = position({"S:X1": "G9", "N:X5": "I11"}, ball="N:X5")
    g.apply("G9-I11/H12")
    assert g.phase == "action"
    assert ball(g) == {"carrier": "S:X1"}
    assert piece(g, "S:X1")["at"] == "H12"
    assert piece(g, "N:X5")["state"] == "down"
    assert g.to_json()["restricted"] == ["S:X1"]
    with pytest.raises(IllegalAction, match="took the ball this turn"):
        g.apply("H12-G13")


# --- §6 tactical dodge ----------------------------------------------------------------------


def test_s6_tactical_dodge_push_choices_include_the_vacated_origin_but_not_the_landing():
    g = position({"S:X1": "G9", "N:X3": "H10"})
    assert tdodges(g, "G9") == {"G9xI11>G9", "G9xI11>I9", "G9xI11>G11"}


def test_s6_tactical_dodge_moves_over_and_pushes_the_opponent_down():
    g = position({"S:X1": "G9", "N:X3": "H10"})
    g.apply("G9xI11>I9")
    assert piece(g, "S:X1")["at"] == "I11"
    assert piece(g, "N:X3")["at"] == "I9"
    assert piece(g, "N:X3")["state"] == "down"
    assert "H10" not in {p["at"] for p in g.to_json()["pieces"]}
    assert g.pa == 1


def test_s6_push_squares_must_be_empty_and_without_the_free_ball():
    g = position({"S:X1": "G9", "N:X3": "H10", "N:X7": "I9", "S:X5": "B2"}, ball="G11")
    assert tdodges(g, "G9") == {"G9xI11>G9"}


@pytest.mark.parametrize("pid", ["X1", "Q4"])
def test_s6_pieces_with_a_diagonal_two_move_can_tactical_dodge(pid):
    g = position({f"S:{pid}": "G9", "N:X3": "H10"})
    assert tdodges(g, "G9")


def test_s6_an_o_has_no_diagonal_two_move_so_no_tactical_dodge():
    g = position({"S:O2": "G9", "N:X3": "H10"})
    assert tdodges(g, "G9") == set()


def test_s6_landing_square_must_be_empty():
    g = position({"S:X1": "G9", "N:X3": "H10", "N:X7": "I11"})
    assert tdodges(g, "G9") == set()
    assert dodges(g, "G9") == set()  # a dodge cannot jump an opponent either


def test_s6_only_an_active_opponent_can_be_jumped():
    g = position({"S:X1": "G9", "N:X3": ("H10", "down")})
    assert tdodges(g, "G9") == set()


def test_d08_tactical_dodge_landing_on_the_free_ball_takes_it():
    g = position({"S:X1": "G9", "N:X3": "H10", "S:X5": "B2"}, ball="I11")
    g.apply("G9xI11>I9")
    assert ball(g) == {"carrier": "S:X1"}
    assert g.to_json()["restricted"] == ["S:X1"]


@pytest.mark.parametrize(
    ("push", "ball_to"),
    [("I9", "G11"), ("G11", "I9")],
)
def test_s6_fumble_ball_steps_opposite_to_the_push(push, ball_to):
    """§6: the jumped carrier loses the ball; it moves one diagonal step from the carrier's
    square away from the push direction and lies free there."""
    g = position({"S:X1": "G9", "N:X5": "H10"}, ball="N:X5", attack="N")
    g.apply(f"G9xI11>{push}")
    assert ball(g) == {"at": ball_to}
    assert piece(g, "N:X5")["state"] == "down"
    assert g.phase == "action"  # a free ball is nobody's: no steal


def test_s6_fumble_ball_stays_when_the_opposite_square_holds_a_piece():
    g = position({"S:X1": "G9", "N:X5": "H10", "S:X3": "I9"}, ball="N:X5", attack="N")
    g.apply("G9xI11>G11")
    assert ball(g) == {"at": "H10"}


def test_s6_fumble_push_to_the_origin_sends_the_ball_toward_the_landing_so_it_stays():
    """§6: pushing onto the vacated origin points the ball at the landing square, which the
    jumper now holds, so the ball stays free on the carrier's original square."""
    g = position({"S:X1": "G9", "N:X5": "H10"}, ball="N:X5", attack="N")
    g.apply("G9xI11>G9")
    assert ball(g) == {"at": "H10"}
    assert piece(g, "N:X5")["at"] == "G9"


def test_s6_fumble_ball_step_onto_an_opponent_is_blocked_too():
    g = position({"S:X1": "G9", "N:X5": "H10", "N:X3": "G11"}, ball="N:X5", attack="N")
    g.apply("G9xI11>I9")
    assert ball(g) == {"at": "H10"}


def test_s6_fumble_near_the_edge_steps_the_ball_to_the_edge_column():
    """The jumped square is always inside the board (it has neighbours on both sides of the
    jump), so the opposite step lands on the edge column at worst, never off it."""
    g = position({"S:X1": "C11", "N:X5": "B10"}, ball="N:X5", attack="N")
    assert tdodges(g, "C11") == {"C11xA9>C11", "C11xA9>C9", "C11xA9>A11"}
    g.apply("C11xA9>C9")
    assert ball(g) == {"at": "A11"}
