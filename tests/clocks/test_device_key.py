"""Table clocks bound to an event take presses only from the table device the desk gave the
clock's key to, or from the desk itself (issue 30, item 1); anyone may still read the face,
and a free clock (made with a PIN, no event) is pressed by anyone as before."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.web.app import create_app

from .test_event_pin import FakeTime, open_event


@pytest.fixture
def app(tmp_path):
    application = create_app(str(tmp_path / "event.db"))
    application.state.clock_time = FakeTime()
    return application


def bound_clock(arbiter, csrf: str, event_id: int, table: str = "Table 2") -> dict:
    body = {"table": table, "control": "ball-standard", "event_id": event_id, "round": "R1"}
    made = arbiter.post("/clock/api/clocks", json=body, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text
    return made.json()


def desk_list(client, event_id: int) -> list[dict]:
    return client.get("/clock/api/clocks", params={"round": "R1", "event": event_id}).json()


def test_a_stranger_cannot_press_a_clock_bound_to_an_event(app):
    arbiter, stranger = TestClient(app), TestClient(app)
    event_id, csrf = open_event(arbiter)
    clock = bound_clock(arbiter, csrf, event_id)
    events = f"/clock/api/clocks/{clock['id']}/events"
    for kind in ("start", "next_period", "press"):
        refused = stranger.post(events, json={"kind": kind, "data": {}})
        assert refused.status_code == 403, refused.text
        assert refused.json()["detail"].startswith("key:")
    forged = stranger.post(events, json={"kind": "start"}, headers={"X-Table-Key": "x" * 32})
    assert forged.status_code == 403
    # Nothing was written, and the face stays readable to anyone.
    face = stranger.get(f"/clock/api/clocks/{clock['id']}")
    assert face.status_code == 200 and face.json()["state"]["status"] == "ready"
    assert stranger.get(f"/clock/api/clocks/{clock['id']}/history").json() == []


def test_the_device_with_the_desks_key_presses_it(app):
    arbiter, device = TestClient(app), TestClient(app)
    event_id, csrf = open_event(arbiter)
    clock = bound_clock(arbiter, csrf, event_id)
    # The desk's session reads each clock's key; a stranger's list carries none.
    listed = desk_list(arbiter, event_id)
    key = listed[0]["device_key"]
    assert len(key) >= 32
    assert all("device_key" not in c for c in desk_list(device, event_id))
    assert "device_key" not in device.get(f"/clock/api/clocks/{clock['id']}").json()
    events = f"/clock/api/clocks/{clock['id']}/events"
    headers = {"X-Table-Key": key}
    started = device.post(events, json={"kind": "start"}, headers=headers)
    assert started.status_code == 200, started.text
    mover = started.json()["state"]["mover"]
    by = started.json()["state"]["players"][mover]["name"]
    pressed = device.post(events, json={"kind": "press", "data": {"by": by}}, headers=headers)
    assert pressed.status_code == 200, pressed.text
    # The key is for one clock: another table's clock refuses it.
    other = bound_clock(arbiter, csrf, event_id, table="Table 3")
    crossed = device.post(
        f"/clock/api/clocks/{other['id']}/events", json={"kind": "start"}, headers=headers
    )
    assert crossed.status_code == 403
    # The key does not make the device the arbiter: pausing still needs the desk or a PIN.
    assert device.post(events, json={"kind": "pause"}, headers=headers).status_code == 403


def test_the_desk_session_presses_without_the_key(app):
    arbiter = TestClient(app)
    event_id, csrf = open_event(arbiter)
    clock = bound_clock(arbiter, csrf, event_id)
    events = f"/clock/api/clocks/{clock['id']}/events"
    assert arbiter.post(events, json={"kind": "start"}).status_code == 403  # no CSRF token
    started = arbiter.post(events, json={"kind": "start"}, headers={"X-CSRF-Token": csrf})
    assert started.status_code == 200, started.text


def test_a_free_clock_with_a_pin_is_pressed_by_anyone_as_before(app):
    visitor = TestClient(app)
    made = visitor.post(
        "/clock/api/clocks", json={"table": "T9", "control": "ball-standard", "pin": "1357"}
    )
    assert made.status_code == 201, made.text
    events = f"/clock/api/clocks/{made.json()['id']}/events"
    assert visitor.post(events, json={"kind": "start"}).status_code == 200
    assert visitor.post(events, json={"kind": "pause", "pin": "1357"}).status_code == 200


def test_a_stranger_cannot_end_a_first_half_for_the_desk(app):
    """The issue's attack: a stranger's start + next_period must not become table 2's
    first-half end when the arbiter takes the half ends from the clocks."""
    from ball.clocks.store import ClockStore

    arbiter, stranger = TestClient(app), TestClient(app)
    event_id, csrf = open_event(arbiter)
    clock = bound_clock(arbiter, csrf, event_id)
    events = f"/clock/api/clocks/{clock['id']}/events"
    stranger.post(events, json={"kind": "start"})
    stranger.post(events, json={"kind": "next_period"})
    store = ClockStore(app.state.sessions, app.state.clock_time)
    assert store.period_ends("R1", event_id, 1) == {}


def test_the_desk_creating_a_clock_gets_its_key_and_a_stale_key_does_not_lock_it_out(app):
    arbiter = TestClient(app)
    event_id, csrf = open_event(arbiter)
    clock = bound_clock(arbiter, csrf, event_id)
    assert clock["device_key"] == desk_list(arbiter, event_id)[0]["device_key"]
    # The desk's browser with an old key of another clock in its storage: its session counts.
    events = f"/clock/api/clocks/{clock['id']}/events"
    stale = {"X-CSRF-Token": csrf, "X-Table-Key": "s" * 32}
    assert arbiter.post(events, json={"kind": "start"}, headers=stale).status_code == 200
