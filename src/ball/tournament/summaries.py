"""Typed results of the tournament service's use cases: frozen dataclasses a caller reads
by attribute (`given.round`) and writes out with `dataclasses.asdict` (the same keys the
service's dicts had). Jinja templates read `x.name` and `x["name"]` alike from both."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SanctionGiven:
    """A step of the sanction ladder given to an entrant (`give_sanction`)."""

    entrant_id: int
    step: str
    reason: str
    round: int | None
    table: int | None
    at: float


@dataclass(frozen=True)
class SignalGiven:
    """A start signal of a round (`give_signal`)."""

    round: int
    signal: int
    at: float


@dataclass(frozen=True)
class HalfEnd:
    """When a table finished its first half, and who said so (`record_half_end`)."""

    round: int
    table: int
    at: float
    source: str
