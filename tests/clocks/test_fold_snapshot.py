"""A saved fold plus the tail of the log is the full fold (issue 15, target 5).

For random event logs under every shipped control — BALL (half timer, turn limit, release
windows, Final Drive D-20), the Xiangqi schemes (stages, Fischer, Bronstein and simple
delay), Mahjong (four players, period budget, penalty blocks) — the clock resumed from a
snapshot taken anywhere in the log, written to JSON and read back, then given the rest of
the log, shows exactly the state the full replay shows, and saves exactly the same fold.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.clocks import Clock, ClockEvent, ClockRejected, builtin_controls
from ball.clocks.fold import SnapshotUnusable, resume, save

KINDS = ["press", "press", "press", "press", "release", "pause", "resume", "next_period"]
KINDS += ["adjust", "end_period", "finish", "pause", "resume", "pause", "resume"]
step = st.tuples(
    st.floats(min_value=0, max_value=400, allow_nan=False),
    st.sampled_from(KINDS),
    st.integers(min_value=0, max_value=3),
)


def event(kind: str, at: float, pick: int) -> ClockEvent:
    data: dict = {}
    if kind == "adjust":
        data = {"player": pick % 2, "seconds": 30.0 * (pick - 1)}
    elif kind == "press" and pick == 3:
        data = {"by": 0}
    return ClockEvent(kind, at, data)


def accepted_log(control, script) -> list[ClockEvent]:
    """The events of the script the clock accepts (a refused one leaves no trace)."""
    clock = Clock(control)
    t = 1_000.0
    log = [ClockEvent("start", t)]
    clock.apply(log[0])
    for gap, kind, pick in script:
        t += gap
        e = event(kind, t, pick)
        try:
            clock.apply(e)
        except ClockRejected:
            continue
        log.append(e)
    return log


def full(control, log, now) -> Clock:
    clock = Clock(control)
    for e in log:
        clock.apply(e)
    clock.advance(now)
    return clock


@pytest.mark.parametrize("name", sorted(builtin_controls()))
@settings(max_examples=40, deadline=None)
@given(
    script=st.lists(step, max_size=60),
    cut=st.floats(min_value=0, max_value=1),
    later=st.floats(min_value=0, max_value=2_000),
)
def test_snapshot_plus_tail_is_the_full_fold(name, script, cut, later):
    control = builtin_controls()[name]
    log = accepted_log(control, script)
    now = log[-1].at + later
    k = round(cut * len(log))
    head = Clock(control)
    for e in log[:k]:
        head.apply(e)
    doc = json.loads(json.dumps(save(head)))  # what the store writes and reads back
    resumed = resume(control, list(control.players), doc)
    for e in log[k:]:
        resumed.apply(e)
    resumed.advance(now)
    whole = full(control, log, now)
    assert resumed.snapshot() == whole.snapshot()
    assert save(resumed) == save(whole)


@pytest.mark.parametrize("name", sorted(builtin_controls()))
@settings(max_examples=15, deadline=None)
@given(script=st.lists(step, max_size=40), extra=st.lists(step, min_size=1, max_size=10))
def test_a_resumed_clock_refuses_what_the_full_fold_refuses(name, script, extra):
    """The next event is accepted or refused alike, with the same message."""
    control = builtin_controls()[name]
    log = accepted_log(control, script)
    at_end = full(control, log, log[-1].at)
    resumed = resume(control, list(control.players), json.loads(json.dumps(save(at_end))))
    whole = full(control, log, log[-1].at)
    t = log[-1].at
    for gap, kind, pick in extra:
        t += gap
        e = event(kind, t, pick)
        outcomes = []
        for clock in (resumed, whole):
            try:
                clock.apply(e)
                outcomes.append("ok")
            except ClockRejected as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1]
    assert resumed.snapshot() == whole.snapshot()


def test_an_unknown_snapshot_is_refused_not_guessed():
    control = builtin_controls()["xiangqi-6.1"]
    clock = Clock(control)
    clock.apply(ClockEvent("start", 0.0))
    doc = save(clock)
    for broken in ({**doc, "format": 99}, {**doc, "players": []}, {"format": 1}, []):
        with pytest.raises(SnapshotUnusable):
            resume(control, list(control.players), broken)


# --- in the store: the snapshot row, and a log that stays the authority ---------------------


class FakeTime:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path):
    from ball.clocks.store import ClockStore
    from ball.storage import open_database

    _engine, sessions = open_database(tmp_path / "snap.db")
    return ClockStore(sessions, FakeTime()), sessions


def _snapshot_row(sessions, clock_id):
    from ball.clocks.models import ClockSnapshotRow

    with sessions() as session:
        row = session.get(ClockSnapshotRow, clock_id)
        return None if row is None else (row.seq, row.state)


def _replayed(store, clock_id):
    """The state from the whole log, ignoring the snapshot (the store's read path)."""
    return store.view(clock_id).clock.snapshot()


def test_presses_past_the_snapshot_interval_give_the_full_replays_state(store):
    from ball.clocks.store import SNAPSHOT_EVERY

    clocks, sessions = store
    v = clocks.create("T1", "mahjong-wmc", pin="2468", players=["Ai", "Bo", "Cy", "Di"])
    clocks.record(v.id, "start")
    for i in range(3 * SNAPSHOT_EVERY + 5):
        clocks.now.t += 3 + (i % 9) * 3  # some turns overrun the 15 s limit
        recorded = clocks.record(v.id, "press").clock.snapshot()
        assert recorded == _replayed(clocks, v.id)
    seq, _state = _snapshot_row(sessions, v.id)
    assert seq == 3 * SNAPSHOT_EVERY  # refreshed every SNAPSHOT_EVERY events, no more often
    assert len(clocks.events(v.id)) == 3 * SNAPSHOT_EVERY + 6


def test_an_unreadable_snapshot_means_a_full_replay_not_a_wrong_clock(store):
    from ball.clocks.models import ClockSnapshotRow
    from ball.clocks.store import SNAPSHOT_EVERY

    clocks, sessions = store
    v = clocks.create("T1", "xiangqi-6.1", pin="2468")
    clocks.record(v.id, "start")
    for _ in range(SNAPSHOT_EVERY + 2):
        clocks.now.t += 7
        clocks.record(v.id, "press")
    with sessions() as session, session.begin():
        session.get(ClockSnapshotRow, v.id).state = '{"format": 0}'
    clocks.now.t += 7
    recorded = clocks.record(v.id, "press").clock.snapshot()
    assert recorded == _replayed(clocks, v.id)
    assert recorded["players"][0]["moves"] + recorded["players"][1]["moves"] == SNAPSHOT_EVERY + 3


def test_a_refused_event_writes_neither_event_nor_snapshot(store):
    from ball.clocks.store import SNAPSHOT_EVERY

    clocks, sessions = store
    v = clocks.create("T1", "xiangqi-6.1", pin="2468")
    clocks.record(v.id, "start")
    for _ in range(SNAPSHOT_EVERY - 2):
        clocks.now.t += 5
        clocks.record(v.id, "press")
    before = (_snapshot_row(sessions, v.id), len(clocks.events(v.id)))
    with pytest.raises(ClockRejected):
        clocks.record(v.id, "start")  # already started
    assert (_snapshot_row(sessions, v.id), len(clocks.events(v.id))) == before
