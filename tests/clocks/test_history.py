"""The log is the truth: replaying it gives the same state and the same computed history."""

import pytest

from ball.clocks import ClockEvent, ClockRejected, get_control, replay


def test_replay_is_deterministic_and_audit_history_is_ordered(table):
    tb = table("mahjong-wmc").at(0).do("start").wait(40).do("press").wait(70).do("press")
    tb.wait(5).do("pause").wait(30).do("resume").wait(3)
    first = tb.look()
    again = replay(get_control("mahjong-wmc"), list(tb.clock.events), tb.t)
    assert again.snapshot() == first
    times = [e["at"] for e in again.timeline]
    assert times == sorted(times)
    kinds = [e["kind"] for e in again.timeline if e["source"] == "event"]
    assert kinds == ["start", "press", "press", "pause", "resume"]


def test_state_between_events_is_computed_at_any_instant(table):
    tb = table("xiangqi-6.5").at(0).do("start")
    events = list(tb.clock.events)
    control = get_control("xiangqi-6.5")
    assert replay(control, events, tb.t0 + 100).snapshot()["players"][0]["main_left"] == 1700
    late = replay(control, events, tb.t0 + 5000).snapshot()
    assert late["status"] == "over" and late["players"][0]["flagged"]


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "flag", "at": 1},
        {"kind": "penalty", "at": 1, "data": {"points": 5}},
        {"kind": "press"},
        {"kind": "press", "at": "soon"},
        {"kind": "press", "at": 1, "data": []},
    ],
)
def test_flags_and_penalties_cannot_be_typed_in(raw):
    with pytest.raises(ClockRejected):
        ClockEvent.from_json(raw)


def test_events_cannot_go_back_in_time(table):
    tb = table("xiangqi-6.5").at(10).do("start")
    with pytest.raises(ClockRejected, match="before the previous event"):
        tb.at(5).do("press")


def test_wrong_number_of_players():
    with pytest.raises(ClockRejected, match="needs 4 names"):
        replay(get_control("mahjong-wmc"), [], players=["a", "b"])


def test_unknown_data_fields_are_refused(table):
    tb = table("xiangqi-6.5").at(0)
    with pytest.raises(ClockRejected, match="points is not a field of start"):
        tb.do("start", points=5)
    tb.do("start")
    with pytest.raises(ClockRejected, match="too long"):
        tb.do("pause", reason="x" * 3000)
    assert [e.kind for e in tb.clock.events] == ["start"]


def test_a_refused_event_leaves_the_clock_as_it_was(table):
    tb = table("mahjong-wmc").at(0).do("start").wait(10)
    before = tb.look()
    with pytest.raises(ClockRejected, match="first"):
        tb.do("next_period", first="nobody")
    with pytest.raises(ClockRejected, match="ATK"):
        tb.do("next_period", attack="east")
    assert tb.look() == before and [e.kind for e in tb.clock.events] == ["start"]


def test_adjust_refuses_absurd_amounts(table):
    tb = table("xiangqi-6.5").at(0).do("start")
    for seconds in (float("inf"), float("nan"), 10**7):
        with pytest.raises(ClockRejected, match="seconds"):
            tb.do("adjust", player="red", seconds=seconds)
