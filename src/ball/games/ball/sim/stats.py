"""The figures of `ball sim report`, computed from a run's match outcomes (pure, no plotting).

Every share comes with a 95 % Wilson score interval (Wilson 1927): unlike the normal
interval p ± 1.96·√(p(1−p)/n) it stays inside [0, 1] and is not of zero width at 0 or n
successes, which matters for rare reasons such as a decision by defensive superiority.

The first attacker is always coach A in a simulated match (A is ATK in half 1, B in half 2,
`ball.games.ball.sim.selfplay.play_match`), so "the ATK-first advantage" is coach A's share of the
decided matches; it measures the rule only when both coaches use the same agent.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .selfplay import MatchOutcome

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile
# The result reasons a self-play match can have (a forfeit cannot happen without a clock).
REASONS = ("touchdowns", "attack-efficiency", "defensive-superiority", "draw")
CHOICES = ("continue", "reset")
THENS = ("own", "other", "none")


@dataclass(frozen=True)
class Share:
    """`count` of `total`, its share and the 95 % Wilson interval [low, high]."""

    count: int
    total: int
    share: float
    low: float
    high: float


def wilson(count: int, total: int, z: float = Z95) -> Share:
    """The Wilson score interval of count/total; an empty sample says nothing: [0, 1]."""
    if not 0 <= count <= total:
        raise ValueError(f"count {count} is not between 0 and total {total}")
    if total == 0:
        return Share(0, 0, 0.0, 0.0, 1.0)
    p = count / total
    z2n = z * z / total
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / total + z2n / (4 * total)) / (1 + z2n)
    # Exactly 0 (1) at no (every) success, as the formula gives without rounding.
    low = 0.0 if count == 0 else min(p, centre - half)
    high = 1.0 if count == total else max(p, centre + half)
    return Share(count, total, p, low, high)


@dataclass(frozen=True)
class Distribution:
    """Values of one figure (one per half or per match) with their mean and quartiles."""

    values: tuple[float, ...]
    mean: float
    median: float
    low_quartile: float
    high_quartile: float


def distribution(values: Iterable[float]) -> Distribution:
    vals = tuple(sorted(values))
    if not vals:
        return Distribution((), 0.0, 0.0, 0.0, 0.0)
    return Distribution(
        vals, sum(vals) / len(vals), _quantile(vals, 0.5), _quantile(vals, 0.25),
        _quantile(vals, 0.75),
    )  # fmt: skip


def _quantile(vals: tuple[float, ...], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default), on sorted values."""
    pos = q * (len(vals) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(vals) - 1)
    return vals[lo] + (vals[hi] - vals[lo]) * (pos - lo)


@dataclass(frozen=True)
class ReportStats:
    matches: int
    reasons: dict[str, Share]  # each reason's share of all matches
    first_attacker: Share  # coach A's wins among decided matches
    first_attacker_all: Share  # coach A's wins among all matches
    pb_per_half: Distribution  # PB charged to the ATK roles in a half (as `ball sim run`)
    td_per_20_pb: Distribution  # per match with PB: 20 · touchdowns / PB
    halves: int
    halves_with_steal: Share  # halves with at least one steal answered
    steals_per_half: float
    choices: dict[str, Share]  # continue / reset among steal answers
    # Per choice: how its half ended, as shares of that choice's answers.
    then: dict[str, dict[str, Share]]
    steals_recorded: bool  # False for a run written before steal outcomes were stored
    half_turns: Distribution
    capped: Share  # halves whose turn count reached the turn cap


def _pb_total(pb: dict[str, dict[str, int]]) -> int:
    return sum(v.get("atk", 0) for v in pb.values())


def _steal_figures(results: list[MatchOutcome]) -> tuple[dict, dict, Share, float, bool]:
    log = [entry for r in results for entry in r.steal_log]
    answered = sum(sum(r.steals.values()) for r in results)
    recorded = len(log) == answered  # old shards hold counts but no steal_log
    halves = 2 * len(results)
    counts = Counter(e["choice"] for e in log) if recorded else Counter()
    if not recorded:
        for r in results:
            counts.update(r.steals)
    total = sum(counts[c] for c in CHOICES)
    choices = {c: wilson(counts[c], total) for c in CHOICES}
    then = {
        c: {t: wilson(sum(1 for e in log if e["choice"] == c and e["then"] == t), counts[c])
            for t in THENS}
        for c in CHOICES
    } if recorded else {}  # fmt: skip
    stolen = {(i, e["half"]) for i, r in enumerate(results) for e in r.steal_log}
    with_steal = wilson(len(stolen), halves) if recorded else wilson(0, 0)
    return choices, then, with_steal, total / halves if halves else 0.0, recorded


def compute(results: Iterable[MatchOutcome], cap: int | None = None) -> ReportStats:
    """Every figure of the report from the outcomes of one run; `cap` is its turn cap."""
    results = list(results)
    n = len(results)
    reasons = Counter(r.reason for r in results)
    decided = [r for r in results if r.winner is not None]
    a_wins = sum(1 for r in decided if r.winner == "A")
    pb_halves = [_pb_total(pb) for r in results for pb in r.pb]
    rates = []
    for r in results:
        pb = sum(_pb_total(h) for h in r.pb)
        if pb:
            rates.append(20 * sum(r.td.values()) / pb)
    choices, then, with_steal, per_half, recorded = _steal_figures(results)
    return ReportStats(
        matches=n,
        reasons={k: wilson(reasons.get(k, 0), n) for k in REASONS},
        first_attacker=wilson(a_wins, len(decided)),
        first_attacker_all=wilson(a_wins, n),
        pb_per_half=distribution(pb_halves),
        td_per_20_pb=distribution(rates),
        halves=2 * n,
        halves_with_steal=with_steal,
        steals_per_half=per_half,
        choices=choices,
        then=then,
        steals_recorded=recorded,
        half_turns=distribution(t for r in results for t in r.turns),
        capped=_capped(results, cap),
    )


def _capped(results: list[MatchOutcome], cap: int | None) -> Share:
    """Halves whose turn count reached the cap (the stand-in for the half's timer running out)."""
    if cap is None:
        return wilson(0, 0)
    turns = [t for r in results for t in r.turns]
    return wilson(sum(1 for t in turns if t >= cap), len(turns))
