"""The strength ladder of the computer players (issue 14): round-robin, Bradley–Terry, SPRT.

Run: .venv/bin/python bench/ai.py [--quick] [--agents random,greedy,mcts-easy,...]
     .venv/bin/python bench/ai.py --sprt mcts-hard --vs greedy

Every pairing plays `--pairs` paired starts: the same two agent seeds play one match with
each agent as the ATK-first coach (A), so colour and seed luck cancel within a pair. A
match is `ball.games.ball.sim.play_match` (two halves of at most `--half-turns` turns, decided by
the arbiters' `ball.games.ball.match.result.decide`). Ratings are a Bradley–Terry maximum-likelihood
fit (MM iterations), draws counted as half a win each and one virtual draw per pairing so that a
clean sweep stays finite; `random` is anchored at 0 and the scale is Elo (400·log10). The
95 % intervals come from the inverse of the observed information (the Hessian) with the
anchor removed. The ATK-first advantage is the share of points won by coach A.

Agents beyond `ball.games.ball.ai.AGENTS`: `old-easy|old-medium|old-hard` are the search as it was
at commit OLD_COMMIT (before lazy evaluation), loaded from git history into a temporary
package; `mcts-LEVEL@N` and `old-LEVEL@N` are a level with an iteration budget of N and no
time cap (for comparisons at equal budget); `+KEY=FIGURE` suffixes override a level's
constants (`mcts-hard@600+explore=0.2+lookahead=5`) to try a change before it goes into
levels.toml.

`--cost A,B` measures the process CPU of one match per agent pair given (default: hard v
hard, and the old search's hard at its 600 iterations with no time cap, which a loaded
machine would otherwise cut short; half cap 40 as in issue 33) beside the yardstick, 4
million squares summed in a generator, timed in the same run.

`--sprt NEW --vs OLD` plays paired starts until a sequential probability ratio test (normal
approximation of the per-pair score, H0: Elo <= elo0, H1: Elo >= elo1) accepts one of them:
a new agent is accepted only if the SPRT says it is stronger. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import itertools
import math
import pathlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ball.games.ball.ai import AGENTS
from ball.games.ball.ai.mcts import LEVELS, MctsAgent
from ball.games.ball.sim import SimConfig, play_match

ELO = 400 / math.log(10)
LADDER = ("random", "greedy", "mcts-easy", "mcts-medium", "mcts-hard")
OLD_COMMIT = "fb65925"  # the last commit whose search made and evaluated every child
OLD_FILES = ("__init__.py", "search.py", "playout.py", "evaluation.py", "levels.py", "levels.toml")
OLD_PACKAGE = "ball_old_mcts"


# --- agents from git history and budget variants ---------------------------------------------


def _old_package() -> object:
    """The old search as a package of its own, written from git into a temporary folder."""
    if OLD_PACKAGE in sys.modules:
        return sys.modules[OLD_PACKAGE]
    root = pathlib.Path(__file__).resolve().parents[1]
    folder = pathlib.Path(tempfile.mkdtemp(prefix="ball-old-search-"))
    (folder / OLD_PACKAGE).mkdir()
    for name in OLD_FILES:
        text = subprocess.run(
            ["git", "show", f"{OLD_COMMIT}:src/ball/games/ball/ai/mcts/{name}"],
            cwd=root, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        (folder / OLD_PACKAGE / name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module(OLD_PACKAGE)


def register(names: list[str]) -> None:
    """Add the agents `names` asks for that `ball.games.ball.ai.AGENTS` does not know (see
    above)."""
    for name in names:
        if name in AGENTS:
            continue
        spec, *overrides = name.split("+")
        base, _, budget = spec.partition("@")
        family, _, level_name = base.partition("-")
        if family == "old":
            old = _old_package()
            levels, agent_class = old.LEVELS, old.MctsAgent  # type: ignore[attr-defined]
        elif family == "mcts":
            levels, agent_class = LEVELS, MctsAgent
        else:
            continue
        if level_name not in levels:
            continue
        level = levels[level_name]
        if budget:
            level = dataclasses.replace(level, iterations=int(budget), seconds=None)
        for item in overrides:  # e.g. mcts-hard@600+explore=0.2
            key, _, figure = item.partition("=")
            kind = type(getattr(level, key))
            level = dataclasses.replace(level, **{key: kind(float(figure))})
        AGENTS[name] = _Maker(agent_class, level)


@dataclass(frozen=True)
class _Maker:
    """A picklable agent factory (worker processes build their own agents)."""

    agent_class: type
    level: object

    def __call__(self, seed: int | None) -> object:
        return self.agent_class(self.level, seed)


def yardstick() -> float:
    """CPU seconds of the issue's yardstick: 4 million squares summed in a generator."""
    t0 = time.process_time()
    sum(i * i for i in range(4_000_000))
    return time.process_time() - t0


