"""Goals of the learn mode's lessons, checked by the engine (issue 13).

Owns the meaning of a lesson goal: given a start position, the side the learner plays and
the actions played so far, is the goal met, failed (the learner's turns are used up) or
still open. Pure: no web, no storage. A goal is data (`{"kind": ..., params}`) so a
lesson file can set it; each kind is one small predicate on the position reached.

Multi-turn lessons (D-U3b): an `Opponent` gives the other side's whole turn between the
learner's turns, a fixed script per turn (`scripted`, checked legal along the lesson's
solution by `check_solution`) or a deterministic computer reply the caller supplies (the
web layer, as `ball.games.ball.ai` sits above this package). A goal is met after any action, except
an `END_GOALS` kind, judged once the learner's turns and the replies to them are over.

A goal may also bound the learner's `actions` (a one-move lesson says `actions = 1`): the
attempt has failed once that many of the learner's actions are played without the goal, so
the page can say "not quite" and restore the position instead of drifting into free play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ball.games.ball.engine import Game
from ball.games.ball.engine.game import IllegalAction


class GoalError(ValueError):
    """A lesson goal that cannot be checked: unknown kind or a missing parameter."""


@dataclass(frozen=True)
class Verdict:
    met: bool
    failed: bool
    played: int  # how many of the actions were legal and replayed


Predicate = Callable[[Game, Game, str, Mapping[str, Any]], bool]
# the opponent's whole turn now (`game` is a copy it may play on) given its turn number
Opponent = Callable[[Game, int], list[str]]


def _piece(doc: Mapping[str, Any], side: str, pid: str) -> Mapping[str, Any] | None:
    return next((p for p in doc["pieces"] if p["side"] == side and p["id"] == pid), None)


def _other(side: str) -> str:
    return "N" if side == "S" else "S"


def _reach(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """The learner's piece `piece` stands on `square` (§ movement)."""
    piece = _piece(now.to_json(), side, goal["piece"])
    return piece is not None and piece["at"] == goal["square"]


