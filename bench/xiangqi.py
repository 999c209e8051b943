"""Xiangqi engine benchmark: perft node rates of ball.games.xiangqi.engine beside Fairy-Stockfish's
Python binding (pyffish) on the same positions, in one run, with the ratio.

Run: .venv/bin/python bench/xiangqi.py [--quick]
Prints figures; asserts nothing. Both sides bulk-count the last ply (the length of the
legal-move list). pyffish is driven as its Python API is meant to be used: one
`legal_moves(variant, fen, moves)` call per interior node with the move list from the root,
so its figure is dominated by per-call overhead, not by Fairy-Stockfish's C++ generator.
pyffish is a dev-only dependency (GPL); the package itself never imports it.
"""

from __future__ import annotations

import argparse
import time

from ball.games.xiangqi.engine import Position, perft

POSITIONS = {
    "start": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "cpw2": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "cpw3": "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "fsf1": "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "fsf2": "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
}


def sf_perft(sf, fen: str, moves: list[str], depth: int) -> int:
    legal = sf.legal_moves("xiangqi", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(sf_perft(sf, fen, [*moves, m], depth - 1) for m in legal)


def timed(fn, *args):
    # CPU time of this process: both engines run in it (pyffish is a C extension), and on a
    # shared machine wall time would mostly measure the other processes.
    t0 = time.process_time()
    value = fn(*args)
    return value, time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="depth 2 only (CI smoke run)")
    args = parser.parse_args()
    depth = 2 if args.quick else 3
    try:
        import pyffish as sf
    except ImportError:
        sf = None
        print("pyffish not installed (dev extra): printing ball.games.xiangqi.engine figures only")

    print(f"perft depth {depth}, nodes per CPU second (bulk-counted last ply)")
    print(f"{'position':10} {'nodes':>9} {'engine':>14} {'pyffish':>12} {'ratio':>7}")
    ours_total = theirs_total = nodes_total = 0.0
    for name, fen in POSITIONS.items():
        pos = Position.from_fen(fen)
        nodes, ours = timed(perft, pos, depth)
        line = f"{name:10} {nodes:9d} {nodes / ours:14,.0f}"
        nodes_total += nodes
        ours_total += ours
        if sf is not None:
            sf_nodes, theirs = timed(sf_perft, sf, fen, [], depth)
            assert sf_nodes == nodes, (name, sf_nodes, nodes)  # same tree or no comparison
            theirs_total += theirs
            line += f" {nodes / theirs:12,.0f} {theirs / ours:6.1f}x"
        print(line)
    summary = f"{'all':10} {int(nodes_total):9d} {nodes_total / ours_total:14,.0f}"
    if sf is not None:
        summary += f" {nodes_total / theirs_total:12,.0f} {theirs_total / ours_total:6.1f}x"
    print(summary)

    # Per-call figures: one legal-move list for a position given as FEN text.
    fen = POSITIONS["cpw2"]
    reps = 200 if args.quick else 1000
    _, ours = timed(lambda: [Position.from_fen(fen).legal_moves() for _ in range(reps)])
    line = f"legal moves from a FEN, per call: ball.games.xiangqi.engine {ours / reps * 1e6:.0f} µs"
    if sf is not None:
        _, theirs = timed(lambda: [sf.legal_moves("xiangqi", fen, []) for _ in range(reps)])
        line += f", pyffish {theirs / reps * 1e6:.0f} µs ({theirs / ours:.1f}x)"
    print(line)


if __name__ == "__main__":
    main()
