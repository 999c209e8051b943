"""Random Xiangqi positions for property and differential tests: pieces dropped on points
they may stand on (pawns crowded onto few files so that tandem pieces are common), kept when
the engine accepts the FEN and the side to move has a move; and random games from the start."""

from __future__ import annotations

import random

from ball.games.xiangqi.engine import Game, Position, XiangqiError
from ball.games.xiangqi.engine.board import FILES, RANKS, square
from ball.games.xiangqi.engine.fen import write_fen

PALACE = [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]
ADVISOR = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
ELEPHANT = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
LETTERS = {"king": "k", "advisor": "a", "elephant": "b", "horse": "n", "rook": "r", "cannon": "c"}
CODES = {"k": 1, "a": 2, "b": 3, "n": 4, "r": 5, "c": 6, "p": 7}


def _red_view(f: int, r: int, side: int) -> int:
    return square(f, r if side == 0 else RANKS - 1 - r)


def _pawn_points(side: int, files: list[int]) -> list[int]:
    points = []
    for f in files:
        for r in range(3, RANKS):
            if r >= 5 or f % 2 == 0:
                points.append(_red_view(f, r, side))
    return points


def _place(rng: random.Random, board: list[int], code: int, points: list[int], k: int) -> None:
    free = [p for p in points if not board[p]]
    for p in rng.sample(free, min(k, len(free))):
        board[p] = code


def random_board(rng: random.Random) -> list[int]:
    board = [0] * (FILES * RANKS)
    for side in (0, 1):
        bit = 8 * side
        _place(rng, board, 1 | bit, [_red_view(f, r, side) for f, r in PALACE], 1)
        _place(rng, board, 2 | bit, [_red_view(f, r, side) for f, r in ADVISOR], rng.randint(0, 2))
        _place(rng, board, 3 | bit, [_red_view(f, r, side) for f, r in ELEPHANT], rng.randint(0, 2))
        anywhere = list(range(FILES * RANKS))
        for code in (4, 5, 6):
            _place(rng, board, code | bit, anywhere, rng.randint(0, 2))
        files = rng.sample(range(FILES), rng.randint(1, 3))
        _place(rng, board, 7 | bit, _pawn_points(side, files), rng.randint(0, 5))
    return board


def random_position(rng: random.Random) -> Position:
    """A legal position with at least one legal move for the side to move."""
    while True:
        board = random_board(rng)
        fen = write_fen(tuple(board), rng.randint(0, 1), 0, rng.randint(1, 80))
        try:
            position = Position.from_fen(fen)
        except XiangqiError:
            continue
        if position.legal_codes():
            return position


def random_game(rng: random.Random, plies: int, start: Position | None = None) -> Game:
    """Up to `plies` random legal moves from `start` (the standard start by default)."""
    game = Game(start)
    for _ in range(plies):
        moves = game.position.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game
