"""`Clock.apply` validates before it moves the clock: a refused event (unknown kind, unknown
field, wrong player, not allowed now) leaves the clock exactly as it was, so a later event at
an earlier instant than the refused one is still accepted, and nothing it would have
computed (flags, overruns, notices) is left behind."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.clocks import Clock, ClockEvent, ClockRejected, builtin_controls

T0 = 1_000.0


def started(name: str = "xiangqi-6.1") -> Clock:
    clock = Clock(builtin_controls()[name])
    clock.apply(ClockEvent("start", T0))
    return clock


def state(clock: Clock) -> tuple:
    return clock.t, clock.status, clock.snapshot(), list(clock.timeline), list(clock.events)


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("jump", {}),  # no such kind
        ("press", {"colour": "red"}),  # no such field
        ("press", {"by": "nobody"}),  # no such player
        ("resume", {}),  # not now: the clock is running
        ("adjust", {"player": 0, "seconds": "lots"}),  # not a number
    ],
)
def test_a_refused_event_changes_nothing(kind, data):
    clock = started()
    before = state(clock)
    with pytest.raises(ClockRejected):
        clock.apply(ClockEvent(kind, T0 + 100_000, data))  # far enough for a flag to fall
    assert state(clock) == before
    clock.apply(ClockEvent("press", T0 + 30))  # an earlier instant is still in the future
    assert clock.t == T0 + 30


KINDS = ["press", "press", "release", "pause", "resume", "next_period", "end_period", "jump"]
DATA = [{}, {"by": 0}, {"by": "nobody"}, {"first": 1}, {"attack": 0}, {"reason": 5}, {"x": 1}]


@pytest.mark.parametrize("name", sorted(builtin_controls()))
@settings(max_examples=30, deadline=None)
@given(
    script=st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=900, allow_nan=False),
            st.sampled_from(KINDS),
            st.sampled_from(DATA),
        ),
        max_size=20,
    )
)
def test_refused_events_leave_no_trace(name, script):
    """A clock that was offered refused events ends where a clock never offered them does."""
    offered, clean = started(name), started(name)
    t = T0
    for gap, kind, data in script:
        t += gap
        event = ClockEvent(kind, t, dict(data))
        try:
            offered.apply(event)
        except ClockRejected:
            continue
        clean.apply(event)
    assert state(offered) == state(clean)
