"""The computer's whole turn in a BALL game, as the search pool runs it in a worker process
(`ball.play.searches`): plain values in (a position document, an agent's name, a seed, the
side), action texts out."""

from __future__ import annotations

from typing import Any

TURN_ACTIONS = 64  # a computer's turn is a handful of actions; this bounds a bad loop


def ball_turn(position: dict[str, Any], agent_name: str, seed: int, side: str) -> list[str]:
    """The actions the computer plays as `side` from `position` (a spec 18.2 document) until
    the turn passes or the game ends: one player for the whole turn, so a search player
    reuses its tree and keeps to its time per turn. Runs in a worker process."""
    from ball.games.ball.ai import agent
    from ball.games.ball.engine import Game
    from ball.games.ball.engine.actions import to_text

    game = Game.from_json(position)
    player = agent(agent_name, seed=seed)
    played: list[str] = []
    for _ in range(TURN_ACTIONS):
        if game.is_over or game.actor != side or not game.legal_tuples():
            break
        action = player(game.state)
        played.append(to_text(action))
        game.apply(action)
    return played
