"""Xiangqi repetition-ruling figures: how long `Game.ruling` takes on a judged cycle (every
move classified: check, kill, chase, idle) and on a long game without repetition (the cost
`Game.outcome` adds to every call), beside a yardstick measured in the same run (perft 2
from the start position). Prints figures; asserts nothing about time.

    .venv/bin/python bench/xiangqi_repetition.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from ball.games.xiangqi.engine import Game, Move, Position, load_rules, perft

CYCLES = {
    "perpetual check": ("4k4/9/9/9/3R5/9/9/9/9/5K3 w - - 0 1", "d5e5 e9d9 e5d5 d9e9"),
    "cannon chases rook": ("2r2k3/9/9/1nr6/Cn7/9/9/9/9/3K5 w - - 0 1", "a5a6 c6c5 a6a5 c5c6"),
    "perpetual kill": ("9/9/4k4/p3N4/9/9/5R3/9/9/5K3 w - - 0 1", "f3e3 e7d7 e3f3 d7e7"),
}


def timed(fn: Callable[[], object], repeat: int = 10) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def game(fen: str, moves: list[str]) -> Game:
    g = Game.from_fen(fen)
    for text in moves:
        g.push(Move.from_iccs(text))
    return g


def long_game(plies: int) -> Game:
    # A deterministic walk that picks the first legal move not seen twice before.
    g = Game()
    for _ in range(plies):
        keys = g.keys()
        moves = g.position.legal_moves()
        fresh = [m for m in moves if keys.count(g.position.push(m).key()) < 2]
        if not fresh:
            break
        g.push(fresh[0])
    return g


def main() -> None:
    start = Position.start()
    yard = timed(lambda: perft(start, 2))
    print(f"yardstick: perft 2 from the start (1,920 leaves)   {yard * 1e3:8.2f} ms")
    for rules in ("chinese", "axf"):
        rule_set = load_rules(rules)
        for name, (fen, cycle) in CYCLES.items():
            g = game(fen, cycle.split() * 2)
            t = timed(lambda g=g, r=rule_set: g.ruling(r))
            print(f"{rules:8} {name:22} ruling    {t * 1e3:8.2f} ms  ({t / yard:5.2f} yardsticks)")
    g = long_game(200)
    t = timed(g.ruling)
    label = f"no repetition, {len(g.moves)} plies"
    print(f"{label:40} ruling    {t * 1e3:8.2f} ms  ({t / yard:5.2f} yardsticks)")


if __name__ == "__main__":
    main()
