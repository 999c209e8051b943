"""The clock state machine: a pure fold of an event log over a time control.

Only what people do is logged (start, press, release, pause, resume, next_period,
end_period, finish, adjust), each with the wall-clock time it happened. Everything else —
time used, stage changes, flags, overruns, penalty points, the Final Drive — is computed by
replaying the log up to a given instant, so the same log always gives the same state and the
whole history can be audited. A computed happening (a *notice*) carries the exact instant it
occurred, even if nobody looked at the clock then.

A limit is crossed only when time goes strictly past it: a press at exactly 15.0 s of a 15 s
limit is in time.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, field
from typing import Any

from ball.clocks.controls import Overrun, TimeControl
from ball.match.half_timer import FinalDrive, half_timer_expiry, release_window_end, turn_limit_edge

# Kinds of logged events; ARBITER_KINDS need the arbiter's PIN in the web API.
EVENT_KINDS = (
    "start",
    "press",
    "release",
    "pause",
    "resume",
    "next_period",
    "end_period",
    "finish",
    "adjust",
)
ARBITER_KINDS = frozenset({"pause", "resume", "adjust", "end_period", "finish"})
# The fields each kind may carry in `data`; anything else is refused, never stored.
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "start": frozenset({"first", "attack"}),
    "press": frozenset({"by", "next", "attack"}),
    "release": frozenset({"by"}),
    "pause": frozenset({"reason"}),
    "resume": frozenset({"reason"}),
    "next_period": frozenset({"first", "attack"}),
    "end_period": frozenset({"reason"}),
    "finish": frozenset({"reason", "winner", "score"}),
    "adjust": frozenset({"player", "seconds", "reason"}),
}
# Not part of a saved state: the control never changes, events and timeline only grow.
_NOT_SAVED = frozenset({"control", "events", "timeline"})
_MAX_DATA = 2000  # characters of JSON: a clock event is small
_BULK_AFTER = 100  # penalty blocks beyond this in one step are charged in one notice
_SAME_INSTANT = 1e-6  # seconds: computed edges closer than this happen together


class ClockRejected(ValueError):
    """An event that the clock cannot accept in its current state (nothing is recorded)."""


@dataclass(frozen=True)
class ClockEvent:
    kind: str
    at: float
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "at": self.at, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ClockEvent:
        if not isinstance(raw, dict):
            raise ClockRejected("an event must be an object with kind and at")
        kind, at, data = raw.get("kind"), raw.get("at"), raw.get("data", {})
        if kind not in EVENT_KINDS:
            raise ClockRejected(f"kind: {kind!r} is not one of {', '.join(EVENT_KINDS)}")
        if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
            raise ClockRejected("at: must be a number of seconds")
        if not isinstance(data, dict):
            raise ClockRejected("data: must be an object")
        return cls(kind, float(at), data)


@dataclass(frozen=True)
class Notice:
    """Something the clock computed: flag, stage, turn_overrun, period_overrun, threshold,
    release_window, final_drive, period_end."""

    kind: str
    at: float
    player: int | None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Player:
    name: str
    main: float | None  # main time left at the start of the current turn (or now, if idle)
    stage: int = 0  # index of the stage rule in force
    stage_number: int = 1  # 1 for the first time period, counting repeats
    stage_due: int | None = None  # move count that completes the current stage
    moves: int = 0
    flagged_at: float | None = None
    period_used: float = 0.0  # budget charged in this period by finished turns
    period_blocks: int = 0
    period_points: int = 0
    total_points: int = 0
    overruns: int = 0  # turns that went past the turn limit
    threshold_at: float | None = None


@dataclass
class _Turn:
    player: int
    started_at: float
    free: float = 0.0  # seconds of this turn not charged to the period budget
    phase: str = "action"
    run: float = 0.0  # running time of the turn, arbiter pauses excluded
    action: float = 0.0
    release: float = 0.0
    release_window: int = 0
    blocks: int = 0  # turn-limit blocks charged so far


def restore_records(
    clock: Clock, players: list[dict[str, Any]], turn: dict[str, Any] | None
) -> None:
    """Put a clock's saved player and turn records back (`ball.clocks.fold`, which saves
    them with `dataclasses.asdict`); a record that does not fit raises TypeError."""
    clock.players = [_Player(**p) for p in players]
    clock.turn = None if turn is None else _Turn(**turn)


def _periods(span: float, per: float) -> float:
    """`span / per`, snapped to a whole number when float rounding put the edge a hair away."""
    q = span / per
    r = round(q)
    return float(r) if abs(span - r * per) < _SAME_INSTANT else q


@dataclass(frozen=True)
class _Series:
    """Edges `first + i * per` (wall time) of one penalty-block series of the running turn."""

    kind: str  # the notice it produces: turn_overrun or period_overrun
    rule: Overrun
    first: float

    def edge(self, i: int) -> float:
        return self.first + i * (self.rule.per or 0.0)

    def count(self, limit: float, inclusive: bool) -> int:
        """Edges before `limit` (or at it, when inclusive)."""
        if self.first > limit or (self.first == limit and not inclusive):
            return 0
        if self.rule.per is None:
            return 1
        q = _periods(limit - self.first, self.rule.per)
        # The first edge is before the limit (checked above) even when rounding says 0.
        return math.floor(q) + 1 if inclusive else max(1, math.ceil(q))

    def first_edge_reaching(self, need: int, series: list[_Series], most: int) -> float:
        """The earliest of this series' first `most` edges at which all series together have
        charged at least `need` points (infinity when none of them does)."""

        def charged(at: float) -> int:
            at += _SAME_INSTANT  # edges a rounding error apart count as one instant
            return sum(s.count(at, inclusive=True) * s.rule.penalty_points for s in series)

        lo, hi = 0, most - 1
        if charged(self.edge(hi)) < need:
            return math.inf  # the other series reaches it first
        while lo < hi:
            mid = (lo + hi) // 2
            if charged(self.edge(mid)) >= need:
                hi = mid
            else:
                lo = mid + 1
        return self.edge(lo)


class Clock:
    """Replays events in order; `advance(t)` lets time run to `t`, computing notices."""

    def __init__(self, control: TimeControl, players: list[str] | None = None) -> None:
        names = players or list(control.players)
        if len(names) != len(control.players):
            raise ClockRejected(
                f"players: {control.name} needs {len(control.players)} names, got {len(names)}"
            )
        self.control = control
        self.players = [_Player(name, None) for name in names]
        self.status = "ready"  # ready, running, paused, interval, over
        self.t: float | None = None
        self.turn: _Turn | None = None
        self.period = 0
        self.period_started_at: float | None = None
        self.period_paused = 0.0  # seconds paused in this period (for a half timer that stops)
        self.paused_at: float | None = None
        self.first_of_period: list[int] = []
        self.attack: int | None = None
        # int | None: a control without the ATK role (attack None) ends the half after the turn.
        self.final_drive: FinalDrive[int | None] | None = None
        self.half_expired = False
        self.result: dict[str, Any] | None = None
        self.events: list[ClockEvent] = []
        self.timeline: list[dict[str, Any]] = []
        self._reset_main()

    # ----- set-up -----------------------------------------------------------------------

    def _reset_main(self) -> None:
        if not self.control.has_main:
            return
        first = self.control.stages[0]
        for p in self.players:
            p.main, p.stage, p.stage_due = first.time, 0, first.moves

    def _player(self, value: Any, what: str) -> int:
        names = [p.name for p in self.players]
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return value
        if isinstance(value, str) and value in names:
            return names.index(value)
        if isinstance(value, str) and value in self.control.players:
            return self.control.players.index(value)
        raise ClockRejected(f"{what}: {value!r} is not a player of this clock ({', '.join(names)})")

    # ----- time running -----------------------------------------------------------------

    def _charged_main(self, turn: _Turn) -> float:
        delay = self.control.delay
        if delay is not None and delay.kind == "simple":
            return max(0.0, turn.run - delay.time)
        return turn.run

    def main_left(self, index: int) -> float | None:
        p = self.players[index]
        if p.main is None:
            return None
        if self.turn is not None and self.turn.player == index:
            return p.main - self._charged_main(self.turn)
        return p.main

    def period_used(self, index: int) -> float:
        p = self.players[index]
        if self.turn is not None and self.turn.player == index:
            return p.period_used + max(0.0, self.turn.run - self.turn.free)
        return p.period_used

    def _limit_clock(self) -> float | None:
        """Running time that the turn limit measures, or None when it is not measuring."""
        limit, turn = self.control.turn_limit, self.turn
        if limit is None or turn is None:
            return None
        if limit.phase == "action":
            return turn.action if turn.phase == "action" else None
        return turn.run

    @staticmethod
    def _next_block(rule: Overrun, blocks: int) -> float | None:
        return turn_limit_edge(rule.time, blocks, every=rule.per)

    def _release_times(self) -> list[float]:
        release = self.control.release
        return [w.time for w in release.windows] if release is not None else []

    def _candidates(self) -> list[tuple[float, str]]:
        """Instants (wall time) of the next things that will happen if nothing is done."""
        found: list[tuple[float, str]] = []
        assert self.t is not None
        turn = self.turn
        if self.status == "running" and turn is not None:
            p = self.players[turn.player]
            left = self.main_left(turn.player)
            if left is not None and p.flagged_at is None:
                delay = self.control.delay
                grace = delay.time if delay and delay.kind == "simple" else 0.0
                found.append((self.t + max(0.0, grace - turn.run) + max(0.0, left), "flag"))
            release = self.control.release
            in_release = release is not None and turn.phase == "release"
            end = release_window_end(self._release_times(), turn.release_window)
            if in_release and end is not None:
                found.append((self.t + end - turn.release, "release_window"))
        timer = self.control.half_timer
        if (
            timer is not None
            and not self.half_expired
            and self.status in ("running", "paused")
            and self.period_started_at is not None
        ):
            paused = self.period_paused
            if timer.stops_on_pause and self.paused_at is not None:
                paused += self.t - self.paused_at
                if self.status == "paused":
                    return found  # a stopped half timer cannot expire during the pause
            found.append(
                (half_timer_expiry(self.period_started_at, timer.time, paused), "half_timer")
            )
        return found

    def _block_series(self) -> list[_Series]:
        """The penalty-block edges ahead of the running turn (turn limit, period budget)."""
        turn = self.turn
        if self.status != "running" or turn is None:
            return []
        found = []
        now = self._now()
        measured = self._limit_clock()
        limit = self.control.turn_limit
        if measured is not None and limit is not None:
            edge = self._next_block(limit, turn.blocks)
            if edge is not None:
                found.append(_Series("turn_overrun", limit, now + edge - measured))
        budget = self.control.period_budget
        if budget is not None:
            edge = self._next_block(budget, self.players[turn.player].period_blocks)
            if edge is not None:
                used = self.period_used(turn.player)
                wait = max(0.0, turn.free - turn.run) + edge - used
                found.append(_Series("period_overrun", budget, now + wait))
        return found

    def _fire_blocks(self, series: list[_Series], to: float, until: float | None) -> None:
        """Charge every block edge before `to` (and not after `until`) in one step, so a clock
        left running for days costs one step, not one per 15 s. The threshold alert still
        gets the exact edge at which the points reached it."""
        counts: dict[str, int] = {}
        for s in series:
            n = s.count(to, inclusive=False)
            counts[s.kind] = n if until is None else min(n, s.count(until, inclusive=True))
        if sum(counts.values()) <= _BULK_AFTER:
            # Few edges: one notice per edge instant keeps the audit trail fine-grained.
            # Edges a rounding error apart are one instant, fired together in a fixed order.
            soonest = min(s.first for s in series) + _SAME_INSTANT
            counts = {s.kind: min(counts[s.kind], s.count(soonest, True)) for s in series}
        turn = self._turn()
        index = turn.player
        p, threshold = self.players[index], self.control.threshold
        alert_at = None
        if threshold is not None and p.threshold_at is None:
            need = threshold.points - p.period_points
            total = sum(counts[s.kind] * s.rule.penalty_points for s in series)
            if total >= need:
                alert_at = min(
                    s.first_edge_reaching(need, series, counts[s.kind])
                    for s in series
                    if s.rule.penalty_points > 0 and counts[s.kind] > 0
                )
                for s in series:
                    same = s.count(alert_at + _SAME_INSTANT, inclusive=True)
                    counts[s.kind] = min(counts[s.kind], same)
        fired = sorted(
            ((s.edge(counts[s.kind] - 1), s) for s in series if counts[s.kind] > 0),
            key=lambda pair: (round(pair[0], 6), pair[1].kind),
        )
        for last, s in fired:
            n, points = counts[s.kind], counts[s.kind] * s.rule.penalty_points
            if s.kind == "turn_overrun":
                if turn.blocks == 0:
                    p.overruns += 1
                turn.blocks += n
                block = turn.blocks
            else:
                p.period_blocks += n
                block = p.period_blocks
            p.period_points += points
            p.total_points += points
            data = {"block": block, "blocks": n, "points": points}
            self.timeline.append(
                {"at": last, "source": "clock", "kind": s.kind, "player": index, "data": data}
            )
        self._progress(max(self._now(), fired[-1][0]))
        if alert_at is not None and threshold is not None:
            p.threshold_at = self.t
            self._notice("threshold", index, points=p.period_points, limit=threshold.points)

    def _progress(self, to: float) -> None:
        assert self.t is not None
        dt = to - self.t
        if dt > 0 and self.status == "running" and self.turn is not None:
            self.turn.run += dt
            if self.turn.phase == "action":
                self.turn.action += dt
            else:
                self.turn.release += dt
        self.t = to

    def advance(self, to: float) -> None:
        """Let time run to `to`, firing every computed happening strictly before it."""
        if self.t is None or self.status in ("ready", "interval", "over"):
            self.t = to if self.t is None else max(self.t, to)
            return
        while self.status in ("running", "paused"):
            due = [c for c in self._candidates() if c[0] < to]
            blocks = [s for s in self._block_series() if s.first < to - _SAME_INSTANT]
            nearest = min(due) if due else None
            if blocks and (nearest is None or min(s.first for s in blocks) <= nearest[0]):
                self._fire_blocks(blocks, to, None if nearest is None else nearest[0])
                continue
            if nearest is None:
                break
            at, what = nearest
            self._progress(max(at, self.t))
            getattr(self, f"_fire_{what}")()
        if self.t < to:
            self._progress(to)

    def _notice(self, kind: str, player: int | None, **data: Any) -> None:
        assert self.t is not None
        self.timeline.append(
            {"at": self.t, "source": "clock", "kind": kind, "player": player, "data": data}
        )

    def _fire_flag(self) -> None:
        index = self._turn().player
        self.players[index].flagged_at = self.t
        self._notice("flag", index)
        if self.control.on_flag == "loss":
            self.result = {"reason": "flag", "loser": self.players[index].name}
            self._close("over")

    def _fire_release_window(self) -> None:
        turn, release = self._turn(), self.control.release
        assert release is not None, "a release window fires only under a release phase"
        windows = release.windows
        turn.release_window += 1
        after = windows[turn.release_window].who if turn.release_window < len(windows) else None
        self._notice("release_window", turn.player, window=after or "referee")

    def _fire_half_timer(self) -> None:
        self.half_expired = True
        timer = self.control.half_timer
        assert timer is not None, "the half timer fires only when the control has one"
        if timer.final_drive and self.turn is not None:
            self.final_drive = FinalDrive(self.turn.player, expired_at=self._now())
            self._notice("final_drive", self.turn.player, attack=self._name(self.attack))
        else:
            self._notice("half_timer", None)

    def _name(self, index: int | None) -> str | None:
        return None if index is None else self.players[index].name

    # The clock's invariants, narrowed for the type checker: a handler that needs a running
    # turn or a known instant runs only after `_need` (or `advance`) made them so.
    def _now(self) -> float:
        assert self.t is not None, "the clock has no instant before its first event"
        return self.t

    def _turn(self) -> _Turn:
        assert self.turn is not None, "no turn is in progress"
        return self.turn

    # ----- events -----------------------------------------------------------------------

    def apply(self, event: ClockEvent) -> None:
        """Let time run to the event, then apply it; raises ClockRejected and then the
        clock is exactly as before (its time, notices and players), so a refused event
        leaves no trace and a later event may still come at an earlier instant.

        The event's own fields are checked first; whether it is allowed *now* depends on
        the state at its instant (a flag may fall on the way), so the clock is advanced and
        the handler run on a saved state that is put back when the handler refuses."""
        if self.t is not None and event.at < self.t:
            raise ClockRejected(f"at: {event.at} is before the previous event ({self.t})")
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is None or event.kind not in EVENT_FIELDS:
            raise ClockRejected(f"kind: {event.kind!r} is not a clock event")
        _check_data(event)
        saved = self._save()
        try:
            self.advance(event.at)
            handler(event.data)
        except ClockRejected:
            self._restore(saved)
            raise
        self.events.append(event)
        self.timeline.append(
            {
                "at": event.at,
                "source": "event",
                "kind": event.kind,
                "player": None,
                "data": dict(event.data),
            }
        )

    def _save(self) -> tuple[dict[str, Any], int]:
        """Everything `advance` and a handler may change: the state (its records copied)
        and the length of the append-only timeline. Saved on every event, so no deepcopy:
        the records (`_Player`, `_Turn`, `_FinalDrive`) hold only scalars, one copy each
        is enough (a deepcopy made replaying a log seven times slower)."""
        state = {k: _copied(v) for k, v in vars(self).items() if k not in _NOT_SAVED}
        return state, len(self.timeline)

    def _restore(self, saved: tuple[dict[str, Any], int]) -> None:
        state, notices = saved
        vars(self).update(state)
        del self.timeline[notices:]

    def _need(self, *statuses: str) -> None:
        if self.status not in statuses:
            words = {
                "ready": "the clock has not started",
                "running": "the clock is running",
                "paused": "the clock is paused by the arbiter",
                "interval": f"the {self.control.period} is over",
                "over": "the game is over",
            }
            raise ClockRejected(f"not now: {words[self.status]}")

    def _begin_turn(self, index: int) -> None:
        free = 0.0
        budget = self.control.period_budget
        if budget and self.period_started_at == self.t:
            free = budget.free_at_period_start
        self.turn = _Turn(player=index, started_at=self._now(), free=free)

    def _roles(self, data: dict[str, Any]) -> tuple[int, int | None]:
        """First mover (and BALL attacker) of the next period, checked before any change."""
        n = len(self.players)
        if "first" in data:
            first = self._player(data["first"], "first")
        elif self.first_of_period:
            first = (self.first_of_period[0] + self.period) % n
        elif self.control.half_timer and n == 2:
            # A BALL clock lists its coaches in pairing order, A then B, and coach A attacks
            # first (desk: "Coach A (ATK first)"); the DEF coach, B, makes the first turn
            # (spec 3). D-U1.
            first = 1
        else:
            first = 0
        attack = None
        if self.control.half_timer and n == 2:
            # The coach who is DEF makes the first turn of a half (spec 3).
            attack = self._player(data["attack"], "attack") if "attack" in data else 1 - first
        elif "attack" in data:
            raise ClockRejected(f"attack: {self.control.name} has no ATK role")
        return first, attack

    def _begin_period(self, first: int, attack: int | None) -> None:
        self.period += 1
        self.first_of_period.append(first)
        self.period_started_at, self.period_paused, self.paused_at = self.t, 0.0, None
        self.half_expired, self.final_drive, self.attack = False, None, attack
        for p in self.players:
            p.period_used, p.period_blocks, p.period_points, p.threshold_at = 0.0, 0, 0, None
        self.status = "running"
        self._begin_turn(first)

    def _close(self, status: str) -> None:
        """End the turn in progress without a move (period end, flag, finish)."""
        if self.turn is not None:
            index, turn = self.turn.player, self.turn
            p = self.players[index]
            if p.main is not None:
                p.main = max(0.0, p.main - self._charged_main(turn))
            p.period_used += max(0.0, turn.run - turn.free)
        if self.paused_at is not None:
            self.period_paused += self._now() - self.paused_at
            self.paused_at = None
        self.turn = None
        last = self.control.periods and self.period >= self.control.periods
        self.status = "over" if status == "over" or last else status

    def _on_start(self, data: dict[str, Any]) -> None:
        self._need("ready")
        self._begin_period(*self._roles(data))

    def _on_next_period(self, data: dict[str, Any]) -> None:
        self._need("running", "paused", "interval")
        if self.control.periods and self.period >= self.control.periods:
            raise ClockRejected(f"not now: all {self.control.periods} periods have been played")
        roles = self._roles(data)
        if self.status != "interval":
            self._notice("period_end", None, period=self.period, reason="next period")
            self._close("interval")
        self._begin_period(*roles)

    def _on_end_period(self, data: dict[str, Any]) -> None:
        self._need("running", "paused")
        self._notice("period_end", None, period=self.period, reason=str(data.get("reason", "")))
        self._close("interval")

    def _on_finish(self, data: dict[str, Any]) -> None:
        self._need("ready", "running", "paused", "interval")
        self._close("over")
        self.result = {"reason": "finish", **{k: v for k, v in data.items() if k != "reason"}}
        if "reason" in data:
            self.result["note"] = str(data["reason"])

    def _on_pause(self, _data: dict[str, Any]) -> None:
        self._need("running")
        self.status, self.paused_at = "paused", self.t

    def _on_resume(self, _data: dict[str, Any]) -> None:
        self._need("paused")
        assert self.paused_at is not None, "a paused clock knows when it paused"
        self.period_paused += self._now() - self.paused_at
        self.status, self.paused_at = "running", None

    def _on_release(self, _data: dict[str, Any]) -> None:
        self._need("running")
        if self.control.release is None:
            raise ClockRejected(f"not now: {self.control.name} has no release phase")
        turn = self._turn()
        if turn.phase != "action":
            raise ClockRejected("not now: the release phase has already begun")
        turn.phase = "release"

    def _on_adjust(self, data: dict[str, Any]) -> None:
        self._need("ready", "running", "paused", "interval")
        if not self.control.has_main:
            raise ClockRejected(f"not now: {self.control.name} has no main time to adjust")
        index = self._player(data.get("player"), "player")
        seconds = data.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ClockRejected("seconds: must be a number (negative to take time away)")
        if not math.isfinite(seconds) or abs(seconds) > 86400:
            raise ClockRejected("seconds: at most one day either way")
        player, left = self.players[index], self.main_left(index)
        assert player.main is not None and left is not None, "a control with main time"
        if left + seconds < 0:
            raise ClockRejected("seconds: would leave less than no time")
        player.main += float(seconds)

    def _on_press(self, data: dict[str, Any]) -> None:
        self._need("running")
        turn = self._turn()
        mover = turn.player
        if "by" in data and self._player(data["by"], "by") not in self._may_press(turn):
            raise ClockRejected(f"by: it is {self.players[mover].name}'s turn")
        n = len(self.players)
        nxt = self._player(data["next"], "next") if "next" in data else (mover + 1) % n
        if nxt == mover:
            raise ClockRejected("next: the mover cannot follow themself")
        if "attack" in data:
            if self.attack is None:
                raise ClockRejected(f"attack: {self.control.name} has no ATK role")
            self.attack = self._player(data["attack"], "attack")
        self._finish_move(mover)
        if self.final_drive is not None:
            after = self.final_drive.after_turn(mover, self.attack)  # D-20
            if after is None:
                self._notice("period_end", None, period=self.period, reason="final drive")
                self.turn = None
                last = self.control.periods and self.period >= self.control.periods
                self.status = "over" if last else "interval"
                return
            nxt = after
        self._begin_turn(nxt)

    def _may_press(self, turn: _Turn) -> set[int]:
        """The mover ends a turn; in the opponent's release window the opponent may too."""
        allowed = {turn.player}
        release = self.control.release
        if release is not None and turn.phase == "release":
            if turn.release_window < len(release.windows):
                if release.windows[turn.release_window].who == "opponent":
                    allowed.add(1 - turn.player)
            else:
                allowed.add(1 - turn.player)
        return allowed

    def _finish_move(self, index: int) -> None:
        turn, p, control = self._turn(), self.players[index], self.control
        if p.main is not None:
            p.main -= self._charged_main(turn)
            delay = control.delay
            if delay is not None and delay.kind == "bronstein":
                p.main += min(turn.run, delay.time)
            p.moves += 1
            if p.stage_due is not None and p.moves >= p.stage_due:
                following = p.stage + 1 if p.stage + 1 < len(control.stages) else p.stage
                stage = control.stages[following]
                p.stage, p.main = following, p.main + stage.time
                p.stage_number += 1
                p.stage_due = p.moves + stage.moves if stage.moves else None
                label = control.stage_label(following)
                self._notice("stage", index, stage=p.stage_number, label=label, added=stage.time)
            p.main += control.increment
        else:
            p.moves += 1
        p.period_used += max(0.0, turn.run - turn.free)
        self.turn = None

    # ----- views ------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The state at the current instant, as JSON for the API and the table page."""
        control, turn = self.control, self.turn
        ticking = self.status == "running" and turn is not None
        players = []
        for i, p in enumerate(self.players):
            mine = ticking and turn is not None and turn.player == i
            entry: dict[str, Any] = {
                "name": p.name,
                "moves": p.moves,
                "flagged": p.flagged_at is not None,
                "penalty_points": p.period_points,
                "total_penalty_points": p.total_points,
                "overruns": p.overruns,
                "threshold_reached": p.threshold_at is not None,
                "to_move": turn is not None and turn.player == i,
                "ticking": mine,
            }
            main_left = self.main_left(i)
            if p.main is not None and main_left is not None:
                entry["main_left"] = max(0.0, main_left)
                entry["stage"] = p.stage_number
                entry["stage_label"] = control.stage_label(p.stage)
                entry["moves_to_go"] = None if p.stage_due is None else p.stage_due - p.moves
                delay = control.delay
                if delay is not None and delay.kind == "simple" and turn and turn.player == i:
                    entry["delay_left"] = max(0.0, delay.time - turn.run)
            if control.period_budget is not None:
                left = control.period_budget.time - self.period_used(i)
                entry["period_left"] = left
                entry["period_free_left"] = (
                    max(0.0, turn.free - turn.run) if turn and turn.player == i else 0.0
                )
            players.append(entry)
        state: dict[str, Any] = {
            "control": control.name,
            "game": control.game,
            "status": self.status,
            "now": self.t,
            "period": self.period,
            "period_name": control.period,
            "periods": control.periods,
            "players": players,
            "mover": None if turn is None else turn.player,
            "result": self.result,
            "attack": self._name(self.attack),
        }
        if turn is not None:
            state["turn"] = self._turn_view(turn)
        if control.half_timer is not None:
            state["half_timer"] = self._half_view()
        state["notices"] = [e for e in self.timeline if e["source"] == "clock"][-20:]
        return state

    def _turn_view(self, turn: _Turn) -> dict[str, Any]:
        view: dict[str, Any] = {
            "player": turn.player,
            "started_at": turn.started_at,
            "elapsed": turn.run,
            "phase": turn.phase,
        }
        limit = self.control.turn_limit
        measured = self._limit_clock()
        if limit is not None:
            used = measured if measured is not None else turn.action
            view["limit_left"] = limit.time - used
            view["limit_ticking"] = measured is not None and self.status == "running"
        release = self.control.release
        if release is not None and turn.phase == "release":
            windows = release.windows
            idx = turn.release_window
            end = release_window_end(self._release_times(), idx)
            view["release"] = {
                "window": windows[idx].who if end is not None else "referee",
                "left": max(0.0, end - turn.release) if end is not None else 0.0,
                "holder": self._release_holder(turn, idx),
            }
        return view

    def _release_holder(self, turn: _Turn, idx: int) -> str | None:
        release = self.control.release
        assert release is not None, "only a control with a release phase has a holder"
        windows = release.windows
        if idx >= len(windows):
            return None
        who = turn.player if windows[idx].who == "mover" else 1 - turn.player
        return self.players[who].name

    def _half_view(self) -> dict[str, Any]:
        timer = self.control.half_timer
        assert timer is not None, "only a control with a half timer has its view"
        view: dict[str, Any] = {"length": timer.time, "expired": self.half_expired}
        if self.period_started_at is None or self.status in ("interval", "over"):
            view.update(left=0.0 if self.period else timer.time, ticking=False)
        else:
            paused = self.period_paused
            now = self._now()
            if timer.stops_on_pause and self.paused_at is not None:
                paused += now - self.paused_at
            left = self.period_started_at + timer.time + paused - now
            stopped = timer.stops_on_pause and self.status == "paused"
            view.update(left=max(0.0, left), ticking=not stopped and not self.half_expired)
        drive = self.final_drive
        if drive is not None:
            view["final_drive"] = {
                "expired_at": drive.expired_at,
                "turn_at_expiry": self._name(drive.turn_at_expiry),
                "extra_turn_of": self._name(drive.extra_turn_of),
            }
        return view


