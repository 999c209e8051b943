"""Differential test against an independent oracle: Fairy-Stockfish through its Python
binding `pyffish` (GPL, so a dev-only test dependency; src/ball never imports it).

Seeded random playouts from the start (captures and checks preferred, so games reach
endings) compare, position by position: the legal move sets, the side-to-move-in-check
flag, the FEN after the chosen move, and at positions without a legal move the verdict
(Fairy-Stockfish scores xiangqi stalemate and mate as a loss for the side to move, as the
seed does: 3.2, 4.1.3). pyffish writes squares with ranks 1..10 (`h3e3` is our `h2e2`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

from ball.games.xiangqi.engine import Move, Position, perft
from ball.games.xiangqi.engine.board import FILE_LETTERS, square

from .oracle import LazyPyffish

# CI installs the dev extra: a missing oracle is a broken install there (an error), elsewhere
# a skip. Imported by the first test that asks, not at collection (see oracle.py).
sf = LazyPyffish(skip_if_missing=not os.environ.get("CI"))

VARIANT = "xiangqi"


def to_sf(move: Move) -> str:
    """Our ICCS move → pyffish's: the same files, ranks counted from 1."""
    f, t = move.from_sq, move.to_sq
    return f"{FILE_LETTERS[f % 9]}{f // 9 + 1}{FILE_LETTERS[t % 9]}{t // 9 + 1}"


def from_sf(text: str) -> Move:
    """pyffish move (`h3e3`, `b10c8`) → our Move."""
    i = next(k for k in range(2, len(text)) if text[k].isalpha())
    a, b = text[:i], text[i:]
    return Move(
        square(FILE_LETTERS.index(a[0]), int(a[1:]) - 1),
        square(FILE_LETTERS.index(b[0]), int(b[1:]) - 1),
    )


def playout(seed: int, max_plies: int) -> Iterator[tuple[Position, Move | None]]:
    """Positions of one seeded random game with the move chosen there (None at the end).

    Captures are preferred 40% of the time and checks 30%, so games thin out and end in
    checkmates and positions without a move, not only in long shuffles."""
    rng = random.Random(seed)
    pos = Position.start()
    for _ in range(max_plies):
        moves = pos.legal_moves()
        if not moves:
            yield pos, None
            return
        r = rng.random()
        if r < 0.4:
            pool = [m for m in moves if pos.is_capture(m)]
        elif r < 0.7:
            pool = [m for m in moves if pos.gives_check(m)]
        else:
            pool = moves
        move = rng.choice(pool or moves)
        yield pos, move
        pos = pos.push(move)


def compare(pos: Position, move: Move | None, check_fen: bool) -> bool:
    """Assert agreement at one position; True when it is a game end."""
    fen = pos.fen()
    ours = {to_sf(m) for m in pos.legal_moves()}
    theirs = set(sf.legal_moves(VARIANT, fen, []))
    assert ours == theirs, (fen, sorted(ours - theirs), sorted(theirs - ours))
    assert pos.in_check() == sf.gives_check(VARIANT, fen, []), fen
    if move is None:
        # No legal move: a loss for the side to move, checkmate or not.
        assert sf.game_result(VARIANT, fen, []) < 0, fen
        return True
    if check_fen:
        assert pos.push(move).fen() == sf.get_fen(VARIANT, fen, [to_sf(move)])
    return False


def test_move_conversion_round_trips() -> None:
    for text in ("h3e3", "b10c8", "a1a10", "i10i1"):
        assert to_sf(from_sf(text)) == text
    assert from_sf("h3e3") == Move.from_iccs("h2e2")


def test_start_position_agrees() -> None:
    start = Position.start()
    assert sf.start_fen(VARIANT) == start.fen()
    compare(start, start.legal_moves()[0], check_fen=True)


@pytest.mark.parametrize(
    "fen",
    [
        "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1",  # checkmate (4.1.1)
        "3k5/4R4/9/9/9/9/9/9/9/5K3 b - - 0 1",  # no legal move, no check (4.1.3)
        "5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1",  # Red without a move
        "3k5/9/9/9/4r4/9/5N3/R8/9/4K4 w - - 0 1",  # check with four answers
    ],
)
def test_endings_and_checks_agree(fen: str) -> None:
    pos = Position.from_fen(fen)
    moves = pos.legal_moves()
    compare(pos, moves[0] if moves else None, check_fen=True)


def test_random_playouts_agree_sample() -> None:
    """The quick lane's sample: three seeded games, 25 plies each, every check made."""
    positions = 0
    for seed in range(3):
        for pos, move in playout(seed, 25):
            compare(pos, move, check_fen=True)
            positions += 1
    assert positions == 75


@pytest.mark.slow
def test_random_playouts_agree_thousands() -> None:
    """Every position of seeded random games until 3,000 are compared, then the endings of
    more games (their last plies and the verdict) until 30 games have ended, checkmates and
    positions without a move among them."""
    positions = 0
    verdicts = {True: 0, False: 0}  # in check at the end: checkmate / no legal move
    seed = 100
    while positions < 3000 or sum(verdicts.values()) < 30:
        game = list(playout(seed, 400))
        full = positions < 3000
        for i, (pos, move) in enumerate(game):
            if full or i >= len(game) - 3:
                if compare(pos, move, check_fen=positions % 10 == 0):
                    verdicts[pos.in_check()] += 1
                positions += 1
        seed += 1
    assert verdicts[True] >= 5 and verdicts[False] >= 5, verdicts


def _sf_perft(fen: str, depth: int) -> int:
    moves = sf.legal_moves(VARIANT, fen, [])
    if depth == 1:
        return len(moves)
    return sum(_sf_perft(sf.get_fen(VARIANT, fen, [m]), depth - 1) for m in moves)


@pytest.mark.slow
@pytest.mark.parametrize(
    "fen",
    [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    ],
)
def test_perft_depth_2_agrees(fen: str) -> None:
    assert perft(Position.from_fen(fen), 2) == _sf_perft(fen, 2)
