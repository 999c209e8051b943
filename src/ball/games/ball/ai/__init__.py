"""Computer players. They choose only among the engine's legal actions.

from ball.games.ball.ai import agent
choose = agent("greedy", seed=1)
action = choose(game.state)          # an action tuple from generate.legal
"""

from .agents import (
    AGENTS,
    LEVEL_ALIASES,
    Agent,
    agent,
    agent_name,
    choose_text,
    evaluate,
)

__all__ = [
    "AGENTS",
    "LEVEL_ALIASES",
    "Agent",
    "agent_name",
    "agent",
    "choose_text",
    "evaluate",
]
