"""BALL (spec 14): the half timer never stops, the action-phase limit, the release-phase
protocol and the Final Drive."""

import pytest

from ball.clocks import ClockRejected


def start(table):
    # A makes the first turn of the half, so A is DEF and B is ATK (spec 3).
    return table("ball-standard", ["Ana", "Boris"]).at(0).do("start", first="Ana")


def test_roles_at_the_start(table):
    state = start(table).look()
    assert state["attack"] == "Boris" and state["mover"] == 0
    assert state["half_timer"]["left"] == 1200 and state["half_timer"]["ticking"]


@pytest.mark.parametrize(("action", "overrun"), [(59, False), (60, False), (61, True)])
def test_action_phase_limit_is_counted_for_the_sanction_ladder(table, action, overrun):
    tb = start(table).wait(action).do("press")
    ana = tb.look()["players"][0]
    assert ana["overruns"] == int(overrun) and ana["penalty_points"] == 0
    assert len(tb.notices("turn_overrun")) == int(overrun)


def test_release_phase_time_is_not_action_time(table):
    tb = start(table).wait(50).do("release").wait(45)
    turn = tb.look()["turn"]
    assert turn["limit_left"] == pytest.approx(10) and not turn["limit_ticking"]
    tb.do("press")
    assert tb.notices("turn_overrun") == []


def test_release_protocol_mover_then_opponent_then_referee(table):
    tb = start(table).wait(20).do("release").wait(10)
    rel = tb.look()["turn"]["release"]
    assert rel == {"window": "mover", "left": pytest.approx(20), "holder": "Ana"}
    with pytest.raises(ClockRejected, match="Ana's turn"):
        tb.do("press", by="Boris")  # the opponent's window has not begun
    tb.wait(25)
    rel = tb.look()["turn"]["release"]
    assert rel == {"window": "opponent", "left": pytest.approx(25), "holder": "Boris"}
    tb.wait(30)
    rel = tb.look()["turn"]["release"]
    assert rel["window"] == "referee" and rel["holder"] is None
    windows = tb.notices("release_window")
    assert [(n["data"]["window"], n["at"] - tb.t0) for n in windows] == [
        ("opponent", pytest.approx(50)),
        ("referee", pytest.approx(80)),
    ]
    tb.do("press", by="Boris")  # the referee ended the phase; either side may press
    assert tb.look()["mover"] == 1


def test_half_timer_never_stops_but_turn_time_does(table):
    tb = start(table).wait(30).do("pause").wait(300)
    state = tb.look()
    assert state["half_timer"]["left"] == pytest.approx(1200 - 330)
    assert state["turn"]["elapsed"] == pytest.approx(30)
    assert state["turn"]["limit_left"] == pytest.approx(30) and not state["turn"]["limit_ticking"]
    tb.do("resume").wait(20).do("press")
    assert tb.notices("turn_overrun") == []


def alternate(tb, turns: int, each: float = 50) -> None:
    for _ in range(turns):
        tb.wait(each).do("press")


def test_final_drive_expiry_during_def_turn_gives_atk_one_more_turn(table):
    tb = start(table)
    alternate(tb, 22)  # 22 turns of 50 s: Ana (DEF) moves from 1100 s
    assert tb.look()["mover"] == 0
    tb.wait(130)
    (drive,) = tb.notices("final_drive")
    assert drive["at"] == pytest.approx(tb.t0 + 1200, abs=1e-6) and drive["player"] == 0
    state = tb.look()
    assert state["half_timer"]["expired"] and state["status"] == "running"
    tb.do("press")  # Ana finishes the turn running at expiry
    state = tb.look()
    assert state["mover"] == 1 and state["half_timer"]["final_drive"]["extra_turn_of"] == "Boris"
    tb.wait(20).do("press")  # Boris's one more turn
    state = tb.look()
    assert state["status"] == "interval" and state["mover"] is None
    assert [n["data"]["reason"] for n in tb.notices("period_end")] == ["final drive"]


def test_final_drive_expiry_during_atk_turn_ends_the_half_with_it(table):
    tb = start(table)
    alternate(tb, 23)  # Boris (ATK) moves from 1150 s, when the half timer expires
    assert tb.look()["mover"] == 1
    tb.wait(55).do("press")
    assert tb.look()["status"] == "interval"


def test_final_drive_after_a_steal_follows_the_new_attacker(table):
    tb = start(table)
    alternate(tb, 22)
    tb.wait(130).do("press", attack="Ana")  # Ana stole and continued: she is ATK now
    assert tb.look()["status"] == "interval"


def test_second_half_swaps_the_first_mover_and_ends_the_match(table):
    tb = start(table).wait(100).do("end_period", reason="touchdown")
    with pytest.raises(ClockRejected, match="half is over"):
        tb.do("press")
    tb.wait(600).do("next_period")
    state = tb.look()
    assert state["period"] == 2 and state["mover"] == 1 and state["attack"] == "Ana"
    assert state["half_timer"]["left"] == 1200
    tb.wait(30).do("end_period", reason="touchdown")
    assert tb.look()["status"] == "over"
    with pytest.raises(ClockRejected, match="over"):
        tb.do("next_period")


def test_an_organiser_may_let_the_half_timer_stop_on_pause():
    from ball.clocks import Clock, ClockEvent, get_control

    data = get_control("ball-standard").to_json()
    data["name"] = "ball-stopping"
    data["half_timer"]["stops_on_pause"] = True
    import json

    from ball.clocks import parse_control

    clock = Clock(parse_control(json.dumps(data)))
    for kind, at in [("start", 0), ("pause", 100), ("resume", 400)]:
        clock.apply(ClockEvent(kind, at))
    clock.advance(1300)
    half = clock.snapshot()["half_timer"]
    assert half["left"] == pytest.approx(200) and not half["expired"]
    clock.advance(1501)
    assert clock.snapshot()["half_timer"]["expired"]
    (drive,) = [e for e in clock.timeline if e["kind"] == "final_drive"]
    assert drive["at"] == pytest.approx(1500)


def test_ball_clock_comes_from_the_rulesets_time_table(tmp_path):
    """One source for match time: an organiser's ruleset changes the table clock too."""
    from ball.clocks.controls import get_control
    from ball.games.ball.clocks.control import ball_control

    standard = get_control("ball-standard")
    assert standard.half_timer.time == 20 * 60 and standard.turn_limit.time == 60
    custom = tmp_path / "long.toml"
    custom.write_text(
        'extends = "standard"\nname = "long"\n[time]\nhalf_minutes = 25\nturn_seconds = 45\n'
        "release_extension_seconds = 20\n"
    )
    control = ball_control(str(custom))
    assert control.name == "ball-long"
    assert control.half_timer.time == 25 * 60 and control.turn_limit.time == 45
    assert [w.time for w in control.release.windows] == [20, 30]


def test_a_coach_who_stays_on_overruns_again_every_further_limit(table):
    """As the match gives a sanction for each (D-21: a fresh window after each overrun)."""
    tb = start(table).wait(121).do("press")
    assert [n["at"] - tb.t0 for n in tb.notices("turn_overrun")] == [60, 120]
    assert tb.look()["players"][0]["overruns"] == 1  # one turn went past the limit
