"""Perft: the number of leaf nodes of the legal move tree, and its split by first move."""

from __future__ import annotations

from .board import Color
from .errors import XiangqiError
from .move import MOVES, Move
from .movegen import perft_count, work_board
from .position import Position


def _check_depth(depth: int) -> None:
    if depth < 0:
        raise XiangqiError(f"perft depth must be 0 or more, not {depth}")


def perft(position: Position, depth: int) -> int:
    """Leaf count at `depth` plies (depth 0 counts the position itself)."""
    _check_depth(depth)
    board = work_board(position.board)
    kings = [position.king_square(Color.RED), position.king_square(Color.BLACK)]
    return perft_count(board, position.turn.side, kings, depth)


def divide(position: Position, depth: int) -> dict[Move, int]:
    """Perft below each legal first move (depth ≥ 1), in generation order."""
    _check_depth(depth)
    if depth == 0:
        return {}
    return {MOVES[c]: perft(position.push_code(c), depth - 1) for c in position.legal_codes()}
