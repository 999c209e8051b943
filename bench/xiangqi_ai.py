"""Xiangqi computer opponent benchmark: search nodes per CPU second and the depth reached in
one second, beside a yardstick measured in the same run (perft leaves per CPU second of the
engine the search runs on, so the two figures can be compared across machines).

Run: .venv/bin/python bench/xiangqi_ai.py
Prints figures; asserts nothing.
"""

from __future__ import annotations

import time

from ball.games.xiangqi.ai.search import LEVELS, choose_move, search
from ball.games.xiangqi.engine import Position, perft

POSITIONS = {
    "start": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "middle": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
}


def main() -> None:
    start = time.process_time()
    leaves = perft(Position.start(), 3)
    base = leaves / (time.process_time() - start)
    print(f"yardstick: perft 3 from the start, {base:,.0f} leaves per CPU second")
    for name, fen in POSITIONS.items():
        pos = Position.from_fen(fen)
        t = time.process_time()
        result = search(pos, depth=30, nodes=10**9, seconds=1.0)
        cpu = time.process_time() - t
        print(
            f"{name:7} 1 s search: depth {result.depth}, {result.nodes:,} nodes, "
            f"{result.nodes / cpu:,.0f} nodes per CPU second, move {result.move}"
        )
        for level in LEVELS:
            t = time.process_time()
            move = choose_move(pos, level)
            print(f"{name:7} level {level:6}: {move} in {time.process_time() - t:.2f} CPU s")


if __name__ == "__main__":
    main()