def _match_cpu(args: tuple[str, str, int, int, list[str]]) -> tuple[str, str, float, float]:
    a, b, half_turns, seed, names = args
    register(names)
    config = SimConfig(matches=1, agent_a=a, agent_b=b, half_turns=half_turns, seed=seed)
    t0 = time.process_time()
    play_match(0, config)
    cpu = time.process_time() - t0
    return a, b, cpu, yardstick()


def cost(args: argparse.Namespace) -> None:
    pairs = [p.split(",") for p in args.cost.split(";")]
    names = [n for p in pairs for n in p]
    print(f"CPU of one match (half cap {args.half_turns}, seed {args.seed}), in yardsticks "
          f"(4 million squares summed in a generator, timed in the same worker)")  # fmt: skip
    jobs = [(a, b, args.half_turns, args.seed, names) for a, b in pairs]
    with ProcessPoolExecutor(max_workers=min(args.jobs, len(jobs)), initializer=register,
                             initargs=(names,)) as pool:  # fmt: skip
        for a, b, cpu, stick in pool.map(_match_cpu, jobs):
            print(f"  {a} v {b}: {cpu:.1f} s CPU = {cpu / stick:.0f} yardsticks "
                  f"(yardstick {stick:.3f} s)")  # fmt: skip


@dataclass(frozen=True)
class Game:
    a: str  # ATK-first coach's agent
    b: str
    pair: int
    points_a: float  # 1 win, 0.5 draw, 0 loss
    seconds: float


def play(args: tuple[str, str, int, int, int]) -> Game:
    a, b, pair, half_turns, seed = args
    config = SimConfig(matches=1, agent_a=a, agent_b=b, half_turns=half_turns, seed=seed)
    t0 = time.perf_counter()
    out = play_match(pair, config)
    points = {"A": 1.0, "B": 0.0}.get(out.winner or "", 0.5)
    return Game(a, b, pair, points, time.perf_counter() - t0)


def schedule(agents: list[str], pairs: int, half_turns: int, seed: int) -> list[tuple]:
    """Each pairing, each pair index: both colours with the same seeds (paired starts)."""
    jobs = []
    for x, y in itertools.combinations(agents, 2):
        for k in range(pairs):
            jobs.append((x, y, k, half_turns, seed))
            jobs.append((y, x, k, half_turns, seed))
    return jobs


def run_games(jobs: list[tuple], workers: int) -> Iterator[Game]:
    if workers <= 1:
        yield from map(play, jobs)
        return
    names = sorted({j[0] for j in jobs} | {j[1] for j in jobs})
    with ProcessPoolExecutor(max_workers=workers, initializer=register, initargs=(names,)) as pool:
        yield from pool.map(play, jobs)


# --- Bradley–Terry ------------------------------------------------------------------------


