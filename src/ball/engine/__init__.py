"""The BALL rules engine: board, pieces, every action, release phase, steals, PB, cards.

Pure data and functions: no I/O, no clock, no database. Public API:

    from ball.engine import Game, IllegalAction, InvalidPosition, load_ruleset, perft
"""

from .game import Game, IllegalAction, perft, perft_made
from .notation import NotationError
from .position import FORMAT, InvalidPosition
from .resolve import Event
from .ruleset import (
    Card,
    Deck,
    Ruleset,
    RulesetError,
    available_rulesets,
    load_deck,
    load_ruleset,
    ruleset_by_name,
    shipped_rulesets,
)

__all__ = [
    "FORMAT",
    "Card",
    "Deck",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidPosition",
    "NotationError",
    "Ruleset",
    "RulesetError",
    "available_rulesets",
    "load_deck",
    "load_ruleset",
    "perft",
    "perft_made",
    "ruleset_by_name",
    "shipped_rulesets",
]
