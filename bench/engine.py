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
import os
import random
import statistics
import subprocess
import sys
import time

from ball.games.ball.engine import Game, perft, perft_made
from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.resolve import play


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
    """What the MCTS player (ball.games.ball.ai.mcts) lives on: its iteration rate, and the
    release-step test `play` makes after turn-ending actions, lazily (now) versus listing every
    step."""
    import dataclasses

    from ball.games.ball.ai.mcts import LEVELS, Search
    from ball.games.ball.engine.generate import has_release_task, release_tasks

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
    parser.add_argument("--match", type=int, metavar="SEED",
                        help="also one hard-vs-hard match's CPU in each build (~1 min)")
    parser.add_argument("--figure", nargs="+", help=argparse.SUPPRESS)  # in_build's child
    args = parser.parse_args()
    if args.figure:
        print(in_build_name(), figure(*args.figure))
        return
    quick = args.quick
    print(f"this process runs the {in_build_name()} build (BALL_PURE=1: the pure one); "
          "the every-leaf table measures both")

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
    if args.match is not None:
        match_comparison(args.match)


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


BUILDS = ("pure", "compiled")


def in_build(build: str, *figure: str) -> float:
    """A figure measured by this script in a child process running `build` of the engine
    and the search (BALL_PURE=1 for the pure one; ball/compiled_build.py), so the two builds
    are measured in the same run beside the same yardstick."""
    env = {k: v for k, v in os.environ.items() if k != "BALL_PURE"}
    if build == "pure":
        env["BALL_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, __file__, "--figure", *figure], env=env, check=True,
        capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    assert out[0] == build, f"asked for the {build} build, the child ran the {out[0]} one"
    return float(out[1])


def compiled_available() -> bool:
    """Whether an up-to-date compiled build exists (even if this process runs the pure one)."""
    from ball import compiled_build

    return compiled_build.stamp_matches()


def in_build_name() -> str:
    import ball.games.ball.engine  # noqa: F401  (the build is chosen when the engine is first imported)
    from ball import compiled_build

    return "compiled" if compiled_build.is_compiled("ball.games.ball.engine") else "pure"


def made_comparison(quick: bool, chess) -> None:
    """The issue-15 measure, like with like: every leaf made on both sides, for each build
    of the engine (issue 33 target: compiled >= 4x python-chess). The three are measured in
    alternation, several rounds, and the medians printed, so that a change of the machine's
    load hits all alike."""
    rounds, min_cpu = (3, 0.5) if quick else (5, 2.0)
    made_depth = 3
    made_cdepth = 3 if quick else 4  # depth 4: python-chess makes ~200k leaves
    made_nodes = perft_made(Game.new(), made_depth)
    cm_nodes = chess_perft_made(chess.Board(), made_cdepth)
    builds = BUILDS if compiled_available() else ("pure",)
    rates: dict[str, list[float]] = {name: [] for name in (*builds, "python-chess")}
    for _ in range(rounds):
        for build in builds:
            rates[build].append(in_build(build, "made", str(made_depth), str(min_cpu)))
        rates["python-chess"].append(
            cpu_rate(lambda: chess_perft_made(chess.Board(), made_cdepth), min_cpu)
        )
    print(f"every leaf made, CPU node rates, median of {rounds} rounds "
          f"(BALL perft({made_depth}) start: {made_nodes:,} nodes; "
          f"python-chess perft({made_cdepth}): {cm_nodes:,}):")
    chess_rate = statistics.median(rates["python-chess"])
    for name, values in rates.items():
        rate = statistics.median(values)
        print(f"  {name:<13} {rate:>12,.0f} nodes/s  {rate / chess_rate:5.2f}x python-chess")
    if "compiled" not in builds:
        print("  (no compiled build: scripts/setup.sh builds it where a C compiler is)")
    print("  target: compiled >= 4x python-chess (issue 33)")


def yardstick() -> float:
    """The issue's yardstick: CPU seconds to sum 4 million squares in a generator."""
    t0 = time.process_time()
    sum(i * i for i in range(4_000_000))
    return time.process_time() - t0


def match_comparison(seed: int) -> None:
    """CPU of one hard-vs-hard match (`ball sim run`'s `play_match`, 40-turn halves, hard at
    its iteration budget) in each build, beside the yardstick measured before and after in
    this run."""
    sticks = [yardstick()]
    builds = BUILDS if compiled_available() else ("pure",)
    cpu = {build: in_build(build, "match", str(seed)) for build in builds}
    sticks.append(yardstick())
    stick = statistics.median(sticks)
    print(f"one hard-vs-hard match (seed {seed}), CPU; yardstick {stick:.3f} s "
          "(4 million squares summed in a generator):")
    for build, secs in cpu.items():
        print(f"  {build:<9} {secs:7.1f} s = {secs / stick:6.0f} yardsticks")
    if len(cpu) == 2:
        print(f"  compiled/pure: {cpu['pure'] / cpu['compiled']:.2f}x cheaper")


def figure(what: str, *args: str) -> float:
    """One figure of this process's build (the child side of `in_build`)."""
    if what == "made":
        start = Game.new()
        return cpu_rate(lambda: perft_made(start, int(args[0])), float(args[1]))
    from dataclasses import replace

    from ball.games.ball.ai.mcts import LEVELS
    from ball.games.ball.sim.selfplay import SimConfig, play_match

    # By the iteration budget alone: on a loaded machine the per-turn wall-clock cap would
    # stop both builds' searches at the same moment and hide what each costs (an idle
    # machine plays hard by its iterations; the cap is only a bound).
    LEVELS["hard"] = replace(LEVELS["hard"], seconds=None)
    config = SimConfig(matches=1, agent_a="mcts-hard", agent_b="mcts-hard", seed=int(args[0]))
    t0 = time.process_time()
    play_match(0, config)
    return time.process_time() - t0


if __name__ == "__main__":
    main()
