"""§4 ordinary movement of X, O and Q (D-07), crossing rules, and what a destination means."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import IllegalAction

from .scenario import ball, from_square, piece, position, targets

DIAG1 = {"F8", "H8", "F10", "H10"}
DIAG2 = {"E7", "I7", "E11", "I11"}
ORTH2 = {"G7", "G11", "E9", "I9"}


@pytest.mark.parametrize(
    ("pid", "expected"),
    [("X1", DIAG1 | DIAG2), ("O2", DIAG1 | ORTH2), ("Q4", DIAG1 | DIAG2 | ORTH2)],
)
def test_s4_each_kind_moves_in_its_own_shapes_on_an_open_board(pid, expected):
    """§4: X 1–2 diagonal, O 2 orthogonal or 1 diagonal, Q both; D-07: no bent 2-move."""
    g = position({f"S:{pid}": "G9"})
    assert targets(g, "G9") == expected


def test_d07_two_square_diagonal_is_straight_so_x_never_reaches_orthogonal_squares():
    """D-07: E9/G11 are 2 squares from G9 only by a bent path, which X may not take."""
    g = position({"S:X1": "G9"})
    for square in ORTH2:
        with pytest.raises(IllegalAction):
            g.copy().apply(f"G9-{square}")


def test_s4_moves_stop_at_the_board_edge():
    """§1/§4: an X in the corner-side column only has the on-board diagonals."""
    g = position({"S:X1": "A9"})
    assert targets(g, "A9") == {"B8", "B10", "C7", "C11"}


def test_s4_q_on_the_edge_keeps_its_orthogonal_moves_along_the_edge():
    g = position({"S:Q4": "A9"})
    assert targets(g, "A9") == {"B8", "B10", "C7", "C11", "A7", "A11", "C9"}


def test_d07_orthogonal_two_move_crosses_nothing_so_it_cannot_be_obstructed():
    """D-07: O's orthogonal 2-move passes no playable square; a ring of opponents and a
    stack around it do not stop it."""
    ring = {"N:X1": "F8", "N:X3": "H8", "N:X7": "F10", "N:O6": ("H10", "down")}
    g = position({"S:O2": "G9", **ring})
    assert targets(g, "G9") >= ORTH2


def test_same_piece_may_act_twice_in_a_turn():
    """§3: the same piece may act more than once in a turn (2 PA)."""
    g = position({"S:X1": "G9"})
    g.apply("G9-H10")
    g.apply("H10-I11")
    assert piece(g, "S:X1")["at"] == "I11"
    assert g.to_move == "N"


# --- crossing (middle square of a 2-square diagonal move, §4) ----------------------------


def test_s4_cross_an_empty_square():
    g = position({"S:X1": "G9"})
    assert "I11" in targets(g, "G9")


def test_s4_cross_a_free_ball_which_stays_and_grants_nothing():
    """§4/§9: crossing the free ball does not pick it up, restricts nothing, adds no PB."""
    g = position({"S:X1": "G9"}, ball="H10")
    g.apply("G9-I11")
    assert ball(g) == {"at": "H10"}
    assert g.to_json()["restricted"] == []
    assert g.pb == {"S": {"atk": 0, "def": 0}, "N": {"atk": 0, "def": 0}}
    g.apply("I11-J12")  # still free to act: no §9 restriction
    assert piece(g, "S:X1")["at"] == "J12"


def test_s4_cross_an_active_ally():
    g = position({"S:X1": "G9", "S:X3": "H10"})
    assert "I11" in targets(g, "G9")


@pytest.mark.parametrize(
    "middle",
    [
        {"S:X3": ("H10", "down")},  # inactive (knocked-down) ally
        {"N:X3": ("H10", "down")},  # inactive opponent
        {"S:X3": ("H10", "top", 4), "N:X3": ("H10", "bottom")},  # a stack (block)
        {"S:X3": ("H10", "top", 4), "S:X7": ("H10", "bottom")},  # a stack (protection)
        {"N:X3": ("H10", "top", 4), "S:X7": ("H10", "bottom")},  # an opposing stack
    ],
    ids=["down-ally", "down-opponent", "block-stack", "protection-stack", "opposing-stack"],
)
def test_s2_s4_inactive_pieces_and_stacks_cannot_be_crossed(middle):
    """§2/§4: no crossing over an inactive piece or a closed stack square, and no tactical
    dodge over them either."""
    g = position({"S:X1": "G9", **middle})
    assert not any("I11" in a for a in from_square(g, "G9"))
    with pytest.raises(IllegalAction):
        g.apply("G9-I11")


def test_s4_s6_an_active_opponent_is_passed_only_by_a_tactical_dodge():
    g = position({"S:X1": "G9", "N:X3": "H10"})
    acts = from_square(g, "G9")
    assert "G9-I11" not in acts
    assert any(a.startswith("G9xI11>") for a in acts)


# --- destinations (§4) --------------------------------------------------------------------


def test_s4_two_square_move_onto_an_ally_is_illegal():
    g = position({"S:X1": "G9", "S:X3": "I11"})
    assert not any(a.startswith("G9-I11") for a in g.legal_actions())


@pytest.mark.parametrize(
    "target",
    [
        {"N:X3": ("I11", "down")},
        {"N:X3": ("I11", "top", 4), "S:X7": ("I11", "bottom")},
        {"S:X3": ("I11", "top", 4), "N:X7": ("I11", "bottom")},
    ],
    ids=["down-opponent", "opposing-top-stack", "own-top-stack"],
)
def test_s4_two_square_move_onto_anything_but_one_active_opponent_is_illegal(target):
    g = position({"S:X1": "G9", **target})
    assert not any(a.startswith("G9-I11") for a in g.legal_actions())


def test_s4_two_square_move_onto_an_active_opponent_is_a_dodge_not_a_move():
    g = position({"S:X1": "G9", "N:X3": "I11"})
    acts = from_square(g, "G9")
    assert "G9-I11" not in acts
    assert {a for a in acts if a.startswith("G9-I11/")} == {
        "G9-I11/H10",
        "G9-I11/J10",
        "G9-I11/H12",
        "G9-I11/J12",
    }
    with pytest.raises(IllegalAction, match="dodge"):
        g.apply("G9-I11")


def test_s4_s7_one_square_move_onto_a_piece_is_block_or_protection():
    g = position({"S:X1": "G9", "N:X3": "H10", "S:X7": "F8"})
    assert {"G9-H10", "G9-F8"} <= from_square(g, "G9")


def test_s4_one_square_move_onto_a_stack_is_illegal():
    g = position({"S:X1": "G9", "N:X3": ("H10", "top", 4), "S:X7": ("H10", "bottom")})
    with pytest.raises(IllegalAction, match="stack"):
        g.apply("G9-H10")


def test_s4_two_one_square_moves_are_not_a_dodge():
    """§3/§4: two separate 1-square moves onto an opponent make a block, never a dodge."""
    g = position({"S:X1": "G9", "N:X3": "I11"})
    g.apply("G9-H10")
    g.apply("H10-I11")
    assert piece(g, "S:X1")["state"] == "top"
    assert piece(g, "N:X3")["state"] == "bottom"
    assert piece(g, "N:X3")["was"] == "active"


def test_s2_inactive_pieces_cannot_act():
    g = position({"S:X1": ("G9", "down"), "S:X3": ("D8", "top", 4), "N:X7": ("D8", "bottom")})
    assert from_square(g, "G9") == set()
    assert from_square(g, "D8") == set()
    with pytest.raises(IllegalAction, match="knocked down"):
        g.apply("G9-H10")


def test_s3_opponents_pieces_cannot_be_moved():
    g = position({"N:X1": "G9"})
    with pytest.raises(IllegalAction, match="S is to move"):
        g.apply("G9-H10")


def test_d01_d02_playable_squares_and_distance():
    """D-01: 111 playable squares, A1/M1/A17/M17/G9 yes, B1 no; D-02: distance is the king
    distance on the lattice."""
    from ball.games.ball.engine.board import NAMES, PLAYABLE, distance, parse_square

    assert len(PLAYABLE) == 111
    assert {"A1", "M1", "A17", "M17", "G9"} <= {NAMES[s] for s in PLAYABLE}
    assert "B1" not in {NAMES[s] for s in PLAYABLE}
    assert distance(parse_square("G7"), parse_square("K13")) == 6
    assert distance(parse_square("G7"), parse_square("H8")) == 1
