"""Goals of the learn mode's lessons, checked by the engine (issue 13).

Owns the meaning of a lesson goal: given a start position, the side the learner plays and
the actions played so far, is the goal met, failed (the learner's turns are used up) or
still open. Pure: no web, no storage. A goal is data (`{"kind": ..., params}`) so a
lesson file can set it; each kind is one small predicate on the position reached.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ball.engine import Game
from ball.engine.game import IllegalAction


class GoalError(ValueError):
    """A lesson goal that cannot be checked: unknown kind or a missing parameter."""


@dataclass(frozen=True)
class Verdict:
    met: bool
    failed: bool
    played: int  # how many of the actions were legal and replayed


Predicate = Callable[[Game, Game, str, Mapping[str, Any]], bool]


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


GOALS: dict[str, tuple[Predicate, tuple[str, ...]]] = {
    "reach": (_reach, ("piece", "square")),
    "carrier": (_carrier, ("piece",)),
    "knock_down": (_knock_down, ("piece",)),
    "unstack": (_unstack, ("square",)),
    "score": (_score, ()),
    "steal": (_steal, ()),
}


def validate(goal: Mapping[str, Any]) -> None:
    """GoalError naming what is wrong with a goal's data."""
    kind = goal.get("kind")
    if kind not in GOALS:
        raise GoalError(f"goal kind {kind!r}: expected one of {', '.join(sorted(GOALS))}")
    missing = [name for name in GOALS[kind][1] if name not in goal]
    if missing:
        raise GoalError(f"goal {kind!r}: missing {', '.join(missing)}")
    turns = goal.get("turns", 1)
    if not isinstance(turns, int) or turns < 1:
        raise GoalError(f"goal {kind!r}: turns must be a whole number >= 1, not {turns!r}")


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


def check(
    position: Mapping[str, Any], side: str, goal: Mapping[str, Any], actions: Sequence[str]
) -> Verdict:
    """Replay `actions` from `position`; met as soon as the goal holds after any action,
    failed once the learner's `turns` (default 1) are over without it. The opponent is
    passive: a lesson ends before the opponent would have to act."""
    validate(goal)
    start = Game.from_json(dict(position))
    now = start.copy()
    limit = int(goal.get("turns", 1))
    for played, action in enumerate(actions):
        try:
            now.apply(action)
        except IllegalAction:
            return Verdict(met=False, failed=False, played=played)
        if is_met(goal, start, now, side):
            return Verdict(met=True, failed=False, played=played + 1)
        if now.is_over or _turns_used(start, now, side) > limit:
            return Verdict(met=False, failed=True, played=played + 1)
    return Verdict(met=False, failed=False, played=len(actions))
