"""Simulator halves end on the half timer (issue 36 item 5; spec 14, D-20).

A match half (hot seat, against the computer) counts the half timer in full-length turns
(`ball.half_timer.half_turns`: 20 under the standard rules) with its Final
Drive; the server ends the half, refuses further actions and answers the half-time and the result.
Free play stays untimed.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ball.games.ball.engine import Game
from ball.games.ball.match.timing import load_timing
from ball.half_timer import TurnTimer, half_turns

CAP = half_turns(load_timing().half_seconds, load_timing().turn_seconds)


def test_the_standard_half_is_twenty_full_length_turns():
    assert CAP == 20  # 20 minutes of 60-second turns


@pytest.mark.parametrize(
    ("turn", "to_move", "attack", "left", "drive", "over"),
    [
        (1, "N", "S", 20, False, False),
        (19, "S", "S", 2, False, False),
        (20, "S", "S", 1, True, False),  # the turn running at expiry is finished
        (21, "N", "S", 0, False, True),  # the ATK coach played it: the half ends
        (21, "S", "S", 1, True, False),  # the ATK coach had not played: one more turn
        (22, "N", "N", 0, False, True),  # then the half ends whoever is ATK
    ],
)
def test_the_turn_timer_and_its_final_drive(turn, to_move, attack, left, drive, over):
    reading = TurnTimer(20).reading(turn, to_move, attack)
    assert (reading["turns_left"], reading["final_drive"], reading["over"]) == (left, drive, over)


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play_out(client: TestClient, state: dict, limit: int = 400) -> dict:
    """Play a hot-seat half with the cheapest legal policy (end the action phase when it
    may, else the first legal action) until the server says it is over."""
    for _ in range(limit):
        if state["over"]:
            return state
        legal = state["legal"]
        action = "end" if "end" in legal else legal[0]
        r = client.post(f"/api/games/{state['id']}/actions", json={"action": action})
        assert r.status_code == 200, r.text
        state = r.json()
    pytest.fail("the half never ended")


def at_turn(turn: int, half: int = 1) -> dict:
    doc = Game.new(half=half).to_json()
    doc["turn"] = turn
    return doc


def test_a_hot_seat_half_ends_on_the_timer_and_the_server_refuses_more(client):
    state = make(client, mode="play", position=at_turn(CAP - 2))
    assert state["half_timer"] == {"cap": CAP, "turns_left": 3, "final_drive": False, "over": False}
    state = play_out(client, state)
    timer = state["half_timer"]
    assert timer["over"] and not state["legal"]
    assert state["position"]["phase"] != "over"  # no touchdown: the timer ended it
    assert CAP < state["position"]["turn"] <= CAP + 2  # cap turns, and at most one more
    assert state["announce"]["kind"] == "time" and state["announce"]["half_time"]
    r = client.post(f"/api/games/{state['id']}/actions", json={"action": "end"})
    assert r.status_code == 409 and "half timer" in r.json()["detail"]


def test_the_final_drive_is_shown_while_it_runs(client):
    state = make(client, mode="play", position=at_turn(CAP))
    assert state["half_timer"]["final_drive"] and state["half_timer"]["turns_left"] == 1
    assert not state["over"]


def test_a_match_of_two_halves_on_time_gets_its_result(client):
    first = play_out(client, make(client, mode="play", position=at_turn(CAP)))
    r = client.post(f"/api/games/{first['id']}/next-half")
    assert r.status_code == 201, r.text
    second = r.json()
    assert second["first_half"] == first["id"] and second["half_timer"]["turns_left"] == CAP
    # half 2 from its start: both coaches end every action phase at once, 20 turns
    second = play_out(client, second)
    assert second["half_timer"]["over"] and second["position"]["turn"] <= CAP + 2
    result = client.get(f"/api/games/{second['id']}/result").json()
    assert [h["end"] for h in result["sheet"]["halves"]] == ["time", "time"]
    assert result["decision"]["winner"] is None or result["decision"]["reason"] != "touchdowns"


def test_free_play_is_untimed(client):
    state = make(client, mode="free", position=at_turn(CAP + 10))
    assert state["half_timer"] is None and state["legal"] and not state["over"]
