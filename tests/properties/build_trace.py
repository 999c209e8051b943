"""What a build of the engine and the search does, as plain JSON: the reference that
tests/properties/test_compiled_build.py compares between the compiled and the pure build.

Imported by the test (in the compiled build) and run as a script by it with BALL_PURE=1 (the
pure build): each line on stdin is a request, each line on stdout its answer.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any


def game_trace(ruleset: str, choices: list[int], depth: int) -> dict[str, Any]:
    """A game whose every action is `legal[pick % len(legal)]`: each position's legal list,
    the action's events and the position after it; then perft (counted and every leaf made)
    from the position reached."""
    from ball.games.ball.engine import Game, perft, perft_made

    g = Game.new(ruleset)
    steps = []
    for pick in choices:
        if g.is_over:
            break
        shown = g.legal_actions()
        action = shown[pick % len(shown)]
        events = g.apply(action)
        steps.append({
            "legal": shown,
            "action": action,
            "events": [[e.kind, e.side, e.detail] for e in events],
            "position": g.to_json(),
        })  # fmt: skip
    counts = [perft(g, depth), perft_made(g, depth)] if not g.is_over else []
    return {"steps": steps, "perft": counts, "over": g.is_over}


def search_trace(level: str, seed: int, iterations: int, plies: int) -> list[str]:
    """The moves two seeded players choose in a game from the start, by iterations only (no
    time cap: the search is deterministic for a seed)."""
    from ball.games.ball.ai.mcts import LEVELS, MctsAgent
    from ball.games.ball.engine import Game
    from ball.games.ball.engine.actions import to_text

    budget = dataclasses.replace(LEVELS[level], iterations=iterations, seconds=None)
    players = [MctsAgent(budget, seed=seed), MctsAgent(budget, seed=seed + 1)]
    g = Game.new()
    moves = []
    for _ in range(plies):
        if g.is_over:
            break
        s = g.state
        a = players[s.steal_by if s.steal_by >= 0 else s.to_move](s)
        moves.append(to_text(a))
        g.play_tuple(a)
    return moves


def answer(request: dict[str, Any]) -> Any:
    if request["what"] == "game":
        return game_trace(request["ruleset"], request["choices"], request["depth"])
    return search_trace(request["level"], request["seed"], request["iterations"], request["plies"])


def build() -> str:
    from ball import compiled_build
    from ball.games.ball.engine import Game  # noqa: F401  (imported, so that the build is the one in use)

    return "compiled" if compiled_build.is_compiled("ball.games.ball.engine") else "pure"


if __name__ == "__main__":
    print(json.dumps(build()), flush=True)
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
