"""Perft from the standard start (seed 1.3) against the published counts
(chessprogramming wiki, "Perft Results" / Xiangqi; Fairy-Stockfish's xiangqi perft tests):
44, 1,920, 79,666, 3,290,240."""

from __future__ import annotations

import pytest

from ball.xiangqi import Move, Position, divide, perft

START_COUNTS = {1: 44, 2: 1_920, 3: 79_666}


@pytest.mark.parametrize(("depth", "nodes"), sorted(START_COUNTS.items()))
def test_perft_start(depth: int, nodes: int) -> None:
    assert perft(Position.start(), depth) == nodes


@pytest.mark.slow
def test_perft_start_depth_4() -> None:
    assert perft(Position.start(), 4) == 3_290_240


def test_perft_depth_zero_counts_the_position() -> None:
    assert perft(Position.start(), 0) == 1


def test_divide_sums_to_perft_and_covers_the_legal_moves() -> None:
    start = Position.start()
    split = divide(start, 2)
    assert set(split) == set(start.legal_moves())
    assert sum(split.values()) == 1_920
    # After the central cannon h2e2, Black's cannon on h7 gains the quiet steps to h2 and h1
    # but loses the capture h7xh0 that jumped the red cannon on h2 (seed 2.3): 44 + 2 - 1.
    assert split[Move.from_iccs("h2e2")] == 45