def _carrier(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """The learner's piece `piece` holds the ball (a pass or hand-off has reached it)."""
    carrier: str = now.to_json()["ball"].get("carrier", "")
    return carrier == f"{side}:{goal['piece']}"


def _knock_down(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """The opponent's piece `piece` is knocked down (a dodge or tactical dodge)."""
    piece = _piece(now.to_json(), _other(side), goal["piece"])
    return piece is not None and piece["state"] == "down"


def _unstack(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """No stack is left on `square` (a release-phase split)."""
    there = [p for p in now.to_json()["pieces"] if p["at"] == goal["square"]]
    return not any(p["state"] in ("top", "bottom") for p in there)


def _score(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """The learner has scored a touchdown since the start."""
    return now.score[side] > start.score[side]


def _steal(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """The ball held by an opponent's piece at the start is now held by one of the
    learner's (stolen, §9; the continue/reset choice that follows does not matter)."""
    before: str = start.to_json()["ball"].get("carrier", "")
    after: str = now.to_json()["ball"].get("carrier", "")
    return before.startswith(f"{_other(side)}:") and after.startswith(f"{side}:")


def _keep(start: Game, now: Game, side: str, goal: Mapping[str, Any]) -> bool:
    """The learner's side holds the ball (it must through every turn, `END_GOALS`)."""
    carrier: str = now.to_json()["ball"].get("carrier", "")
    return carrier.startswith(f"{side}:")


GOALS: dict[str, tuple[Predicate, tuple[str, ...]]] = {
    "reach": (_reach, ("piece", "square")),
    "carrier": (_carrier, ("piece",)),
    "knock_down": (_knock_down, ("piece",)),
    "unstack": (_unstack, ("square",)),
    "score": (_score, ()),
    "steal": (_steal, ()),
    "keep": (_keep, ()),
}
MAX_ACTIONS = 10**6  # a goal without `actions`: only its turns bound the attempt
# Kinds that must hold at every action and are met only when the learner's turns and the
# opponent's replies to them are over ("keep the ball for 2 turns").
END_GOALS = frozenset({"keep"})


def validate(goal: Mapping[str, Any]) -> None:
    """GoalError naming what is wrong with a goal's data."""
    kind = goal.get("kind")
    if kind not in GOALS:
        raise GoalError(f"goal kind {kind!r}: expected one of {', '.join(sorted(GOALS))}")
    missing = [name for name in GOALS[kind][1] if name not in goal]
    if missing:
        raise GoalError(f"goal {kind!r}: missing {', '.join(missing)}")
    for bound in ("turns", "actions"):
        value = goal.get(bound, 1)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise GoalError(f"goal {kind!r}: {bound} must be a whole number >= 1, not {value!r}")


def is_met(goal: Mapping[str, Any], start: Game, now: Game, side: str) -> bool:
    validate(goal)
    predicate = GOALS[goal["kind"]][0]
    return predicate(start, now, side, goal)


def _turns_used(start: Game, now: Game, side: str) -> int:
    """The learner's turns begun since the start (the first one counts as 1)."""
    if now.half != start.half:
        return 10**6  # the half ended: no lesson runs across halves
    own_turns = (now.turn - start.turn) // 2 + 1
    return own_turns + (1 if now.actor != side else 0)


def _over(start: Game, now: Game, side: str, limit: int) -> bool:
    """The learner's `limit` turns and the opponent's replies to them are over: the
    learner is to act in a later turn of the same half."""
    later = (now.turn - start.turn) // 2 + 1 > limit
    return now.half == start.half and now.actor == side and later


def _judge(goal: Mapping[str, Any], start: Game, now: Game, side: str) -> tuple[bool, bool]:
    """(met, failed) after an action."""
    limit = int(goal.get("turns", 1))
    if goal["kind"] in END_GOALS:
        if now.half != start.half or now.is_over or not is_met(goal, start, now, side):
            return False, True
        return _over(start, now, side, limit), False
    if is_met(goal, start, now, side):
        return True, False
    return False, now.is_over or _turns_used(start, now, side) > limit


def _same(action: str, expected: str) -> bool:
    try:
        return Game.canonical(action) == Game.canonical(expected)
    except IllegalAction:
        return False


def _opponent_turn(start: Game, now: Game, side: str) -> int:
    """Which of the opponent's turns (1, 2, ...) is being played now."""
    return (now.turn - start.turn + 1) // 2 if now.actor != side else 0


def check(
    position: Mapping[str, Any],
    side: str,
    goal: Mapping[str, Any],
    actions: Sequence[str],
    opponent: Opponent | None = None,
) -> Verdict:
    """Replay `actions` (the learner's and, between them, the opponent's) from `position`;
    met as soon as the goal holds after any action (an `END_GOALS` kind: once the turns are
    over with it held throughout), failed once the learner's `turns` (default 1) are over
    without it. Without an `opponent` the opponent is passive: the lesson ends before it
    would act. With one, the opponent's actions must be its replies: the replay stops at
    an action that is not (as at an illegal one)."""
    validate(goal)
    start = Game.from_json(dict(position))
    now = start.copy()
    expected: list[str] = []
    own = 0  # the learner's actions played so far (bounded by the goal's `actions`)
    for played, action in enumerate(actions):
        own += now.actor == side
        if now.actor != side and opponent is not None:
            if not expected:
                expected = opponent(now.copy(), _opponent_turn(start, now, side))
            if not expected or not _same(action, expected.pop(0)):
                return Verdict(met=False, failed=False, played=played)
        try:
            now.apply(action)
        except IllegalAction:
            return Verdict(met=False, failed=False, played=played)
        met, failed = _judge(goal, start, now, side)
        failed = failed or (not met and own >= goal.get("actions", MAX_ACTIONS))
        if met or failed:
            return Verdict(met=met, failed=failed, played=played + 1)
    return Verdict(met=False, failed=False, played=len(actions))


def reply(
    position: Mapping[str, Any],
    side: str,
    goal: Mapping[str, Any],
    actions: Sequence[str],
    opponent: Opponent,
) -> list[str]:
    """The opponent's actions to play now after `actions`: its whole turn when it is to act
    in an open lesson (what is left of it if part was played), else []."""
    verdict = check(position, side, goal, actions, opponent)
    if verdict.met or verdict.failed or verdict.played < len(actions):
        return []
    start = Game.from_json(dict(position))
    now = start.copy()
    turn_start = 0
    for index, action in enumerate(actions):
        if now.actor == side:
            turn_start = index + 1
        now.apply(action)
    if now.actor == side or now.is_over:
        return []
    first = start.copy()
    for action in actions[:turn_start]:
        first.apply(action)
    whole = opponent(first, _opponent_turn(start, first, side))
    return whole[len(actions) - turn_start :]


def scripted(turns: Sequence[Sequence[str]], fallback: Opponent | None = None) -> Opponent:
    """An opponent playing `turns[k-1]` in its k-th turn. Where the learner's line makes
    the script illegal (or it has no entry for a turn), `fallback` plays that turn; without
    one the reply is [] and the lesson's replay stops there."""

    def play(game: Game, turn: int) -> list[str]:
        script = list(turns[turn - 1]) if 0 < turn <= len(turns) else []
        trial = game.copy()
        try:
            for action in script:
                trial.apply(action)
        except IllegalAction:
            script = []
        if script and trial.actor != game.actor:
            return script
        return fallback(game, turn) if fallback is not None else []

    return play


def check_solution(
    position: Mapping[str, Any],
    side: str,
    goal: Mapping[str, Any],
    solution: Sequence[str],
    opponent: Opponent | None = None,
    script: Sequence[Sequence[str]] = (),
) -> list[str]:
    """GoalError unless the learner's `solution`, with the opponent's replies between its
    turns, meets the goal at its last action and not before (and the goal is not met at the
    start); each `script` turn must be legal where the solution meets it. The full line
    (learner and opponent) is returned."""
    validate(goal)
    start = Game.from_json(dict(position))
    if goal["kind"] not in END_GOALS and is_met(goal, start, start, side):
        raise GoalError("the goal is already met at the start")
    now, line = start.copy(), []
    for index, action in enumerate(solution):
        while now.actor != side and not now.is_over:
            turn = _opponent_turn(start, now, side)
            _check_script_turn(now, script, turn)
            if opponent is None:
                raise GoalError(f"solution action {index + 1}: the opponent is to act")
            for answer in opponent(now.copy(), turn):
                now.apply(answer)
                line.append(answer)
        try:
            now.apply(action)
        except IllegalAction as exc:
            raise GoalError(f"solution action {index + 1} {action!r}: {exc}") from exc
        line.append(action)
        met, failed = _judge(goal, start, now, side)
        if (met or failed) and index + 1 < len(solution):
            raise GoalError(f"solution action {index + 1}: the lesson ends there")
    line.extend(_final_replies(goal, start, now, side, opponent, script))
    if not check(position, side, goal, line, opponent).met:
        raise GoalError("the solution does not meet the goal")
    return line


def _final_replies(
    goal: Mapping[str, Any],
    start: Game,
    now: Game,
    side: str,
    opponent: Opponent | None,
    script: Sequence[Sequence[str]],
) -> list[str]:
    """An `END_GOALS` lesson is met only after the opponent's last reply: play it."""
    line: list[str] = []
    if goal["kind"] not in END_GOALS or opponent is None:
        return line
    while now.actor != side and not now.is_over:
        turn = _opponent_turn(start, now, side)
        _check_script_turn(now, script, turn)
        for answer in opponent(now.copy(), turn):
            now.apply(answer)
            line.append(answer)
    return line


def _check_script_turn(now: Game, script: Sequence[Sequence[str]], turn: int) -> None:
    """GoalError naming the opponent's turn whose scripted reply is illegal here."""
    if not 0 < turn <= len(script):
        return
    trial = now.copy()
    for action in script[turn - 1]:
        try:
            trial.apply(action)
        except IllegalAction as exc:
            raise GoalError(f"opponent turn {turn}: {action!r} is illegal: {exc}") from exc
    if trial.actor == now.actor:
        raise GoalError(f"opponent turn {turn}: the script does not finish the turn")
