"""§7 Block and Protection (D-09): stacking, closed squares, possession taken from below."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import IllegalAction

from .scenario import ball, from_square, piece, position


def test_s7_block_puts_the_mover_on_top_of_an_opponent_without_knocking_it_down():
    g = position({"S:X1": "G9", "N:X3": "H10"}, turn=5)
    events = g.apply("G9-H10")
    assert piece(g, "S:X1") == {
        "side": "S", "id": "X1", "kind": "X", "at": "H10", "state": "top", "since_turn": 5,
    }  # fmt: skip
    assert piece(g, "N:X3")["state"] == "bottom"
    assert piece(g, "N:X3")["was"] == "active"
    assert not [e for e in events if e.kind == "knockdown"]


def test_s7_protection_stacks_on_an_ally():
    g = position({"S:X1": "G9", "S:X3": "H10"})
    g.apply("G9-H10")
    assert piece(g, "S:X1")["state"] == "top"
    assert piece(g, "S:X3")["state"] == "bottom"


@pytest.mark.parametrize("under", ["N:X3", "S:X3"], ids=["block", "protection"])
def test_d09_stacking_on_a_knocked_down_piece_remembers_its_state(under):
    g = position({"S:X1": "G9", under: ("H10", "down")})
    g.apply("G9-H10")
    assert piece(g, under)["state"] == "bottom"
    assert piece(g, under)["was"] == "down"


def test_d09_a_stack_cannot_be_stacked_on():
    g = position({"S:X1": "G9", "N:X3": ("H10", "top", 4), "N:X7": ("H10", "bottom")})
    assert "G9-H10" not in from_square(g, "G9")


def test_s2_s7_a_stack_square_is_closed_to_every_kind_of_entry():
    """§2: nothing enters or crosses a stack: no 1-step, no 2-step landing, no crossing."""
    others = {"S:X7": "I11", "S:Q4": "J12", "S:O2": "H8"}
    g = position({"S:X1": "G9", "N:X3": "H10", **others})
    g.apply("G9-H10")
    legal = g.legal_actions()
    assert "I11-H10" not in legal  # 1-step onto the stack
    assert not any(a.startswith(("J12-H10", "H8-H10")) for a in legal)  # 2-step landings
    assert not any(a.startswith(("I11-G9", "I11xG9")) for a in legal)  # crossing it


def test_s7_block_on_the_carrier_takes_the_ball_at_once():
    g = position({"S:X1": "G9", "N:X5": "H10"}, ball="N:X5", attack="S")
    g.apply("G9-H10")
    assert ball(g) == {"carrier": "S:X1"}


def test_s7_protection_on_the_own_carrier_also_moves_the_ball_to_the_top():
    g = position({"S:X1": "G9", "S:X5": "H10"})
    g.apply("G9-H10")
    assert ball(g) == {"carrier": "S:X1"}


def test_s7_the_carrier_may_climb_on_a_piece_and_keeps_the_ball():
    g = position({"S:X5": "G9", "N:X3": "H10"})
    g.apply("G9-H10")
    assert ball(g) == {"carrier": "S:X5"}
    assert piece(g, "S:X5")["state"] == "top"


def test_s7_stacked_pieces_cannot_act_or_take_part_in_a_hand_off():
    g = position({"S:X5": "G9", "S:X1": ("H10", "top", 4), "N:X3": ("H10", "bottom")})
    assert from_square(g, "H10") == set()
    assert not any(a.startswith("G9=") for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="on top of a stack"):
        g.apply("H10-I11")
