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
import math
from dataclasses import dataclass
from typing import Any

from ball.clocks.controls import Overrun, TimeControl
from ball.clocks.events import EVENT_FIELDS, ClockEvent, ClockRejected, check_data
from ball.clocks.state import ClockState, Player, Turn
from ball.half_timer import (
    FinalDrive,
    half_timer_expiry,
    release_window_end,
    turn_limit_edge,
)

# Not part of a saved state: the control never changes, events and timeline only grow.
_NOT_SAVED = frozenset({"control", "events", "timeline"})
_BULK_AFTER = 100  # penalty blocks beyond this in one step are charged in one notice
_SAME_INSTANT = 1e-6  # seconds: computed edges closer than this happen together


def restore_records(
    clock: Clock, players: list[dict[str, Any]], turn: dict[str, Any] | None
) -> None:
    """Put a clock's saved player and turn records back (`ball.clocks.fold`, which saves
    them with `dataclasses.asdict`); a record that does not fit raises TypeError."""
    clock.players = [Player(**p) for p in players]
    clock.turn = None if turn is None else Turn(**turn)


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


class Clock(ClockState):
    """Replays events in order; `advance(t)` lets time run to `t`, computing notices."""

    # ----- time running -----------------------------------------------------------------

    @staticmethod
    def _next_block(rule: Overrun, blocks: int) -> float | None:
        return turn_limit_edge(rule.time, blocks, every=rule.per)

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
        check_data(event)
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
        the records (`Player`, `Turn`, `_FinalDrive`) hold only scalars, one copy each
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
        self.turn = Turn(player=index, started_at=self._now(), free=free)

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

    def _may_press(self, turn: Turn) -> set[int]:
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


def _copied(value: Any) -> Any:
    """A copy of one attribute of a clock, deep enough to survive the clock's changes."""
    if isinstance(value, list):
        return [copy.copy(item) for item in value]
    if isinstance(value, dict):
        return copy.deepcopy(value)
    return copy.copy(value)  # a record of scalars, or an immutable value (itself)


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
