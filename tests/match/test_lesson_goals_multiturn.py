"""Multi-turn lesson goals (issue 13, D-U3b): the opponent's replies between the learner's
turns, "score within 3 turns" and "keep the ball for 2 turns", scripts and their fallback,
and the load-time check of a lesson's solution. Scripted opponents only (pure: the
computer opponent is the web layer's, tested in tests/web/test_learn_multiturn.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.games.ball.match.lesson_goals import (
    GoalError,
    Opponent,
    check,
    check_solution,
    reply,
    scripted,
)
from ball.games.ball.web.rulebook import diagrams


def position(name: str) -> dict:
    return diagrams()[name]["position"]


def first_legal(game: Game, turn: int) -> list[str]:
    """A plain deterministic opponent: its first legal action until its turn is over."""
    side, out = game.actor, []
    while not game.is_over and game.actor == side:
        action = game.legal_actions()[0]
        game.apply(action)
        out.append(action)
    return out


# Score within 3 turns from the standard formation (§ touchdown): the learner goes round
# the west wing with a tactical dodge (§5) and stands its pieces up in the release phase.
SCORE = {"kind": "score", "turns": 3}
SCORE_SCRIPT = [["J10-H8/G7", "G7xI5>G7", "up E11-D10"], ["H10-H8/I9", "I9-G9/H10"]]
SCORE_LEARNER = ["G7-E9", "E9xC11>E11", "C11-A13", "A13-C15", "up H8-G9", "up G7-H8", "C15-A17"]
SCORE_LINE = [*SCORE_LEARNER[:2], *SCORE_SCRIPT[0], *SCORE_LEARNER[2:6], *SCORE_SCRIPT[1]]
SCORE_LINE.append(SCORE_LEARNER[6])

# Keep the ball for 2 turns (§ protection): North knocks down the carrier's guards, then
# (second turn) dodges onto an unprotected carrier and steals the ball (§9).
KEEP = {"kind": "keep", "turns": 2}
KEEP_T1 = ["H10-H8/G9", "F10-F8/E9"]
KEEP_STEAL = ["G9-G7/F8", "continue", "D10-B8/C9"]
KEEP_LOST = ["D8-C7", "C7-B8", *KEEP_T1, "B8-C7", "C7-B8", "up F8-E7", "up H8-I7", *KEEP_STEAL]
KEEP_KEPT = ["D8-C7", "C7-B8", *KEEP_T1, "B8-A7", "F6-G7", "up F8-E7", "up H8-I7"]
KEEP_KEPT += ["E9-E7/D6", "J10-I9"]


def test_score_within_three_turns_with_replies_between():
    opponent = scripted(SCORE_SCRIPT)
    verdict = check(position("ball-clock"), "S", SCORE, SCORE_LINE, opponent)
    assert verdict.met and verdict.played == len(SCORE_LINE)
    # one action short: still open (the learner's third turn is under way)
    short = check(position("ball-clock"), "S", SCORE, SCORE_LINE[:-1], opponent)
    assert not short.met and not short.failed
    # the same line with a 2-turn limit fails when the learner's second turn is over
    two = check(position("ball-clock"), "S", {"kind": "score", "turns": 2}, SCORE_LINE, opponent)
    assert two.failed and not two.met


def test_without_an_opponent_the_lesson_ends_before_it_acts():
    # the passive reading of the one-turn lessons is unchanged: a one-turn goal fails as
    # soon as the learner's turn is over, before any reply
    one = check(position("ball-clock"), "S", {"kind": "score"}, SCORE_LINE)
    assert one.failed and one.played == 2


def test_opponent_actions_must_be_its_replies():
    opponent = scripted(SCORE_SCRIPT)
    start = Game.from_json(position("ball-clock"))
    after = start.copy()
    for action in SCORE_LINE[:2]:
        after.apply(action)
    other = next(a for a in after.legal_actions() if a != SCORE_SCRIPT[0][0])
    line = [*SCORE_LINE[:2], other, *SCORE_LINE[3:]]
    verdict = check(position("ball-clock"), "S", SCORE, line, opponent)
    assert verdict == type(verdict)(met=False, failed=False, played=2)


def test_reply_is_the_rest_of_the_opponents_turn():
    opponent = scripted(SCORE_SCRIPT)
    args = (position("ball-clock"), "S", SCORE)
    assert reply(*args, [], opponent) == []  # the learner is to act
    assert reply(*args, SCORE_LINE[:1], opponent) == []
    assert reply(*args, SCORE_LINE[:2], opponent) == SCORE_SCRIPT[0]
    assert reply(*args, SCORE_LINE[:3], opponent) == SCORE_SCRIPT[0][1:]
    assert reply(*args, SCORE_LINE[:9], opponent) == SCORE_SCRIPT[1]
    assert reply(*args, SCORE_LINE, opponent) == []  # met: the lesson is over


def test_keep_fails_when_the_ball_is_stolen():
    opponent = scripted([KEEP_T1, KEEP_STEAL])
    verdict = check(position("protect"), "S", KEEP, KEEP_LOST, opponent)
    assert verdict.failed and not verdict.met
    assert verdict.played == KEEP_LOST.index("G9-G7/F8") + 1


def test_keep_is_met_only_after_the_last_reply():
    opponent = scripted([KEEP_T1, KEEP_KEPT[-2:]])
    verdict = check(position("protect"), "S", KEEP, KEEP_KEPT, opponent)
    assert verdict.met and verdict.played == len(KEEP_KEPT)
    for cut in range(len(KEEP_KEPT)):
        partial = check(position("protect"), "S", KEEP, KEEP_KEPT[:cut], opponent)
        assert not partial.met and not partial.failed


def test_script_falls_back_where_the_learners_line_makes_it_illegal():
    calls: list[int] = []

    def fallback(game: Game, turn: int) -> list[str]:
        calls.append(turn)
        return first_legal(game, turn)

    # the learner stacks O2 on the carrier: the scripted dodge over F8 is no longer legal
    game = Game.from_json(position("protect"))
    for action in ["F8-G7", "D8-C7"]:
        game.apply(action)
    opponent = scripted([KEEP_T1], fallback)
    assert opponent(game.copy(), 1) == first_legal(game.copy(), 1) and calls == [1]
    assert opponent(game.copy(), 2) == first_legal(game.copy(), 2) and calls == [1, 2]
    assert scripted([KEEP_T1])(game.copy(), 1) == []  # no fallback: no reply


def test_check_solution_returns_the_whole_line():
    line = check_solution(
        position("ball-clock"), "S", SCORE, SCORE_LEARNER, scripted(SCORE_SCRIPT), SCORE_SCRIPT
    )
    assert line == SCORE_LINE
    kept = check_solution(
        position("protect"),
        "S",
        KEEP,
        [a for i, a in enumerate(KEEP_KEPT) if i not in (2, 3, 8, 9)],
        scripted([KEEP_T1, KEEP_KEPT[-2:]]),
        [KEEP_T1, KEEP_KEPT[-2:]],
    )
    assert kept == KEEP_KEPT


@pytest.mark.parametrize(
    ("script", "learner", "message"),
    [
        ([["A1-A2"]], SCORE_LEARNER, "opponent turn 1: 'A1-A2' is illegal"),
        ([SCORE_SCRIPT[0], ["H10-H8/I9"]], SCORE_LEARNER, "opponent turn 2: the script does not"),
        (SCORE_SCRIPT, SCORE_LEARNER[:-1], "does not meet the goal"),
        (SCORE_SCRIPT, [*SCORE_LEARNER, "A1-A2"], "solution action 7: the lesson ends"),
        (SCORE_SCRIPT, ["G7-E9", "zz"], "solution action 2 'zz'"),
    ],
)
def test_bad_scripts_and_solutions_are_named(script, learner, message):
    with pytest.raises(GoalError, match=message):
        check_solution(position("ball-clock"), "S", SCORE, learner, scripted(script), script)


def test_a_goal_met_at_the_start_is_refused():
    with pytest.raises(GoalError, match="already met"):
        check_solution(
            position("move-x"), "S", {"kind": "reach", "piece": "X3", "square": "F6"}, []
        )


def test_an_opponent_is_needed_for_a_multi_turn_solution():
    with pytest.raises(GoalError, match="the opponent is to act"):
        check_solution(position("ball-clock"), "S", SCORE, SCORE_LEARNER)


@pytest.mark.hypothesis
@given(data=st.data(), name=st.sampled_from(["ball-clock", "protect"]))
@settings(max_examples=25, deadline=None)
def test_verdicts_over_random_lines_with_replies(data, name):
    """Invariants with an opponent: never both met and failed; a verdict reached is
    reached again on exactly its prefix; `reply` is what `check` accepts next."""
    goal = SCORE if name == "ball-clock" else KEEP
    opponent: Opponent = scripted([], first_legal)
    game = Game.from_json(position(name))
    line: list[str] = []
    for _ in range(data.draw(st.integers(0, 12))):
        if game.is_over:
            break
        answer = reply(position(name), "S", goal, line, opponent)
        if game.actor != "S" and not answer:
            break
        action = answer[0] if answer else data.draw(st.sampled_from(game.legal_actions()))
        game.apply(action)
        line.append(action)
    verdict = check(position(name), "S", goal, line, opponent)
    assert not (verdict.met and verdict.failed)
    if verdict.met or verdict.failed:
        assert check(position(name), "S", goal, line[: verdict.played], opponent) == verdict
    else:
        assert verdict.played == len(line)
