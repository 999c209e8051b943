"""The learn mode's goal checkers (issue 13): each kind met by the action the rulebook
diagram suggests and not met by another legal action, turn limits, and bad goal data."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.games.ball.match.lesson_goals import END_GOALS, GOALS, GoalError, check, is_met, validate
from ball.games.ball.web.rulebook import diagrams


def position(name: str) -> dict:
    return diagrams()[name]["position"]


# (diagram, learner side, goal, an action meeting it, a legal action not meeting it)
CASES = [
    ("move-x", "S", {"kind": "reach", "piece": "X3", "square": "D4"}, "F6-D4", "F8-G7"),
    ("handoff", "S", {"kind": "carrier", "piece": "O6"}, "G7=H8", "F6-D4"),
    # §4 dodge: the dodged piece is knocked down
    ("dodge", "N", {"kind": "knock_down", "piece": "O2"}, "D10-F8/E9", "F10-E9"),
    # §5 tactical dodge over an opponent knocks it down
    ("tactical-dodge", "S", {"kind": "knock_down", "piece": "X7"}, "J8xL10>L8", "F6-D4"),
    ("release", "N", {"kind": "unstack", "square": "G9"}, "split G9 H10 F10:top", None),
    ("touchdown", "S", {"kind": "score"}, "G15-I17", "F6-D4"),
    # §9 steal: landing on the carrier (block) and a forced fumble by a dodge
    ("block-steal", "N", {"kind": "steal"}, "H10-G9", "F10-E9"),
    ("forced-fumble", "N", {"kind": "steal"}, "E11-G9/H8", "F10-E9"),
]


@pytest.mark.parametrize(("diagram", "side", "goal", "good", "other"), CASES)
def test_goal_met_by_the_right_action_only(diagram, side, goal, good, other):
    start = Game.from_json(position(diagram))
    assert not is_met(goal, start, start, side)
    after = start.copy()
    after.apply(good)
    assert is_met(goal, start, after, side)
    assert check(position(diagram), side, goal, [good]).met
    if other is not None:
        assert other in start.legal_actions()
        verdict = check(position(diagram), side, goal, [other])
        assert not verdict.met and verdict.played == 1


def test_every_goal_kind_has_a_case():
    # END_GOALS kinds span turns: tests/match/test_lesson_goals_multiturn.py
    assert {case[2]["kind"] for case in CASES} == set(GOALS) - END_GOALS


def test_steal_counts_only_for_the_learner():
    # the same steal seen from the robbed side is not the learner's steal
    verdict = check(position("block-steal"), "S", {"kind": "steal"}, ["H10-G9"])
    assert not verdict.met


def test_goal_fails_when_the_learners_turn_is_over():
    goal = {"kind": "reach", "piece": "X3", "square": "B2"}  # unreachable in one turn
    game = Game.from_json(position("move-x"))
    played: list[str] = []
    while game.actor == "S":  # first legal action each time until the turn passes to N
        action = game.legal_actions()[0]
        game.apply(action)
        played.append(action)
    verdict = check(position("move-x"), "S", goal, played)
    assert verdict.failed and not verdict.met
    assert not check(position("move-x"), "S", goal, played[:1]).failed


def test_goal_bounding_the_actions_fails_at_the_first_wrong_one():
    """A one-move lesson (`actions = 1`): another action fails the attempt at once (the page
    says "not quite" and restores), where without the bound it stays open for the turn."""
    goal = {"kind": "reach", "piece": "X3", "square": "D4", "actions": 1}
    wrong = check(position("move-x"), "S", goal, ["F8-G7"])
    assert wrong.failed and not wrong.met and wrong.played == 1
    # two moves that reach D4 are still wrong: the lesson asks for the one move
    assert check(position("move-x"), "S", goal, ["F6-E5", "E5-D4"]).failed
    assert check(position("move-x"), "S", goal, ["F6-D4"]).met
    unbounded = {key: value for key, value in goal.items() if key != "actions"}
    assert not check(position("move-x"), "S", unbounded, ["F8-G7"]).failed


def test_illegal_action_stops_the_replay():
    verdict = check(position("move-x"), "S", {"kind": "score"}, ["F6-D4", "A1-A2", "F8-G7"])
    assert verdict == type(verdict)(met=False, failed=False, played=1)


@pytest.mark.parametrize(
    ("goal", "message"),
    [
        ({"kind": "fly"}, "goal kind 'fly'"),
        ({"kind": "reach", "piece": "X3"}, "missing square"),
        ({"kind": "score", "turns": 0}, "turns must be"),
        ({"kind": "score", "actions": "one"}, "actions must be"),
    ],
)
def test_bad_goal_data_is_named(goal, message):
    with pytest.raises(GoalError, match=message):
        validate(goal)


@given(data=st.data(), name=st.sampled_from(sorted({case[0] for case in CASES})))
@settings(max_examples=40, deadline=None)
def test_verdict_is_consistent_on_random_play(data, name):
    """Invariants: a verdict is never both met and failed; it is reached on a prefix, and
    replaying exactly that prefix gives the same verdict."""
    case = next(c for c in CASES if c[0] == name)
    _, side, goal = case[0], case[1], case[2]
    game = Game.from_json(position(name))
    actions: list[str] = []
    for _ in range(data.draw(st.integers(0, 6))):
        legal = game.legal_actions()
        if not legal:
            break
        action = data.draw(st.sampled_from(legal))
        game.apply(action)
        actions.append(action)
    verdict = check(position(name), side, goal, actions)
    assert not (verdict.met and verdict.failed)
    assert verdict.played <= len(actions)
    if verdict.met or verdict.failed:
        assert check(position(name), side, goal, actions[: verdict.played]) == verdict
    else:
        assert verdict.played == len(actions)
