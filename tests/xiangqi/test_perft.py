"""Perft (leaf counts of the legal move tree) against published counts.

Start position (seed 1.3): 44 / 1,920 / 79,666 / 3,290,240 — chessprogramming wiki, "Chinese
Chess Perft Results", position 1, and Fairy-Stockfish tests/perft.sh (xiangqi startpos 4).
Middle-game and ending positions: the same wiki page's positions 2–6 (written there with the
`h`/`e` letters, so they also exercise that letter set) and the two xiangqi positions of
Fairy-Stockfish's tests/perft.sh.
"""

from __future__ import annotations

import pytest

from ball.games.xiangqi.engine import Move, Position, divide, perft

START_COUNTS = {1: 44, 2: 1_920, 3: 79_666}

# chessprogramming wiki "Chinese Chess Perft Results", positions 2-6: FEN, counts at 1..4.
CPW = [
    ("r1ea1a3/4kh3/2h1e4/pHp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2EAKAE2 w", (38, 1128, 43929, 1339047)),
    ("1ceak4/9/h2a5/2p1p3p/5cp2/2h2H3/6PCP/3AE4/2C6/3A1K1H1 w", (7, 281, 8620, 326201)),
    ("5a3/3k5/3aR4/9/5r3/5h3/9/3A1A3/5K3/2EC2E2 w", (25, 424, 9850, 202884)),
    ("CRH1k1e2/3ca4/4ea3/9/2hr5/9/9/4E4/4A4/4KA3 w", (28, 516, 14808, 395483)),
    ("R1H1k1e2/9/3aea3/9/2hr5/2E6/9/4E4/4A4/4KA3 w", (21, 364, 7626, 162837)),
]
# Fairy-Stockfish tests/perft.sh, variant xiangqi: FEN, depth 4 count (1..3 cross-checked
# with pyffish in tests/xiangqi/test_oracle.py's perft test).
FSF = [
    ("1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", 4_485_547),
    ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 92_741),
]
FSF_SHALLOW = {FSF[0][0]: (49, 2265, 100326), FSF[1][0]: (13, 272, 3707)}


@pytest.mark.parametrize(("depth", "nodes"), sorted(START_COUNTS.items()))
def test_perft_start(depth: int, nodes: int) -> None:
    assert perft(Position.start(), depth) == nodes


@pytest.mark.slow
def test_perft_start_depth_4() -> None:
    assert perft(Position.start(), 4) == 3_290_240


@pytest.mark.parametrize(("fen", "counts"), CPW, ids=[f"cpw{i}" for i in range(2, 7)])
def test_perft_wiki_positions_depth_1_to_3(fen: str, counts: tuple[int, ...]) -> None:
    pos = Position.from_fen(fen)
    assert [perft(pos, d) for d in (1, 2, 3)] == list(counts[:3])


@pytest.mark.slow
@pytest.mark.parametrize(("fen", "counts"), CPW, ids=[f"cpw{i}" for i in range(2, 7)])
def test_perft_wiki_positions_depth_4(fen: str, counts: tuple[int, ...]) -> None:
    assert perft(Position.from_fen(fen), 4) == counts[3]


@pytest.mark.parametrize("fen", list(FSF_SHALLOW), ids=["fsf1", "fsf2"])
def test_perft_fairy_stockfish_positions_depth_1_to_3(fen: str) -> None:
    pos = Position.from_fen(fen)
    assert tuple(perft(pos, d) for d in (1, 2, 3)) == FSF_SHALLOW[fen]


def test_perft_fairy_stockfish_position_2_depth_4() -> None:
    assert perft(Position.from_fen(FSF[1][0]), 4) == FSF[1][1]


@pytest.mark.slow
def test_perft_fairy_stockfish_position_1_depth_4() -> None:
    assert perft(Position.from_fen(FSF[0][0]), 4) == FSF[0][1]


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


def test_negative_depth_is_refused() -> None:
    from ball.games.xiangqi.engine import XiangqiError

    with pytest.raises(XiangqiError, match="depth"):
        perft(Position.start(), -1)
