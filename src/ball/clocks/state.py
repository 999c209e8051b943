"""The clock's state and its readings: the player and turn records, the set-up of a new
clock, the time left and the views (`snapshot`, as JSON for the API and the table page).
`ball.clocks.clock` builds the running clock on it: time running and the events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ball.clocks.controls import TimeControl
from ball.clocks.events import ClockEvent, ClockRejected
from ball.half_timer import FinalDrive, release_window_end


@dataclass
class Player:
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
class Turn:
    player: int
    started_at: float
    free: float = 0.0  # seconds of this turn not charged to the period budget
    phase: str = "action"
    run: float = 0.0  # running time of the turn, arbiter pauses excluded
    action: float = 0.0
    release: float = 0.0
    release_window: int = 0
    blocks: int = 0  # turn-limit blocks charged so far


class ClockState:
    """The state a clock folds its events into, and what can be read from it; `Clock` lets
    time run and applies the events."""

    def __init__(self, control: TimeControl, players: list[str] | None = None) -> None:
        names = players or list(control.players)
        if len(names) != len(control.players):
            raise ClockRejected(
                f"players: {control.name} needs {len(control.players)} names, got {len(names)}"
            )
        self.control = control
        self.players = [Player(name, None) for name in names]
        self.status = "ready"  # ready, running, paused, interval, over
        self.t: float | None = None
        self.turn: Turn | None = None
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

    def _charged_main(self, turn: Turn) -> float:
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

    def _release_times(self) -> list[float]:
        release = self.control.release
        return [w.time for w in release.windows] if release is not None else []

    def _name(self, index: int | None) -> str | None:
        return None if index is None else self.players[index].name

    # The clock's invariants, narrowed for the type checker: a handler that needs a running
    # turn or a known instant runs only after `_need` (or `advance`) made them so.
    def _now(self) -> float:
        assert self.t is not None, "the clock has no instant before its first event"
        return self.t

    def _turn(self) -> Turn:
        assert self.turn is not None, "no turn is in progress"
        return self.turn

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

    def _turn_view(self, turn: Turn) -> dict[str, Any]:
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

    def _release_holder(self, turn: Turn, idx: int) -> str | None:
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

