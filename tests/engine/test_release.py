"""§8 release phase: stand-ups and splits, ordering, skipping, D-10, stacks of this turn."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import IllegalAction

from .scenario import ball, piece, position

AROUND_H10 = {"G9", "I9", "G11", "I11"}


def ups(g) -> set[str]:
    return {a for a in g.legal_actions() if a.startswith("up ")}


def splits(g) -> set[str]:
    return {a for a in g.legal_actions() if a.startswith("split ")}


def test_s8_stand_up_is_a_release_task_after_the_action_phase():
    g = position({"S:X3": ("G9", "down")}, turn=5)
    g.apply("end")
    assert g.phase == "release"
    assert g.legal_actions() == ["up G9-F10", "up G9-F8", "up G9-H10", "up G9-H8"]
    g.apply("up G9-H10")
    assert piece(g, "S:X3")["at"] == "H10"
    assert piece(g, "S:X3")["state"] == "active"
    # the last task done, the phase ends by itself and N's turn begins
    assert (g.to_move, g.phase, g.turn, g.pa) == ("N", "action", 6, 2)


def test_s8_d10_stand_up_needs_an_empty_square_without_the_free_ball():
    g = position(
        {"S:X3": ("G9", "down"), "S:X1": "H8", "N:X1": "H10", "S:X5": "B2"},
        ball="F8",
        phase="release",
        pa=0,
    )
    assert ups(g) == {"up G9-F10"}


def test_s8_a_task_without_solution_is_skipped_and_the_phase_ends_by_itself():
    g = position({"S:X3": ("A9", "down"), "S:X1": "B8", "N:X1": "B10"}, turn=5)
    g.apply("end")
    assert (g.to_move, g.phase, g.turn) == ("N", "action", 6)
    assert piece(g, "S:X3")["state"] == "down"


def test_s8_no_tasks_at_all_means_end_passes_the_turn():
    g = position({}, turn=5)
    g.apply("end")
    assert (g.to_move, g.phase, g.turn) == ("N", "action", 6)


def test_s8_the_coach_chooses_the_order_of_tasks():
    g = position({"S:X3": ("G9", "down"), "S:X7": ("K9", "down")}, phase="release", pa=0)
    assert {a.split()[1].split("-")[0] for a in ups(g)} == {"G9", "K9"}
    g.apply("up K9-L10")
    assert g.phase == "release"
    assert {a.split()[1].split("-")[0] for a in ups(g)} == {"G9"}
    g.apply("up G9-F8")
    assert g.to_move == "N"


def test_s8_a_task_that_becomes_solvable_after_another_task_must_still_be_done():
    """§8: the phase ends only when no remaining task has a legal solution."""
    g = position(
        {"S:X3": ("A9", "down"), "S:X7": ("B10", "down"), "N:X1": "B8"},
        phase="release",
        pa=0,
    )
    assert {a.split()[1].split("-")[0] for a in ups(g)} == {"B10"}
    g.apply("up B10-C11")
    assert g.phase == "release"
    assert ups(g) == {"up A9-B10"}


def test_s8_opponents_knocked_down_pieces_are_not_my_task():
    g = position({"N:X3": ("G9", "down")}, turn=5)
    g.apply("end")
    assert g.to_move == "N"
    assert piece(g, "N:X3")["state"] == "down"  # N stands it up in N's own release phase


# --- splits -------------------------------------------------------------------------------


def stack(top: str, bottom: str, *, since: int = 4, was: str = "active") -> dict:
    return {top: ("H10", "top", since), bottom: ("H10", "bottom", was)}


def test_s8_split_moves_both_pieces_to_two_different_empty_squares():
    g = position(stack("S:X1", "N:X3"), phase="release", pa=0)
    expected = {f"split H10 {a} {b}" for a in AROUND_H10 for b in AROUND_H10 if a != b}
    assert splits(g) == expected
    g.apply("split H10 I11 G9")
    assert piece(g, "S:X1")["at"] == "I11"
    assert piece(g, "S:X1")["state"] == "active"
    assert piece(g, "N:X3")["at"] == "G9"
    assert piece(g, "N:X3")["state"] == "active"
    assert g.to_move == "N"


def test_s8_d09_split_restores_a_knocked_down_bottom():
    g = position(stack("S:X1", "N:X3", was="down"), phase="release", pa=0)
    g.apply("split H10 I11 G9")
    assert piece(g, "N:X3")["state"] == "down"
    assert "was" not in piece(g, "N:X3")


def test_s8_split_needs_two_free_squares_else_it_is_skipped():
    g = position({**stack("S:X1", "N:X3"), "N:X1": "G9", "N:X7": "I9", "S:X7": "G11"}, turn=5)
    g.apply("end")
    assert g.to_move == "N"
    assert piece(g, "S:X1")["state"] == "top"


def test_d10_split_never_ends_on_the_free_ball():
    g = position(
        {**stack("S:X1", "N:X3"), "N:X1": "G9", "S:X5": "B2"}, ball="I9", phase="release", pa=0
    )
    assert splits(g) == {"split H10 G11 I11", "split H10 I11 G11"}


def test_s8_a_stack_made_this_turn_cannot_be_split():
    g = position({"S:X1": "G9", "N:X3": "H10"}, turn=5)
    g.apply("G9-H10")
    g.apply("end")
    assert g.to_move == "N"  # nothing to release: the new stack waits for S's next turn
    g2 = position(stack("S:X1", "N:X3", since=5), turn=5, phase="release", pa=0)
    assert splits(g2) == set()
    with pytest.raises(IllegalAction, match="a stack made this turn cannot be split"):
        g2.apply("split H10 I11 G9")


def test_s8_only_the_coach_of_the_top_piece_splits():
    g = position(stack("N:X1", "S:X3"), phase="release", pa=0)
    assert splits(g) == set()


def test_s8_top_with_the_ball_chooses_who_keeps_it():
    g = position(stack("S:X1", "S:X3"), ball="S:X1", phase="release", pa=0)
    assert len(splits(g)) == 24
    assert "split H10 I11 G9" not in splits(g)  # the keeper must be named
    g.apply("split H10 I11 G9:bottom")
    assert ball(g) == {"carrier": "S:X3"}
    assert piece(g, "S:X3")["at"] == "G9"


def test_d23_a_knocked_down_bottom_cannot_receive_the_ball():
    g = position(stack("S:X1", "S:X3", was="down"), ball="S:X1", phase="release", pa=0)
    assert all(a.endswith(":top") for a in splits(g))
    with pytest.raises(IllegalAction):
        g.apply("split H10 I11 G9:bottom")
    g.apply("split H10 I11 G9:top")
    assert ball(g) == {"carrier": "S:X1"}


def test_s8_own_bottom_restored_knocked_down_is_then_a_stand_up_task():
    """§8: after the split the bottom is an own knocked-down piece not in a stack."""
    g = position(stack("S:X1", "S:X3", was="down"), phase="release", pa=0)
    g.apply("split H10 I11 G9")
    assert g.phase == "release"
    assert ups(g) == {"up G9-F8", "up G9-H8", "up G9-F10", "up G9-H10"}


@pytest.mark.parametrize(
    ("phase", "action"),
    [("action", "up G9-H10"), ("release", "G9-H10"), ("release", "end"), ("action", "reset")],
)
def test_s3_wrong_phase_is_refused_with_the_phase_named(phase, action):
    g = position(
        {"S:X3": ("G9", "down"), "S:X1": "F8"}, phase=phase, pa=0 if phase != "action" else 2
    )
    with pytest.raises(IllegalAction, match=f"wrong phase — this is the {phase} phase"):
        g.apply(action)


def test_s18_1_split_keeper_suffix_is_required_exactly_when_the_top_holds_the_ball():
    g = position(stack("S:X1", "S:X3"), ball="S:X1", phase="release", pa=0)
    with pytest.raises(IllegalAction, match="say which piece keeps the ball"):
        g.apply("split H10 I11 G9")
    g2 = position(stack("S:X1", "N:X3"), phase="release", pa=0)
    with pytest.raises(IllegalAction, match="drop :top/:bottom"):
        g2.apply("split H10 I11 G9:top")
