"""Match time (spec 14): parameters as data, and the clock the Match reads.

The clock is injected so that tests and replays never wait: `ManualClock` is moved by hand,
`SystemClock` reads the machine's monotonic clock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a clock that never goes backwards."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told to (tests, simulations)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock never goes backwards")
        self._now += seconds


@dataclass(frozen=True)
class Timing:
    half_seconds: float  # D-20
    turn_seconds: float  # D-21
    release_seconds: float  # R-release: the coach's extra time
    release_opponent_seconds: float  # R-release: then the opponent's time to choose
    overrun_sanctions: bool  # an action-phase overrun climbs the ladder

    @property
    def release_windows(self) -> tuple[float, float]:
        """R-release: the coach's extra time, then the opponent's
        (ball.half_timer)."""
        return (self.release_seconds, self.release_opponent_seconds)

    @classmethod
    def from_ruleset(cls, ruleset: Any) -> Timing:
        """The `[time]` table of a ruleset (the one place an organiser sets match time)."""
        return cls.from_mapping(ruleset.time)

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> Timing:
        table = data.get("time", data)
        try:
            return cls(
                half_seconds=float(table["half_minutes"]) * 60,
                turn_seconds=float(table["turn_seconds"]),
                release_seconds=float(table["release_extension_seconds"]),
                release_opponent_seconds=float(table["release_opponent_seconds"]),
                overrun_sanctions=bool(table.get("overrun_sanctions", True)),
            )
        except KeyError as exc:
            raise ValueError(f"[time] table: missing {exc.args[0]}") from None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"[time] table: {exc}") from None


def load_timing(ruleset: str | Path | None = None) -> Timing:
    """Match time of the standard ruleset, or of a ruleset given by name or TOML file."""
    from ball.games.ball.engine import load_ruleset

    return Timing.from_ruleset(load_ruleset(ruleset))
