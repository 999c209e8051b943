"""§12 ball clock: one row of the PB table per test, D-16, dual entry and D-17."""

from __future__ import annotations

import pytest

from .scenario import position


def pb(atk_side: str, amount: int) -> dict:
    """Dual entry: `amount` PB of `atk_side`'s attack, written on both coaches."""
    other = "N" if atk_side == "S" else "S"
    return {atk_side: {"atk": amount, "def": 0}, other: {"atk": 0, "def": amount}}


def after(pieces, actions, **kw):
    g = position(pieces, **kw)
    for a in actions:
        g.apply(a)
    return g


@pytest.mark.parametrize(
    "row",
    [
        ({"S:X5": "G9"}, ["G9-H10"], 1),  # carrier moves 1 square
        ({"S:X5": "G9"}, ["G9-I11"], 1),  # carrier moves 2 squares
        ({"S:O2": "G9"}, ["G9-G11"], 1, "S:O2"),  # carrier moves 2 squares orthogonally
        ({"S:X5": "G9", "N:X3": "I11"}, ["G9-I11/J12"], 1),  # a dodge by the carrier
        ({"S:X5": "G9"}, ["G9-H10", "H10-I11"], 2),  # two ball actions, two PB
        ({"S:X5": "G9", "S:X1": "H10", "S:X3": "I11"}, ["G9=I11"], 1),  # hand-off via chain
        ({"S:X5": "G9", "S:X1": "H10"}, ["G9=H10", "H10-I11"], 2),  # new carrier moves: +1
        ({"S:X5": "G9", "S:X1": "K11"}, ["G9~K11@J12"], 1),  # short pass
        ({"S:X5": "G9"}, ["G9@G13"], 1),  # long pass
        ({"S:X1": "G9", "N:X5": "I11"}, ["G9-I11/J12"], 1, "N:X5"),  # forced fumble to the ATK
        ({"S:X1": "G9", "S:X5": "B2"}, ["end"], 0),  # nothing touches the ball
        ({"S:X1": "G9", "S:X5": "B2"}, ["G9-H10", "H10-I11"], 0),  # non-carrier moves
        ({"S:X1": "G9", "N:X3": "I11", "S:X5": "B2"}, ["G9-I11/J12"], 0),  # non-ball dodge
        ({"S:X1": "G9", "N:X3": "H10", "S:X5": "B2"}, ["G9-H10"], 0),  # non-ball block
        ({"S:X1": "G9", "N:X3": "H10", "S:X5": "B2"}, ["G9xI11>I9"], 0),  # non-ball tdodge
    ],
    ids=[
        "carrier-1",
        "carrier-2",
        "carrier-orth",
        "carrier-dodge",
        "two-ball-actions",
        "hand-off-chain",
        "hand-off-then-move",
        "short-pass",
        "long-pass",
        "forced-fumble",
        "end",
        "non-carrier-moves",
        "non-ball-dodge",
        "non-ball-block",
        "non-ball-tdodge",
    ],
)
def test_s12_pb_table_rows_for_the_atk_coach(row):
    pieces, actions, expected, *carrier = row
    g = after(pieces, actions, ball=carrier[0] if carrier else "S:X5")
    assert g.pb == pb("S", expected)


def test_s12_d16_taking_the_free_ball_adds_exactly_one():
    g = after({"S:X1": "G9", "S:X5": "B2"}, ["G9-H10"], ball="H10")
    assert g.pb == pb("S", 1)


def test_d16_tactical_dodge_fumble_adds_one():
    g = after({"S:X1": "G9", "N:X5": "H10"}, ["G9xI11>I9"], ball="N:X5", attack="N")
    assert g.pb == pb("N", 1)  # the ball went free; N still holds the ATK role


def test_d16_top_taking_the_ball_from_the_carrier_adds_one():
    g = after({"S:X1": "G9", "S:X5": "H10"}, ["G9-H10"])
    assert g.pb == pb("S", 1)


def test_d16_split_moving_the_ball_adds_one_and_stand_up_adds_none():
    stack = {"S:X1": ("H10", "top", 4), "S:X3": ("H10", "bottom"), "S:X7": ("K9", "down")}
    g = position(stack, ball="S:X1", phase="release", pa=0)
    g.apply("up K9-L10")
    assert g.pb == pb("S", 0)
    g.apply("split H10 I11 G9:top")
    assert g.pb == pb("S", 1)


def test_d16_split_without_the_ball_adds_nothing():
    g = position({"S:X1": ("H10", "top", 4), "N:X3": ("H10", "bottom")}, phase="release", pa=0)
    g.apply("split H10 I11 G9")
    assert g.pb == pb("S", 0)


def test_d17_steal_with_continue_charges_the_stealer_as_atk():
    g = after({"S:X1": "G9", "N:X5": "H10"}, ["G9-H10", "continue"], ball="N:X5", attack="N")
    assert g.pb == pb("S", 1)


def test_d17_steal_with_reset_is_two_pb_for_the_atk():
    g = after({"S:X1": "G9", "N:X5": "H10"}, ["G9-H10", "reset"], ball="N:X5", attack="N")
    assert g.pb == pb("N", 2)


def test_s12_pb_events_name_the_attack_they_belong_to():
    g = position({"S:X5": "G9"})
    events = g.apply("G9-H10")
    assert [(e.kind, e.detail["atk"]) for e in events if e.kind == "pb"] == [("pb", "S")]


def test_s12_counters_accumulate_and_a_coach_can_hold_both():
    """§12: counters never reset within a half; after a steal the new ATK adds PBATK on top
    of the PBDEF it already had."""
    start = {"S": {"atk": 0, "def": 3}, "N": {"atk": 3, "def": 0}}
    g = position({"S:X1": "G9", "N:X5": "H10"}, ball="N:X5", attack="N", pb=start)
    g.apply("G9-H10")
    g.apply("continue")
    assert g.pb == {"S": {"atk": 1, "def": 3}, "N": {"atk": 3, "def": 1}}
