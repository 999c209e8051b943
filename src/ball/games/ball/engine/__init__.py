"""The BALL rules engine: board, pieces, every action, release phase, steals, PB, cards.

Pure data and functions: no I/O, no clock, no database. Public API:

    from ball.games.ball.engine import Game, IllegalAction, InvalidPosition, load_ruleset, perft
"""

from .game import Game, IllegalAction, perft, perft_made
from .notation import NotationError
from .position import InvalidPosition
from .resolve import Event
from .ruleset import (
    Ruleset,
    RulesetError,
    available_rulesets,
    load_ruleset,
    ruleset_by_name,
    shipped_rulesets,
)

__all__ = [
    "Event",
    "Game",
    "IllegalAction",
    "InvalidPosition",
    "NotationError",
    "Ruleset",
    "RulesetError",
    "available_rulesets",
    "load_ruleset",
    "perft",
    "perft_made",
    "ruleset_by_name",
    "shipped_rulesets",
]
