"""WMC limits: 15 s per turn, 3 min per player per hand, 5 points per started 15 s over,
both counted, and the 80-point alert."""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ball.clocks import ClockRejected


def hand(table):
    """A hand already running, East past the free first turn; South to move."""
    tb = table("mahjong-wmc").at(0).do("start", first="east")
    return tb.wait(2).do("press", by="east")


@pytest.mark.parametrize(
    ("turn", "points"),
    [(10, 0), (15, 0), (15.5, 5), (20, 5), (30, 5), (30.5, 10), (60, 15), (61, 20)],
)
def test_turn_overrun_costs_5_points_per_started_15_s(table, turn, points):
    tb = hand(table)
    tb.wait(turn).do("press", by="south")
    south = tb.look()["players"][1]
    assert south["penalty_points"] == points
    assert south["overruns"] == (1 if points else 0)
    assert sum(n["data"]["points"] for n in tb.notices("turn_overrun")) == points


def test_hand_budget_of_3_minutes(table):
    tb = hand(table)
    # South plays 13 turns of 14 s (no turn overrun): 182 s in the hand, 2 s over 3 min.
    for _ in range(13):
        tb.wait(14).do("press", by="south")
        for seat in ("west", "north", "east"):
            tb.wait(1).do("press", by=seat)
    south = tb.look()["players"][1]
    assert south["period_left"] == pytest.approx(-2)
    assert south["penalty_points"] == 5
    (over,) = tb.notices("period_overrun")
    assert over["player"] == 1 and tb.notices("turn_overrun") == []


def test_both_limits_count_on_the_same_turn(table):
    tb = hand(table)
    for _ in range(17):  # 170 s of South's budget in 10 s turns
        tb.wait(10).do("press", by="south")
        for seat in ("west", "north", "east"):
            tb.wait(1).do("press", by=seat)
    tb.wait(40).do("press", by="south")
    # turn: 25 s over -> 2 blocks; hand: 30 s over (210 s used) -> 2 blocks
    south = tb.look()["players"][1]
    assert south["penalty_points"] == 20
    assert tb.blocks("turn_overrun") == 2 and tb.blocks("period_overrun") == 2


def test_the_first_15_s_after_the_deal_are_free_for_the_hand_budget(table):
    tb = table("mahjong-wmc").at(0).do("start", first="east").wait(12)
    east = tb.look()["players"][0]
    assert east["period_left"] == 180 and east["period_free_left"] == pytest.approx(3)
    tb.wait(8).do("press")  # 20 s: 5 s over the turn limit, 5 s charged to the hand
    east = tb.look()["players"][0]
    assert east["period_left"] == pytest.approx(175) and east["penalty_points"] == 5


def test_80_points_in_one_hand_raise_the_alert_once(table):
    tb = hand(table)
    tb.wait(215.5)
    state = tb.look()
    south = state["players"][1]
    # turn limit blocks at 15, 30, ... 210 (14) + hand blocks at 180, 195, 210 (3) = 17
    assert south["penalty_points"] == 85 and south["threshold_reached"]
    (alert,) = tb.notices("threshold")
    # 75 points after the blocks starting at 195 s; at 210 s a turn block and a hand block
    # start together: the alert is at that instant, with both charged
    assert alert["at"] == pytest.approx(tb.t0 + 2 + 210, abs=1e-6)
    assert alert["data"] == {"points": 85, "limit": 80}
    points_before = sum(
        n["data"]["points"]
        for n in tb.clock.timeline
        if n["kind"].endswith("overrun") and n["at"] < alert["at"]
    )
    assert points_before == 75
    assert state["status"] == "running"  # the arbiter decides; the clock only alerts


def test_a_new_hand_resets_hand_budgets_and_hand_points(table):
    tb = hand(table)
    tb.wait(40).do("press", by="south")
    tb.wait(1).do("next_period")
    state = tb.look()
    south = state["players"][1]
    assert state["period"] == 2 and state["mover"] == 1  # the first seat moves on
    assert south["penalty_points"] == 0 and south["total_penalty_points"] == 10
    assert south["period_left"] == 180


def test_calls_change_the_turn_order(table):
    tb = hand(table)
    tb.wait(3).do("press", by="south", next="east")  # East calls South's discard
    assert tb.look()["mover"] == 0
    with pytest.raises(ClockRejected, match="themself"):
        tb.do("press", next="east")


def test_mahjong_has_no_main_time_to_adjust(table):
    tb = hand(table)
    with pytest.raises(ClockRejected, match="no main time"):
        tb.do("adjust", player="east", seconds=10)


def test_a_clock_left_running_for_a_day_is_charged_in_full(table):
    tb = hand(table)
    tb.wait(86_400.5)
    south = tb.look()["players"][1]
    turn_blocks = -(-(86_400.5 - 15) // 15)  # started 15 s blocks past the turn limit
    hand_blocks = -(-(86_400.5 - 180) // 15)
    assert south["penalty_points"] == 5 * (turn_blocks + hand_blocks)
    assert len(tb.clock.timeline) < 30  # charged in bulk, not one notice per block
    (alert,) = tb.notices("threshold")
    assert alert["at"] == pytest.approx(tb.t0 + 2 + 210, abs=1e-6)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    turns=st.lists(st.floats(min_value=0.5, max_value=400, allow_nan=False), max_size=8),
    last=st.floats(min_value=0, max_value=3000, allow_nan=False),
)
@example(turns=[61.0, 1.0, 1.0, 1.0], last=151.0)  # alert on the other series' edge
@example(turns=[1.3681394564977722], last=3000.0)  # an edge a rounding error before `to`
def test_bulk_charging_equals_block_by_block(monkeypatch_bulk, turns, last):
    from ball.clocks import Clock, ClockEvent, get_control

    results = []
    for bulk_after in (0, 10**9):
        monkeypatch_bulk(bulk_after)
        clock, t = Clock(get_control("mahjong-wmc")), 0.0
        clock.apply(ClockEvent("start", t))
        for used in turns:
            t += used
            clock.apply(ClockEvent("press", t))
        clock.advance(t + last)
        players = clock.snapshot()["players"]
        alerts = [(n["at"], n["player"]) for n in clock.timeline if n["kind"] == "threshold"]
        results.append(([(p["penalty_points"], p["overruns"]) for p in players], alerts))
    assert results[0][0] == results[1][0]
    assert [(pytest.approx(a, abs=1e-6), p) for a, p in results[0][1]] == results[1][1]
