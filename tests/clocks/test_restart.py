"""A running clock survives `kill -9` of the server: no event is lost and the time that passed
while the server was down is charged, as on a clock that never stopped."""

import os
import signal
import time

import httpx
import pytest

pytestmark = pytest.mark.slow


def test_sigkill_and_restart_loses_no_time_and_no_event(tmp_path, web_server):
    db = tmp_path / "venue.db"
    server, url = web_server(db)
    try:
        base = f"{url}/clock/api/clocks"
        clock = httpx.post(
            base, json={"table": "T1", "control": "xiangqi-6.5", "pin": "2468"}
        ).json()
        events = f"{base}/{clock['id']}/events"
        assert httpx.post(events, json={"kind": "start"}).status_code == 200
        time.sleep(0.5)
        assert httpx.post(events, json={"kind": "press", "data": {"by": "red"}}).status_code == 200
        time.sleep(0.5)
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    time.sleep(3)  # the server is down; black's time is running

    server, url = web_server(db)
    try:
        base = f"{url}/clock/api/clocks/{clock['id']}"
        asked_from = time.time()
        state = httpx.get(base).json()["state"]
        asked_to = time.time()
        history = httpx.get(f"{base}/history").json()
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()

    logged = [e for e in history if e["source"] == "event"]
    assert [e["kind"] for e in logged] == ["start", "press"]
    start_at, press_at = logged[0]["at"], logged[1]["at"]
    red, black = state["players"]
    assert state["status"] == "running" and state["mover"] == 1
    assert red["main_left"] == pytest.approx(1800 - (press_at - start_at), abs=1e-6)
    # A clock that never stopped shows, while the request is answered, a time in this range;
    # the server was down for over 3 s of it.
    never_stopped = (1800 - (asked_to - press_at), 1800 - (asked_from - press_at))
    assert never_stopped[0] - 1.0 < black["main_left"] < never_stopped[1] + 1.0
    assert 1800 - black["main_left"] > 3
