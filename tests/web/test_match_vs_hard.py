"""A full match against the hard computer ends within the regulation's time (issue 36 item 5).

Through the API, as the page plays it: half 1 against `hard` (the computer North), the
second half that `next-half` makes (ends change), then the result. The player's side is a
cheap legal policy (a seeded random choice among the legal actions, so it neither scores at
once nor stands still). Each half must end, by a touchdown or on the half timer counted in
full-length turns (`half_turns`, with the Final Drive's one extra turn at most), and the
match must have its decided result. The hard computer takes at most 1.8 s a turn
(ball/games/ball/ai/mcts/levels.toml), so the match costs well under a minute of one core's time.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from ball.games.ball.match.timing import load_timing
from ball.half_timer import half_turns

pytestmark = pytest.mark.slow
CAP = half_turns(load_timing().half_seconds, load_timing().turn_seconds)


def play_half(client: TestClient, state: dict, rng: random.Random) -> dict:
    for _ in range(2000):  # the player's actions in a half: a bound far above the cap's
        if state["over"]:
            return state
        assert state["actor"] != state["computer_side"], "the computer did not answer"
        action = rng.choice(state["legal"])
        r = client.post(f"/api/games/{state['id']}/actions", json={"action": action})
        assert r.status_code == 200, r.text
        state = r.json()
    pytest.fail("the half never ended")


def test_a_full_match_against_hard_ends_within_the_regulations_time(client):
    rng = random.Random(36)
    r = client.post(
        "/api/games", json={"mode": "computer", "computer_side": "S", "computer_level": "hard"}
    )
    assert r.status_code == 201, r.text
    first = play_half(client, r.json(), rng)
    r = client.post(f"/api/games/{first['id']}/next-half")
    assert r.status_code == 201, r.text
    second = play_half(client, r.json(), rng)
    for half in (first, second):
        # no action was played after the Final Drive's extra turn
        assert max(e["turn"] for e in half["log"]) <= CAP + 1
        touchdown = half["position"]["phase"] == "over"
        assert touchdown or half["half_timer"]["over"]
    result = client.get(f"/api/games/{second['id']}/result")
    assert result.status_code == 200, result.text
    body = result.json()
    assert body["decision"]["reason"] in {
        "touchdowns",
        "attack-efficiency",
        "defensive-superiority",
        "draw",
    }
    assert [h["end"] for h in body["sheet"]["halves"]] == [
        "touchdown" if h["position"]["phase"] == "over" else "time" for h in (first, second)
    ]
