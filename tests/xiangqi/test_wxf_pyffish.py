"""Differential test of the WXF writer against Fairy-Stockfish (pyffish, a GPL test oracle in
the dev extra, never imported by src/ball): for every legal move of random positions — pieces
dropped at random with pawns crowded onto few files, so tandem rooks, cannons, horses and
pawns (two, three, on two files) are common — `notation.write(..., "wxf")` must equal
`pyffish.get_san(variant, fen, move, False, NOTATION_XIANGQI_WXF)`, and reading either string
back must give the move."""

from __future__ import annotations

import random

import pytest

from ball.games.xiangqi.engine import Move, Position
from ball.games.xiangqi.engine.notation import read, write

from .oracle import LazyPyffish
from .positions import random_game, random_position

# imported by the first test that asks, not at collection (see oracle.py)
sf = LazyPyffish(skip_if_missing=True)


def oracle_move(move: Move) -> str:
    # Fairy-Stockfish numbers Xiangqi ranks 1..10; ICCS numbers them 0..9.
    a = move.iccs()
    return f"{a[0]}{int(a[1]) + 1}{a[2]}{int(a[3]) + 1}"


def oracle_wxf(position: Position, move: Move) -> str:
    return sf.get_san("xiangqi", position.fen(), oracle_move(move), False, sf.NOTATION_XIANGQI_WXF)


def compare(positions: list[Position], per_position: int, rng: random.Random) -> dict[str, int]:
    forms: dict[str, int] = {}
    for position in positions:
        moves = position.legal_moves()
        for move in rng.sample(moves, min(per_position, len(moves))):
            ours = write(position, move, "wxf")
            assert ours == oracle_wxf(position, move), (position.fen(), move.iccs())
            assert read(position, ours, "wxf") == move
            form = "indexed" if ours[0].isdigit() else "tandem" if ours[1] in "+-" else "plain"
            forms[form] = forms.get(form, 0) + 1
    return forms


def test_oracle_agrees_on_the_legal_moves() -> None:
    # The two engines must agree on the moves before their texts can be compared.
    rng = random.Random(7)
    for _ in range(20):
        position = random_position(rng)
        ours = sorted(oracle_move(m) for m in position.legal_moves())
        assert ours == sorted(sf.legal_moves("xiangqi", position.fen(), []))


def test_wxf_matches_pyffish_on_random_positions() -> None:
    rng = random.Random(2026)
    forms = compare([random_position(rng) for _ in range(60)], 3, rng)
    # The sample must exercise every form, or the test proves less than it says.
    assert set(forms) == {"plain", "tandem", "indexed"}, forms


def test_wxf_matches_pyffish_along_random_games() -> None:
    rng = random.Random(11)
    game = random_game(rng, 120)
    compare(game.positions[::4], 4, rng)


@pytest.mark.slow
def test_wxf_matches_pyffish_on_many_positions() -> None:
    rng = random.Random(16)
    forms = compare([random_position(rng) for _ in range(600)], 4, rng)
    assert min(forms.values()) >= 50, forms
