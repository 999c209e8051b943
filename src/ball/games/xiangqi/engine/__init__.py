"""The Xiangqi (Chinese chess) rules engine: board, FEN, legal moves, check, game endings,
perft. Pure data and functions: no I/O, no clock, no database. Public API:

    from ball.games.xiangqi.engine import Game, Move, Position, XiangqiError, XiangqiRules, perft

Squares are ints `rank * 9 + file` (file a..i, rank 0..9 from Red's side, as in ICCS).
"""

from .board import Color, Kind, Piece, parse_square, square, square_name
from .ending import (
    ARBITER_ARTICLES,
    Ending,
    EndReason,
    agreement,
    arbiter_loss,
    loss_on_time,
    resignation,
)
from .errors import XiangqiError
from .fen import START_FEN
from .game import Game, board_outcome
from .move import Move
from .perft import divide, perft
from .position import Position
from .rules import XiangqiRules, load_rules, rules_from_toml, shipped_rules

__all__ = [
    "ARBITER_ARTICLES",
    "START_FEN",
    "Color",
    "EndReason",
    "Ending",
    "Game",
    "Kind",
    "Move",
    "Piece",
    "Position",
    "XiangqiError",
    "XiangqiRules",
    "agreement",
    "arbiter_loss",
    "board_outcome",
    "divide",
    "load_rules",
    "loss_on_time",
    "parse_square",
    "perft",
    "resignation",
    "rules_from_toml",
    "shipped_rules",
    "square",
    "square_name",
]