def _copied(value: Any) -> Any:
    """A copy of one attribute of a clock, deep enough to survive the clock's changes."""
    if isinstance(value, list):
        return [copy.copy(item) for item in value]
    if isinstance(value, dict):
        return copy.deepcopy(value)
    return copy.copy(value)  # a record of scalars, or an immutable value (itself)


def _check_data(event: ClockEvent) -> None:
    allowed = EVENT_FIELDS[event.kind]
    unknown = sorted(set(event.data) - allowed)
    if unknown:
        words = ", ".join(sorted(allowed)) or "none"
        raise ClockRejected(f"data: {', '.join(unknown)} is not a field of {event.kind} ({words})")
    try:
        size = len(json.dumps(event.data))
    except (TypeError, ValueError) as exc:
        raise ClockRejected(f"data: not plain JSON ({exc})") from exc
    if size > _MAX_DATA:
        raise ClockRejected(f"data: too long ({size} characters, at most {_MAX_DATA})")
    reason = event.data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise ClockRejected("reason: must be a text")


def replay(
    control: TimeControl,
    events: list[ClockEvent],
    now: float | None = None,
    players: list[str] | None = None,
) -> Clock:
    """The clock after `events`, with time run on to `now` (default: the last event)."""
    clock = Clock(control, players)
    for event in events:
        clock.apply(event)
    if now is not None:
        clock.advance(now)
    return clock
