"""One BALL timing: a timed match and the table clock, fed the same happenings, read the same
half timer, Final Drive, action-phase limit, release window and overruns at every instant.

The match plays random legal actions with random thinking times (overruns, release
timeouts and Final Drives included); whatever people would enter on the table clock (the
start signal, each end of turn with the ATK role after it, the release phase, the end of a
half by touchdown, a forfeit) is entered there at the same instant, and both are read after
every step."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ball.clocks import Clock, ClockEvent
from ball.games.ball.clocks.control import ball_control
from ball.games.ball.match.flow import Match
from ball.games.ball.match.timing import ManualClock

sys.path.insert(0, str(Path(__file__).parents[1] / "match"))
from match_play import random_action  # noqa: E402

# The table clock counts a limit crossed only once time is strictly past it, the match at the
# limit's instant; so what the match does at a limit (a lost turn, the referee's release) is
# entered on the clock a moment later (EPS after the clock's own limit, which lags the match's
# when its turn began that way too), and readings are never taken that close to a limit.
EPS = 1e-4
TURN = 0.01  # tolerance of readings that count from the start of a turn
OVERRUN = "turn limit exceeded"


class Table:
    """The table clock beside a match: enters what changed in the match, reads both."""

    def __init__(self, match: Match, now: ManualClock) -> None:
        self.m, self.now = match, now
        self.clock = Clock(ball_control("standard"), ["A", "B"])
        self.turn = (0, 0)  # (half, turn) the clock was last told about
        self.lag = 0.0  # how much later the clock's turn began than the match's
        # A steal decision inside a release phase: the table clock has no event for it and
        # keeps the release windows running, the match starts them again after the decision
        # (docs/clocks.md); the release readings of that turn are not compared.
        self.steal_in_release: tuple[int, int] | None = None
        self.extra_turns: set[bool] = set()  # Final Drives seen with/without one more turn

    def enter(self, kind: str, at: float, **data) -> None:
        # two of the match's limits within EPS: the second is entered with the first
        at = max(at, self.clock.t if self.clock.t is not None else at)
        self.clock.apply(ClockEvent(kind, at, data))

    def begin_half(self) -> None:
        m, at = self.m, self.now.now()
        first, attack = m.half.coach_of(m.game.to_move), m.half.coach_of(m.game.attack)
        self.enter("start" if m.half.number == 1 else "next_period", at, first=first, attack=attack)
        self.turn = (m.half.number, m.game.turn)

    def sync(self, at: float) -> None:
        """Enter on the clock, at `at`, what the match did since the last call, which the
        match did at its own clock's now."""
        m, half = self.m, self.m.half
        if m.game.turn != self.turn[1]:
            self.lag = at - self.now.now()
        if m.forfeited is not None:
            self.enter("finish", at, reason="forfeit")
            return
        for turn in range(self.turn[1] + 1, m.game.turn + 1):  # the ATK role after each end
            self.enter("press", at, attack=half.coach_of(half.attack_at_turn[turn]))
        self.turn = (half.number, m.game.turn)
        if half.end == "touchdown":
            self.enter("end_period", at, reason="touchdown")
            return
        running = self.clock.turn
        if m.game.phase == "steal" and running is not None and running.phase == "release":
            self.steal_in_release = self.turn
        in_release = m.release_stage is not None
        if not m.half_over and in_release and running is not None and running.phase == "action":
            self.enter("release", at)

    def compare(self) -> None:
        m, at = self.m, self.now.now()
        self.clock.advance(at)
        state = self.clock.snapshot()
        overruns = [s.coach for s in m.sanctions if s.reason == OVERRUN]
        counted = {p["name"]: 0 for p in state["players"]}
        for notice in self.clock.timeline:
            if notice["source"] == "clock" and notice["kind"] == "turn_overrun":
                counted[state["players"][notice["player"]]["name"]] += notice["data"]["blocks"]
        assert counted == {c: overruns.count(c) for c in ("A", "B")}, at
        if m.half_over:
            assert state["status"] in ("interval", "over") and state["mover"] is None
            return
        assert state["status"] == "running"
        assert state["players"][state["mover"]]["name"] == m.half.coach_of(m.turn_owner)
        reading, timer, turn = m.time_reading(), state["half_timer"], state["turn"]
        if reading["final_drive"] is not None:
            self.extra_turns.add(reading["final_drive"]["extra_turn_of"] is not None)
        assert timer["left"] == pytest.approx(reading["half_left"], abs=1e-6)
        assert timer["expired"] == reading["expired"]
        assert timer.get("final_drive", {}).get("turn_at_expiry") == (
            (reading["final_drive"] or {}).get("turn_at_expiry")
        )
        assert timer.get("final_drive", {}).get("extra_turn_of") == (
            (reading["final_drive"] or {}).get("extra_turn_of")
        )
        assert turn["limit_ticking"] == (reading["limit_left"] is not None)
        if reading["limit_left"] is not None:
            assert turn["limit_left"] == pytest.approx(reading["limit_left"], abs=TURN)
        if self.steal_in_release == (m.half.number, m.game.turn):
            pass
        elif reading["release"] is not None:
            assert turn["phase"] == "release"
            assert turn["release"]["window"] == reading["release"]["window"]
            left = reading["release"]["left"]
            assert turn["release"]["left"] == pytest.approx(left, abs=TURN)
        elif turn["phase"] == "release":
            assert turn["release"]["window"] == "referee"