def bradley_terry(
    agents: list[str], games: list[Game], anchor: str, prior: float = 0.5
) -> tuple[dict[str, float], dict[str, float]]:
    """Ratings (Elo scale, `anchor` = 0) and their 95 % half-widths."""
    idx = {name: i for i, name in enumerate(agents)}
    k = len(agents)
    wins = [[0.0] * k for _ in range(k)]  # wins[i][j]: points i scored against j
    for g in games:
        i, j = idx[g.a], idx[g.b]
        wins[i][j] += g.points_a
        wins[j][i] += 1 - g.points_a
    for i, j in itertools.permutations(range(k), 2):
        wins[i][j] += prior  # one virtual draw per pairing (both orders: prior each)
    n = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    p = [1.0] * k
    for _ in range(10_000):  # Hunter's MM update: p_i = W_i / sum_j n_ij / (p_i + p_j)
        new = []
        for i in range(k):
            denom = sum(n[i][j] / (p[i] + p[j]) for j in range(k) if j != i)
            new.append(sum(wins[i]) / denom)
        scale = new[idx[anchor]]
        new = [v / scale for v in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, p, strict=True)) < 1e-10
        p = new
        if done:
            break
    theta = [math.log(v) for v in p]
    free = [i for i in range(k) if i != idx[anchor]]
    info = [[0.0] * len(free) for _ in free]  # observed information in theta
    for r, i in enumerate(free):
        for c, j in enumerate(free):
            if i == j:
                info[r][c] = sum(
                    n[i][m] * p[i] * p[m] / (p[i] + p[m]) ** 2 for m in range(k) if m != i
                )
            else:
                info[r][c] = -n[i][j] * p[i] * p[j] / (p[i] + p[j]) ** 2
    cov = _inverse(info)
    ratings = {name: ELO * theta[idx[name]] for name in agents}
    half = {anchor: 0.0}
    for r, i in enumerate(free):
        half[agents[i]] = 1.96 * ELO * math.sqrt(max(cov[r][r], 0.0))
    return ratings, half


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inverse of a small symmetric positive-definite matrix."""
    size = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(m)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [v / lead for v in a[col]]
        for r in range(size):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col], strict=True)]
    return [row[size:] for row in a]


# --- SPRT ------------------------------------------------------------------------------------


def sprt_llr(scores: list[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo elo1) over H0 (Elo elo0) for per-pair mean scores in
    [0, 1] (normal approximation, as chess engine testing frameworks use)."""
    n = len(scores)
    if n < 2:
        return 0.0
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    var = max(var, 0.01)  # a run of identical results must not make the test conclude at once
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt(args: argparse.Namespace) -> None:
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    print(
        f"SPRT {args.sprt} vs {args.vs}: H0 Elo <= {args.elo0}, H1 Elo >= {args.elo1}, "
        f"alpha {args.alpha}, beta {args.beta}, bounds [{lower:.2f}, {upper:.2f}]"
    )
    scores: list[float] = []
    verdict = "inconclusive (pair limit reached)"
    names = [args.sprt, args.vs]
    pool = ProcessPoolExecutor(max_workers=args.jobs, initializer=register, initargs=(names,))
    for k in range(args.max_pairs):  # one pair at a time, its two matches side by side
        one_f = pool.submit(play, (args.sprt, args.vs, k, args.half_turns, args.seed))
        two_f = pool.submit(play, (args.vs, args.sprt, k, args.half_turns, args.seed))
        one, two = one_f.result(), two_f.result()
        scores.append((one.points_a + 1 - two.points_a) / 2)
        llr = sprt_llr(scores, args.elo0, args.elo1)
        print(f"pair {k + 1}: score {scores[-1]:.2f}, mean {sum(scores) / len(scores):.3f}, "
              f"LLR {llr:+.2f}", flush=True)  # fmt: skip
        if k + 1 < args.min_pairs:
            continue
        if llr >= upper:
            verdict = f"H1 accepted: {args.sprt} is stronger than {args.vs}"
            break
        if llr <= lower:
            verdict = f"H0 accepted: {args.sprt} is not shown stronger than {args.vs}"
            break
    pool.shutdown()
    print(verdict)


# --- time per turn ---------------------------------------------------------------------------


def turn_times(args: argparse.Namespace) -> None:
    """Seconds AGENT spends per turn of its own (all its decisions of that turn), against
    greedy, over the first `--half-turns` turns of a half; greedy's turns are the yardstick."""
    from ball.games.ball.ai import agent
    from ball.games.ball.engine import Game as EngineGame

    g = EngineGame.new()
    players = {0: agent(args.turn_times, seed=args.seed), 1: agent("greedy", seed=args.seed)}
    spent: dict[tuple[int, int], float] = {}
    s = g.state
    while not g.is_over and s.turn <= args.half_turns:
        actor = s.steal_by if s.steal_by >= 0 else s.to_move
        t0 = time.perf_counter()
        a = players[actor](s)
        key = (actor, s.turn)
        spent[key] = spent.get(key, 0.0) + time.perf_counter() - t0
        g.play_tuple(a)
    for side, name in ((0, args.turn_times), (1, "greedy (yardstick)")):
        times = [v for (who, _), v in spent.items() if who == side]
        if times:
            print(f"{name}: {len(times)} turns, mean {sum(times) / len(times):.2f} s, "
                  f"max {max(times):.2f} s per turn")  # fmt: skip


