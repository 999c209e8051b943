"""Self-play matches and their statistics.

A simulated match is two halves of at most `half_turns` turns each (the stand-in for the
20-minute half timer), played by two agents; its score sheet is decided by the same
`ball.games.ball.match.result.decide` that arbiters use, so the figures mean what a tournament
means.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from ball.games.ball.ai import agent
from ball.games.ball.engine import Game, load_ruleset
from ball.games.ball.engine.actions import CONTINUE, RESET
from ball.games.ball.engine.resolve import play
from ball.games.ball.engine.state import OVER
from ball.games.ball.match.result import decide


@dataclass(frozen=True)
class SimConfig:
    matches: int = 100
    agent_a: str = "greedy"
    agent_b: str = "greedy"
    half_turns: int = 40
    ruleset: str = "standard"
    seed: int = 1
    jobs: int = 1


@dataclass
class MatchOutcome:
    winner: str | None  # "A", "B" or None
    reason: str
    td: dict[str, int]
    pb: list[dict[str, dict[str, int]]]  # per half, keyed by coach
    turns: list[int]
    steals: Counter = field(default_factory=Counter)
    actions: int = 0
    # Each steal answer in play order: {"half", "coach", "choice", "then"}, where "then" is how
    # that half ended: "own" (the chooser scored), "other" (the opponent scored) or "none".
    # Empty in shards written before `ball sim report` existed (they still load).
    steal_log: list[dict] = field(default_factory=list)


def play_half(
    game: Game,
    players: dict[int, Callable],
    half_turns: int,
    tally: Counter,
    choices: list[tuple[int, str]] | None = None,
) -> int:
    """Play one half to a touchdown or the turn cap; return the number of actions.

    `choices` collects each steal answer as (the answering side, "continue" or "reset").
    """
    s = game.state
    count = 0
    while s.phase != OVER and s.turn <= half_turns:
        actor = s.steal_by if s.steal_by >= 0 else s.to_move
        a = players[actor](s)
        if a[0] in (CONTINUE, RESET):
            kind = "continue" if a[0] == CONTINUE else "reset"
            tally[kind] += 1
            if choices is not None:
                choices.append((actor, kind))
        play(s, a, None)
        count += 1
    return count


def match_seeds(config: SimConfig, index: int) -> tuple[int, int]:
    """The seeds of coach A's and coach B's agents in match `index` of the run."""
    base = config.seed * 1_000_003 + 2 * index
    return base, base + 1


def play_match(index: int, config: SimConfig) -> MatchOutcome:
    rs = load_ruleset(config.ruleset)
    seed_a, seed_b = match_seeds(config, index)
    # iterations only: the same seed replays the same matches on a loaded machine too
    a = agent(config.agent_a, seed=seed_a, time_cap=False)
    b = agent(config.agent_b, seed=seed_b, time_cap=False)
    tally: Counter = Counter()
    game = Game.new(rs)
    halves = []
    pbs = []
    turns = []
    actions = 0
    steal_log: list[dict] = []
    for half, (south, north) in enumerate((("A", "B"), ("B", "A")), start=1):
        if half == 2:
            game = game.next_half()
        players = {0: a if south == "A" else b, 1: b if north == "B" else a}
        choices: list[tuple[int, str]] = []
        actions += play_half(game, players, config.half_turns, tally, choices)
        side_to_coach = {"S": south, "N": north}
        pb = {side_to_coach[side]: dict(v) for side, v in game.pb.items()}
        scorer = next((side_to_coach[k] for k, v in game.score.items() if v), None)
        for actor, kind in choices:
            coach = south if actor == 0 else north
            then = "none" if scorer is None else ("own" if scorer == coach else "other")
            steal_log.append({"half": half, "coach": coach, "choice": kind, "then": then})
        halves.append({"atk_first": south, "td": scorer, "pb": pb})
        pbs.append(pb)
        turns.append(min(game.turn, config.half_turns))
    decision = decide({"coaches": ["A", "B"], "halves": halves, "forfeit": None})
    return MatchOutcome(
        winner=decision.winner,
        reason=decision.reason,
        td=dict(decision.td),
        pb=pbs,
        turns=turns,
        steals=tally,
        actions=actions,
        steal_log=steal_log,
    )


def _play_chunk(args: tuple[list[int], SimConfig]) -> list[MatchOutcome]:
    indices, config = args
    return [play_match(i, config) for i in indices]


def outcomes(config: SimConfig, progress: Callable[[int], None] | None = None):
    """Yield every match outcome (in parallel when `jobs` > 1); `progress(n)` after each batch."""
    if config.matches < 0:
        raise ValueError("matches must be 0 or more")
    chunk = 10
    batches = [
        list(range(start, min(start + chunk, config.matches)))
        for start in range(0, config.matches, chunk)
    ]
    if config.jobs <= 1:
        for batch in batches:
            results = _play_chunk((batch, config))
            yield from results
            if progress:
                progress(len(results))
        return
    with ProcessPoolExecutor(max_workers=config.jobs) as pool:
        for results in pool.map(_play_chunk, [(b, config) for b in batches]):
            yield from results
            if progress:
                progress(len(results))


@dataclass
class Summary:
    matches: int
    wins: dict[str, int]
    reasons: dict[str, int]
    halves_with_td: float
    mean_pb_per_half: float
    td_per_20_pb: float | None
    steals: dict[str, int]
    mean_actions: float
    config: dict

    def as_dict(self) -> dict:
        return asdict(self)


def summarise(results: Iterable[MatchOutcome], config: SimConfig) -> Summary:
    results = list(results)
    wins = Counter(r.winner or "draw" for r in results)
    reasons = Counter(r.reason for r in results)
    halves = [pb for r in results for pb in r.pb]
    pb_total = [sum(v["atk"] for v in pb.values()) for pb in halves]
    tds = sum(sum(r.td.values()) for r in results)
    steals: Counter = Counter()
    for r in results:
        steals.update(r.steals)
    n_halves = max(len(halves), 1)
    return Summary(
        matches=len(results),
        wins={k: wins.get(k, 0) for k in ("A", "B", "draw")},
        reasons=dict(sorted(reasons.items())),
        halves_with_td=tds / n_halves,
        mean_pb_per_half=statistics.fmean(pb_total) if pb_total else 0.0,
        td_per_20_pb=(20 * tds / sum(pb_total)) if sum(pb_total) else None,
        steals=dict(steals),
        mean_actions=statistics.fmean(r.actions for r in results) if results else 0.0,
        config=asdict(config),
    )


def run(config: SimConfig, progress: Callable[[int], None] | None = None) -> Summary:
    return summarise(outcomes(config, progress), config)
