"""Xiangqi schemes (competition rules art. 6) and the increment/delay options."""

import pytest

from ball.clocks import ClockRejected


def play(tb, moves: int, each: float) -> None:
    """Red and black alternate; each move takes `each` seconds."""
    for _ in range(moves):
        tb.wait(each).do("press")


@pytest.mark.parametrize(
    ("control", "moves", "each", "left_after", "to_go"),
    [
        # 40 moves in 90 min (2 min each = 80 min) -> 10 min left + 15 min for the next 10
        ("xiangqi-6.1", 40, 120, 600 + 900, 10),
        # 30 moves in 60 min (100 s each = 50 min) -> 10 min + 10 min
        ("xiangqi-6.2", 30, 100, 600 + 600, 10),
        # 40 moves in 10 min (12 s each = 8 min) -> 2 min + 5 min for the next 30
        ("xiangqi-6.3", 40, 12, 120 + 300, 30),
        # 30 moves every 5 min (8 s each = 4 min) -> 1 min + 5 min
        ("xiangqi-6.4", 30, 8, 60 + 300, 30),
    ],
)
def test_stage_change_at_the_move_count(table, control, moves, each, left_after, to_go):
    tb = table(control).at(0).do("start")
    play(tb, 2 * moves - 1, each)  # red has made `moves`, black `moves - 1`
    red, black = tb.look()["players"]
    assert red["moves"] == moves and red["stage"] == 2
    assert red["main_left"] == pytest.approx(left_after)
    assert red["moves_to_go"] == to_go
    assert black["stage"] == 1 and black["moves_to_go"] == 1
    stages = tb.notices("stage")
    assert [(n["player"], n["data"]["stage"]) for n in stages] == [(0, 2)]


def test_repeating_stage_adds_time_again(table):
    tb = table("xiangqi-6.1").at(0).do("start")
    play(tb, 2 * 50 - 1, 60)  # red: 50 moves in 50 min
    red = tb.look()["players"][0]
    # 90 - 40 (first 40 moves) + 15 - 10 (next 10) + 15
    assert red["main_left"] == pytest.approx((90 - 40 + 15 - 10 + 15) * 60)
    assert red["moves_to_go"] == 10 and red["stage"] == 3
    assert len([n for n in tb.notices("stage") if n["player"] == 0]) == 2


def test_flag_before_the_move_count_loses(table):
    tb = table("xiangqi-6.3").at(0).do("start")
    play(tb, 2 * 39, 7)  # 39 moves each in 4.55 min; red still owes one move
    tb.wait(10 * 60)
    state = tb.look()
    assert state["status"] == "over"
    assert state["result"] == {"reason": "flag", "loser": "red"}
    (flag,) = tb.notices("flag")
    assert flag["player"] == 0
    assert flag["at"] == pytest.approx(
        tb.t0 + 600 + 39 * 7, abs=1e-6
    )  # red's 10 min exactly used up
    with pytest.raises(ClockRejected, match="over"):
        tb.do("press")


def test_a_move_at_the_last_instant_is_in_time(table):
    tb = table("xiangqi-6.5").at(0).do("start")
    tb.wait(30 * 60).do("press")
    state = tb.look()
    assert state["status"] == "running" and state["players"][0]["main_left"] == 0
    assert tb.notices("flag") == []


def test_sudden_death_has_no_stage_change(table):
    tb = table("xiangqi-6.5").at(0).do("start")
    play(tb, 199, 5)
    assert tb.notices("stage") == []
    assert tb.look()["players"][0]["moves_to_go"] is None


def test_fischer_increment_after_each_move(table):
    tb = table("xiangqi-fischer").at(0).do("start").wait(30).do("press")
    red, black = tb.look()["players"]
    assert red["main_left"] == pytest.approx(900 - 30 + 10)
    tb.wait(4).do("press")
    assert tb.look()["players"][1]["main_left"] == pytest.approx(900 - 4 + 10)


def test_simple_delay_does_not_touch_the_main_time_at_first(table):
    tb = table("xiangqi-delay").at(0).do("start").wait(4)
    red = tb.look()["players"][0]
    assert red["main_left"] == 1200 and red["delay_left"] == pytest.approx(1)
    tb.wait(4).do("press")  # 8 s: 3 s charged
    assert tb.look()["players"][0]["main_left"] == pytest.approx(1197)
    tb.wait(3).do("press")  # black, 3 s: nothing charged
    assert tb.look()["players"][1]["main_left"] == 1200


def test_simple_delay_flag_comes_after_the_delay(table):
    tb = table("xiangqi-delay").at(0).do("start").wait(2000)
    (flag,) = tb.notices("flag")
    assert flag["at"] == pytest.approx(tb.t0 + 1200 + 5, abs=1e-6)


def test_bronstein_delay_gives_back_used_time_up_to_the_delay(table):
    tb = table("xiangqi-bronstein").at(0).do("start").wait(4)
    assert tb.look()["players"][0]["main_left"] == pytest.approx(1196)  # counts down at once
    tb.do("press")
    assert tb.look()["players"][0]["main_left"] == pytest.approx(1200)  # 4 s back
    tb.wait(9).do("press")
    assert tb.look()["players"][1]["main_left"] == pytest.approx(1200 - 9 + 5)


def test_arbiter_pause_stops_the_mover(table):
    tb = table("xiangqi-6.5").at(0).do("start").wait(60).do("pause").wait(600)
    assert tb.look()["players"][0]["main_left"] == pytest.approx(1740)
    with pytest.raises(ClockRejected, match="paused"):
        tb.do("press")
    tb.do("resume").wait(40).do("press")
    assert tb.look()["players"][0]["main_left"] == pytest.approx(1700)


def test_adjust_by_the_arbiter(table):
    tb = table("xiangqi-6.5").at(0).do("start").wait(10).do("adjust", player="black", seconds=-300)
    assert tb.look()["players"][1]["main_left"] == 1500
    with pytest.raises(ClockRejected, match="less than no time"):
        tb.do("adjust", player="black", seconds=-5000)
    with pytest.raises(ClockRejected, match="not a player"):
        tb.do("adjust", player="green", seconds=5)


def test_only_the_mover_may_press(table):
    tb = table("xiangqi-6.5").at(0).do("start").wait(3)
    with pytest.raises(ClockRejected, match="red's turn"):
        tb.do("press", by="black")
    tb.do("press", by="red")
    assert tb.look()["mover"] == 1


def test_a_control_may_let_play_go_on_after_a_flag():
    import json

    from ball.clocks import Clock, ClockEvent, get_control, parse_control

    data = {**get_control("xiangqi-6.5").to_json(), "name": "casual", "on_flag": "continue"}
    clock = Clock(parse_control(json.dumps(data)))
    clock.apply(ClockEvent("start", 0))
    clock.apply(ClockEvent("press", 1900))
    state = clock.snapshot()
    assert state["status"] == "running" and state["players"][0]["flagged"]
    assert state["players"][0]["main_left"] == 0 and state["mover"] == 1
