"""Xiangqi notation and PGN benchmark: moves written and read per second in ICCS, WXF and
Chinese, and PGN write/read/replay of a game, beside the yardstick of the same run — legal
move generation (`Position.legal_moves`) on the same positions.

Run: .venv/bin/python bench/xiangqi_notation.py [--quick]
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

from ball.games.xiangqi.engine import Game, Position
from ball.games.xiangqi.engine.notation import read, write
from ball.games.xiangqi.engine.pgn import from_game
from ball.games.xiangqi.engine.pgn import read as read_pgn
from ball.games.xiangqi.engine.pgn import write as write_pgn


def positions(count: int, seed: int = 1) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        game = Game()
        for _ in range(rng.randint(10, 120)):
            moves = game.position.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        out.append(game.position)
    return out


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>10,.0f}/s"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sample = positions(20 if args.quick else 200)
    # Fresh positions for every pass, so no pass reads another's cached legal-move list.
    fens = [p.fen() for p in sample]

    t0 = time.perf_counter()
    n = sum(len(Position.from_fen(f).legal_moves()) for f in fens)
    base = time.perf_counter() - t0
    print(f"yardstick: FEN + legal moves  {n} moves  {rate(n, base)}")
    for fmt in ("iccs", "wxf", "chinese"):
        t0 = time.perf_counter()
        texts = []
        for f in fens:
            p = Position.from_fen(f)
            texts.append([(write(p, m, fmt), m) for m in p.legal_moves()])
        wrote = time.perf_counter() - t0
        t0 = time.perf_counter()
        for f, pairs in zip(fens, texts, strict=True):
            p = Position.from_fen(f)
            for text, move in pairs:
                assert read(p, text, fmt) == move
        reads = time.perf_counter() - t0
        print(
            f"{fmt:8} write {rate(n, wrote)} ({wrote / base:5.1f}x yardstick)   "
            f"read {rate(n, reads)} ({reads / base:5.1f}x yardstick)"
        )
    game = Game()
    rng = random.Random(3)
    while len(game.moves) < 200 and game.position.legal_moves():
        game.push(rng.choice(game.position.legal_moves()))
    for fmt in ("iccs", "wxf", "chinese"):
        t0 = time.perf_counter()
        text = write_pgn(from_game(game, fmt))
        replayed = read_pgn(text).game()
        spent = time.perf_counter() - t0
        assert replayed.position == game.position
        print(f"PGN {fmt:8} write+read+replay of {len(game.moves)} plies: {spent * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
