"""Engine benchmark: perft node rates, apply() rate, random half-playouts, the MCTS search's
iteration rate and release-step test, vs python-chess.

Run: .venv/bin/python bench/engine.py [--quick]
Prints figures; asserts nothing. "Bulk-counted" means the last ply is counted from the
length of the legal-action list without applying it (as chess engines' perft does);
"every leaf made" applies each last-ply action too. The issue-15 measure is the second,
BALL against python-chess in the same run (bulk counting flatters BALL's longer lists).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ball.engine import Game, perft, perft_made
from ball.engine.generate import legal
from ball.engine.resolve import play


def timed(fn, *args):
    t0 = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - t0


def midgame(seed: int = 7, turns: int = 14) -> Game:
    """A reproducible midgame: random play (ordinary actions preferred) for some turns."""
    rng = random.Random(seed)
    g = Game.new()
    while g.turn <= turns and not g.is_over:
        acts = g.legal_tuples()
        ordinary = [a for a in acts if a[0] in (0, 1, 2)] or acts
        g.play_tuple(rng.choice(ordinary))
    return g


def playout(g: Game, rng: random.Random, max_turns: int) -> int:
    s = g.state.copy()
    plies = 0
    while s.phase != 4 and s.turn <= max_turns:
        acts = legal(s)
        play(s, acts[rng.randrange(len(acts))], None)
        plies += 1
    return plies


def search_figures(quick: bool) -> None:
    """What the MCTS player (ball.ai.mcts) lives on: its iteration rate, and the release-step
    test `play` makes after turn-ending actions, lazily (now) versus listing every step."""
    import dataclasses

    from ball.ai.mcts import LEVELS, Search
    from ball.engine.generate import has_release_task, release_tasks

    iterations = 60 if quick else 300
    for name, g in (("start", Game.new()), ("midgame", midgame())):
        level = dataclasses.replace(LEVELS["hard"], iterations=iterations, seconds=None)
        search = Search(level, seed=1)
        t0 = time.perf_counter()
        search.choose(g.state)
        secs = time.perf_counter() - t0
        print(f"MCTS {name}: {iterations} iterations in {secs:.2f} s = {iterations / secs:,.0f}/s")
    states = []
    rng = random.Random(3)
    game = Game.new()
    while len(states) < (500 if quick else 5000):
        if game.is_over:
            game = Game.new()
        states.append(game.state.copy())
        game.play_tuple(rng.choice(game.legal_tuples()))
    _, listed = timed(lambda: [bool(release_tasks(s)) for s in states])
    _, lazy = timed(lambda: [has_release_task(s) for s in states])
    print(
        f"release-step test on {len(states)} states: lazy {lazy * 1e6 / len(states):.1f} us, "
        f"full list {listed * 1e6 / len(states):.1f} us (yardstick) = {listed / lazy:.1f}x"
    )


def chess_perft_made(board, depth: int) -> int:
    """python-chess perft with every leaf pushed and popped (make-every-leaf)."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft_made(board, depth - 1)
        board.pop()
    return total


def chess_perft(board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller workloads (CI smoke run)")
    args = parser.parse_args()
    quick = args.quick

    depth = 3 if quick else 4
    g = Game.new()
    nodes, secs = timed(perft, g, depth)
    ball_rate = nodes / secs
    print(
        f"perft({depth}) standard start: {nodes:,} nodes in {secs:.2f} s = {ball_rate:,.0f} nodes/s"
    )

    m = midgame()
    mdepth = 2 if quick else 3
    mnodes, msecs = timed(perft, m, mdepth)
    print(
        f"perft({mdepth}) midgame (half {m.half}, turn {m.turn}, {m.phase}): {mnodes:,} nodes "
        f"in {msecs:.2f} s = {mnodes / msecs:,.0f} nodes/s"
    )

    # apply(): the public, validating path (text in, events out).
    rng = random.Random(1)
    n_apply = 2000 if quick else 20000
    game = Game.new()
    t0 = time.perf_counter()
    for _ in range(n_apply):
        if game.is_over:
            game = Game.new()
        game.apply(rng.choice(game.legal_actions()))
    apply_secs = time.perf_counter() - t0
    print(f"apply(text) with legal_actions(): {n_apply / apply_secs:,.0f} calls/s")

    rng = random.Random(2)
    n_games = 20 if quick else 200
    max_turns = 200
    t0 = time.perf_counter()
    plies = sum(playout(Game.new(), rng, max_turns) for _ in range(n_games))
    po_secs = time.perf_counter() - t0
    print(
        f"random half-playouts (to a touchdown or {max_turns} turns): "
        f"{n_games / po_secs:,.1f} halves/s, {plies / po_secs:,.0f} plies/s"
    )

    search_figures(quick)

    try:
        import chess
    except ImportError:
        print("python-chess not installed: no comparison")
        return
    board = chess.Board()
    cdepth = 3 if quick else 4
    cnodes, csecs = timed(chess_perft, board, cdepth)
    chess_rate = cnodes / csecs
    print(
        f"python-chess perft({cdepth}) start: {cnodes:,} nodes in {csecs:.2f} s "
        f"= {chess_rate:,.0f} nodes/s"
    )
    print(f"ratio BALL/python-chess node rate: {ball_rate / chess_rate:.2f}x (target >= 0.3x)")
    made_comparison(quick, chess)


def cpu_rate(count, min_cpu: float) -> float:
    """Nodes per second of CPU time (`time.process_time`, steadier than wall time on a shared
    machine): `count()` is run until it has used `min_cpu` seconds."""
    nodes = 0
    t0 = time.process_time()
    while True:
        nodes += count()
        spent = time.process_time() - t0
        if spent >= min_cpu:
            return nodes / spent


def made_comparison(quick: bool, chess) -> None:
    """The issue-15 measure, like with like: every leaf made on both sides. The two are
    measured in alternation, several rounds, and the medians printed, so that a change of
    the machine's load hits both alike."""
    rounds, min_cpu = (3, 0.5) if quick else (5, 2.0)
    made_depth = 3
    made_cdepth = 3 if quick else 4  # depth 4: python-chess makes ~200k leaves
    start = Game.new()
    made_nodes = perft_made(start, made_depth)
    cm_nodes = chess_perft_made(chess.Board(), made_cdepth)
    ball_rates, chess_rates, ratios = [], [], []
    for _ in range(rounds):
        ball_rates.append(cpu_rate(lambda: perft_made(start, made_depth), min_cpu))
        chess_rates.append(cpu_rate(lambda: chess_perft_made(chess.Board(), made_cdepth), min_cpu))
        ratios.append(ball_rates[-1] / chess_rates[-1])
    print(
        f"perft({made_depth}) standard start, every leaf made: {made_nodes:,} nodes, "
        f"median {statistics.median(ball_rates):,.0f} nodes/s CPU over {rounds} rounds"
    )
    print(
        f"python-chess perft({made_cdepth}) start, every leaf made: {cm_nodes:,} nodes, "
        f"median {statistics.median(chess_rates):,.0f} nodes/s CPU over {rounds} rounds"
    )
    print(
        f"ratio BALL/python-chess, every leaf made: median {statistics.median(ratios):.2f}x "
        f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)}; issue 15 target >= 1.5x)"
    )


if __name__ == "__main__":
    main()
