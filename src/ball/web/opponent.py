"""The built-in opponent: greedy by a small evaluation, with a seeded random tie-break.

It looks one action ahead and scores the resulting position from its own point of view:
touchdowns first, then holding the ball, the carrier's progress toward the end zone, and
knocked-down opponents. Everything it may choose comes from the engine's legal list.
"""

from __future__ import annotations

import random

from ball.engine import Game

_ROWS = 17


def _row(square: str) -> int:
    return int(square[1:])


def evaluate(position: dict, side: str) -> float:
    """Higher is better for `side`."""
    other = "N" if side == "S" else "S"
    score = 1000.0 * (position["score"][side] - position["score"][other])
    pieces = {f"{p['side']}:{p['id']}": p for p in position["pieces"]}
    ball = position.get("ball", {})
    carrier = ball.get("carrier")
    if carrier:
        holder = pieces[carrier]
        progress = _row(holder["at"]) if holder["side"] == "S" else _ROWS + 1 - _row(holder["at"])
        sign = 1 if holder["side"] == side else -1
        score += sign * (20 + 3 * progress)
    for p in position["pieces"]:
        if p["state"] == "down":
            score += 4 if p["side"] == other else -4
    if position.get("attack") == side:
        score += 5
    return score


def choose_action(game: Game, legal: list[str], seed: int | None = None) -> str:
    """The action the computer plays now (one of `legal`)."""
    side = game.actor
    rng = random.Random(seed if seed is not None else hash((game.turn, len(legal))))
    best: list[str] = []
    best_value = float("-inf")
    for action in legal:
        trial = game.copy()
        trial.apply(action)
        value = evaluate(trial.to_json(), side)
        if action == "end":
            value -= 0.5  # prefer using the action points when it changes nothing
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)