def clear_of(m: Match, target: float) -> float:
    """`target`, or just past the match's next limit when that falls a hair after it."""
    due = m.next_time_event()
    if due is not None and target < due <= target + TURN:
        return due + TURN
    return target


def play_beside_the_clock(seed: int) -> Table:
    rng = random.Random(seed)
    now = ManualClock(1000.0)
    m = Match(clock=now)
    table = Table(m, now)
    table.begin_half()
    while not m.is_over:
        if m.half_over:
            now.advance(600 * rng.random())  # the break before the second signal
            m.next_half()
            table.begin_half()
            table.compare()
            continue
        target = clear_of(m, now.now() + rng.choice([3, 10, 25, 45, 70]) * rng.random())
        while (due := m.next_time_event()) is not None and due <= target:
            now.advance(max(0.0, due - now.now()))
            m.tick()  # the match's own time events, at their instant
            table.sync(due + table.lag + EPS)
            now.advance(table.lag + EPS)
            target = clear_of(m, max(target, now.now()))
            table.compare()
            if m.half_over:
                break
        if m.half_over or m.is_over:
            continue
        now.advance(target - now.now())
        table.compare()
        by = "opponent" if m.release_stage == "opponent" else None
        m.play(random_action(m.game, rng), by=by)
        table.sync(now.now())
        table.compare()
    return table


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
@example(0)
@example(164)  # two turns end in one instant in a Final Drive (D-34): two presses, two ATK roles
def test_match_and_table_clock_read_the_same_time(seed):
    table = play_beside_the_clock(seed)
    kinds = {e["kind"] for e in table.clock.timeline}
    assert "start" in kinds and "press" in kinds


def test_the_matches_compared_go_through_every_time_rule():
    """The property sees each rule at work: Final Drives with and without the ATK coach's
    one more turn, overruns, both release windows run out."""
    seen: set[tuple] = set()
    for seed in (2, 6):
        table = play_beside_the_clock(seed)
        for e in table.clock.timeline:
            if e["source"] == "clock":
                seen.add((e["kind"], e["data"].get("window") or e["data"].get("reason")))
        seen |= {("extra turn", given) for given in table.extra_turns}
    assert {
        ("period_end", "final drive"),
        ("release_window", "opponent"),
        ("release_window", "referee"),
        ("turn_overrun", None),
        ("extra turn", True),
        ("extra turn", False),
    } <= seen
