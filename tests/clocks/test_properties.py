"""Looking at a clock never changes it: state after a script of events is the same whether
or not the clock was read (advanced) at any instants in between, for every shipped control."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.clocks import Clock, ClockEvent, ClockRejected, builtin_controls

KINDS = ["press", "press", "press", "release", "pause", "resume", "next_period"]
step = st.tuples(
    st.floats(min_value=0, max_value=400, allow_nan=False),
    st.sampled_from(KINDS),
    st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), max_size=3),
)


def close(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.parametrize("name", sorted(builtin_controls()))
@settings(max_examples=40, deadline=None)
@given(script=st.lists(step, max_size=25), tail=st.floats(min_value=0, max_value=900))
def test_reading_the_clock_changes_nothing(name, script, tail):
    control = builtin_controls()[name]
    looked, blind = Clock(control), Clock(control)
    t = 1_000.0
    for clock in (looked, blind):
        clock.apply(ClockEvent("start", t))
    for gap, kind, peeks in script:
        for fraction in sorted(peeks):
            looked.advance(t + gap * fraction)
            looked.snapshot()
        t += gap
        outcomes = []
        for clock in (looked, blind):
            # Both are read at the event's instant: a refused event leaves the clock where it
            # was, and one long unread span may charge its penalty blocks in bulk (one notice).
            clock.advance(t)
            try:
                clock.apply(ClockEvent(kind, t))
                outcomes.append("ok")
            except ClockRejected as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1]
    for clock in (looked, blind):
        clock.advance(t + tail)
    assert close(looked.snapshot(), blind.snapshot())
    assert close(looked.timeline, blind.timeline)