# --- the ladder ------------------------------------------------------------------------------


def ladder(args: argparse.Namespace) -> None:
    agents = args.agents.split(",") if args.agents else list(LADDER)
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        raise SystemExit(f"unknown agent(s) {unknown} (known: {', '.join(AGENTS)})")
    jobs = schedule(agents, args.pairs, args.half_turns, args.seed)
    print(
        f"round-robin: {len(agents)} agents, {args.pairs} paired starts per pairing, "
        f"{len(jobs)} matches, half cap {args.half_turns} turns, seed {args.seed}, "
        f"{args.jobs} worker(s)"
    )
    t0 = time.perf_counter()
    games = list(run_games(jobs, args.jobs))
    wall = time.perf_counter() - t0
    print(f"played in {wall:.0f} s ({sum(g.seconds for g in games):.0f} s of match time)")
    _print_pairings(agents, games)
    ratings, half = bradley_terry(
        agents, games, anchor="random" if "random" in agents else agents[0]
    )
    print("\nBradley–Terry ratings (Elo scale, anchor = 0, 95 % CI from the Hessian)")
    for name in sorted(agents, key=lambda a: -ratings[a]):
        print(f"  {name:<12} {ratings[name]:+8.0f}  ± {half[name]:.0f}")
    _print_atk_first(games)


def _print_pairings(agents: list[str], games: list[Game]) -> None:
    print("\npairing                      W-D-L   score  (first agent's view)")
    for x, y in itertools.combinations(agents, 2):
        w = d = lo = 0
        for g in games:
            if {g.a, g.b} != {x, y}:
                continue
            pts = g.points_a if g.a == x else 1 - g.points_a
            w, d, lo = w + (pts == 1), d + (pts == 0.5), lo + (pts == 0)
        n = w + d + lo
        print(f"  {x:>11} v {y:<11}  {w:>2}-{d}-{lo:<2}  {(w + d / 2) / max(n, 1):6.1%}")


def _print_atk_first(games: list[Game]) -> None:
    n = len(games)
    share = sum(g.points_a for g in games) / max(n, 1)
    se = math.sqrt(share * (1 - share) / max(n, 1))
    elo = (
        ELO * math.log(share / (1 - share))
        if 0 < share < 1
        else math.copysign(math.inf, share - 0.5)
    )
    print(
        f"\nATK-first advantage: coach A scored {share:.1%} ± {1.96 * se:.1%} of points "
        f"over {n} matches ({elo:+.0f} Elo)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="random, greedy, mcts-easy; 2 pairs")
    parser.add_argument("--agents", help="comma-separated agents (default: the whole ladder)")
    parser.add_argument("--pairs", type=int, default=4, help="paired starts per pairing")
    parser.add_argument("--half-turns", type=int, default=20, help="turn cap per half")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--cost", metavar="A,B[;C,D]", nargs="?",
                        const="mcts-hard,mcts-hard;old-hard@600,old-hard@600",
                        help="CPU of one match per pair, in yardsticks")  # fmt: skip
    parser.add_argument("--turn-times", metavar="AGENT", help="time AGENT's turns vs greedy")
    parser.add_argument("--sprt", metavar="NEW", help="run an SPRT of NEW against --vs OLD")
    parser.add_argument("--vs", metavar="OLD", default="greedy")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=50.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-pairs", type=int, default=100)
    parser.add_argument("--min-pairs", type=int, default=4, help="pairs before SPRT may stop")
    args = parser.parse_args()
    register([*(args.agents or "").split(","), args.sprt or "", args.vs, args.turn_times or ""])
    if args.quick:
        args.agents = args.agents or "random,greedy,mcts-easy"
        args.pairs = 2
        args.half_turns = min(args.half_turns, 12)
    if args.cost:
        cost(args)
    elif args.turn_times:
        if args.turn_times not in AGENTS:
            raise SystemExit(f"unknown agent {args.turn_times!r} (known: {', '.join(AGENTS)})")
        turn_times(args)
    elif args.sprt:
        for name in (args.sprt, args.vs):
            if name not in AGENTS:
                raise SystemExit(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
        sprt(args)
    else:
        ladder(args)


if __name__ == "__main__":
    main()
