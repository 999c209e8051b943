"""BALL match time (spec 14) as plain arithmetic: the half timer and its Final Drive (D-20),
the turn limit (D-21, D-36) and the release-phase windows (R-release).

Two places keep BALL time: the `Match` (`ball.match.flow`), which applies these rules to a
game, and the table clock (`ball.clocks.clock`), which shows them to the coaches and the
arbiter. Both take their figures from here, so they cannot drift apart. Nothing here reads a
clock or a game: callers pass the instants, the measured seconds and the roles (any player
label: a side, a coach letter, a clock's player index).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P")


def half_timer_expiry(started_at: float, length: float, stopped: float = 0.0) -> float:
    """The instant the half timer runs out. It runs from the start signal without stopping
    (D-20); `stopped` is the time an organiser's own clock control let it stand still."""
    return started_at + length + stopped


def turn_limit_edge(limit: float, overruns: int, every: float | None) -> float | None:
    """Seconds of measured turn time at which overrun number `overruns + 1` falls: the first
    at the limit, each further one `every` seconds later (a coach who stays on gets a fresh
    window, D-21), or none after the first when `every` is None (an overrun only counted)."""
    if every is None:
        return limit if overruns == 0 else None
    return limit + overruns * every


def release_window_end(windows: Sequence[float], index: int) -> float | None:
    """Seconds into the release phase at which window `index` ends (R-release: the mover's
    extra time, then the opponent's); None past the last one, when the referee decides."""
    if index >= len(windows):
        return None
    return sum(windows[: index + 1])


@dataclass
class FinalDrive(Generic[P]):
    """The Final Drive of a half (D-20): the turn running when the half timer expires is
    finished; if the coach then holding the ATK role did not play it, that coach gets exactly
    one more turn; then the half ends. A touchdown ends the half at once in any case."""

    turn_at_expiry: P  # who was playing the turn running at expiry
    expired_at: float | None = None
    extra_turn_of: P | None = None  # the ATK coach's one more turn, once it is given

    def after_turn(self, finished_by: P, attack: P) -> P | None:
        """Who plays next once `finished_by` has ended a turn and `attack` holds the ATK
        role; None when the half ends now."""
        if self.extra_turn_of is None and finished_by != attack:
            self.extra_turn_of = attack
            return attack
        return None
