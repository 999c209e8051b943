"""Match time as plain arithmetic: a half timer and its Final Drive, a turn limit and the
release-phase windows, as BALL plays them (spec 14: D-20, D-21, D-36, R-release).

Two places keep that time: a game's match (BALL's `ball.games.ball.match.flow`), which applies
these rules to a game, and the shared table clock (`ball.clocks.clock`), whose controls offer
them to any game and which shows them to the players and the arbiter. Both take their
figures from here, so they cannot drift apart. Nothing here reads a clock or a game: callers
pass the instants, the measured seconds and the roles (any player label: a side, a coach
letter, a clock's player index).
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


def half_turns(half_seconds: float, turn_seconds: float) -> int:
    """The half timer counted in turns (the simulator, where nobody's clock runs): the turns
    that fill a half when every turn takes its full limit (D-21), 20 under the standard
    20 minutes and 60 s. A computer's turn takes a few seconds, so a half played on the
    wall clock would run to hundreds of turns; counted this way it ends as the regulation's
    half of full-length turns would."""
    return max(1, int(half_seconds // turn_seconds))


@dataclass(frozen=True)
class TurnTimer:
    """The half timer on a turn count, with its Final Drive (D-20).

    The timer expires during turn `cap` (its full-length time is the half's last), so that
    turn is the one running at expiry and is finished; the coach holding the ATK role as the
    next turn begins gets it if it was not theirs (`FinalDrive.after_turn`), then the half
    ends. A half thus lasts `cap` or `cap + 1` turns, unless a touchdown ends it first."""

    cap: int

    def reading(self, turn: int, to_move: str, attack: str) -> dict[str, object]:
        """What the timer shows in turn `turn`, whose owner is `to_move`, with `attack` the
        ATK side as that turn began: turns left (the current one counted), whether the Final
        Drive runs and whether the half is over on time."""
        if turn < self.cap:
            return {
                "cap": self.cap,
                "turns_left": self.cap - turn + 1,
                "final_drive": False,
                "over": False,
            }
        if turn == self.cap:
            return {"cap": self.cap, "turns_left": 1, "final_drive": True, "over": False}
        # turns alternate in the simulator (no sanctions): the turn before was the other side's
        finished = "N" if to_move == "S" else "S"
        extra = FinalDrive(finished).after_turn(finished, attack)
        over = turn > self.cap + 1 or extra != to_move
        return {
            "cap": self.cap,
            "turns_left": 0 if over else 1,
            "final_drive": not over,
            "over": over,
        }
