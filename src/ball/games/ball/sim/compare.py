"""Two rulesets compared on the same matches: a paired design.

Match i is played under ruleset A and under ruleset B with the same agents' seeds, so the
difference per match removes most of the agents' luck. Each statistic is a per-match value;
the report gives its mean under A and B and the mean paired difference (B - A) with a normal
95% confidence interval (mean ± 1.96 · sd / √n).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace

from .selfplay import MatchOutcome, SimConfig, outcomes

Z95 = 1.96


def _td(r: MatchOutcome) -> float:
    return sum(r.td.values()) / max(len(r.pb), 1)


def _pb(r: MatchOutcome) -> float:
    return statistics.fmean(sum(v["atk"] for v in pb.values()) for pb in r.pb) if r.pb else 0.0


# The per-match figures compared (the names are the report's rows).
STATISTICS: dict[str, Callable[[MatchOutcome], float]] = {
    "A wins": lambda r: float(r.winner == "A"),
    "B wins": lambda r: float(r.winner == "B"),
    "draws": lambda r: float(r.winner is None),
    "touchdowns per half": _td,
    "PB per half": _pb,
    "actions per match": lambda r: float(r.actions),
}


@dataclass(frozen=True)
class Difference:
    statistic: str
    mean_a: float
    mean_b: float
    diff: float  # mean of B - A over the paired matches
    low: float
    high: float


def paired(name: str, a: list[float], b: list[float]) -> Difference:
    """The mean paired difference of two equally long samples and its 95% interval."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(d)
    half = Z95 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    means = statistics.fmean(a), statistics.fmean(b)
    return Difference(name, *means, mean, mean - half, mean + half)


def compare(config: SimConfig, ruleset_a: str, ruleset_b: str) -> list[Difference]:
    """Play `config.matches` matches under each ruleset on the same seeds; compare them."""
    under_a = list(outcomes(replace(config, ruleset=ruleset_a)))
    under_b = list(outcomes(replace(config, ruleset=ruleset_b)))
    return [
        paired(name, [f(r) for r in under_a], [f(r) for r in under_b])
        for name, f in STATISTICS.items()
    ]
