"""Arbiter events on the real app: the event's desk session (PIN + CSRF) or the clock's own
PIN, with wrong PINs throttled and cross-site requests refused."""

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.web.app import create_app

PIN = "2468"


class FakeTime:
    t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def app(tmp_path):
    application = create_app(str(tmp_path / "event.db"))
    application.state.clock_time = FakeTime()
    return application


def open_event(client) -> tuple[int, str]:
    """Create a tournament event (which opens its desk session) and read its CSRF token."""
    response = client.post(
        "/desk/events",
        data={"name": "Open", "system": "round-robin", "pin": PIN, "pin2": PIN},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    event_id = int(response.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/desk/{event_id}").text
    return event_id, re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_the_event_desk_session_is_the_arbiter(app):
    arbiter, visitor = TestClient(app), TestClient(app)
    event_id, csrf = open_event(arbiter)
    body = {"table": "T1", "control": "ball-standard", "event_id": event_id, "round": "1"}
    assert visitor.post("/clock/api/clocks", json=body).status_code == 401
    assert arbiter.post("/clock/api/clocks", json=body).status_code == 403  # no CSRF token
    made = arbiter.post("/clock/api/clocks", json=body, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201 and made.json()["event_id"] == event_id
    events = f"/clock/api/clocks/{made.json()['id']}/events"

    # The table starts with the device key the desk hands it (issue 30).
    listed = arbiter.get("/clock/api/clocks", params={"round": "1", "event": event_id}).json()
    device = {"X-Table-Key": listed[0]["device_key"]}
    assert visitor.post(events, json={"kind": "start"}, headers=device).status_code == 200
    refused = visitor.post(events, json={"kind": "pause"})
    assert refused.status_code == 403 and "arbiter" in refused.json()["detail"]
    assert visitor.post(events, json={"kind": "pause", "pin": PIN}).status_code == 403
    wrong = arbiter.post(events, json={"kind": "pause"}, headers={"X-CSRF-Token": "x"})
    assert wrong.status_code == 403 and "CSRF" in wrong.json()["detail"]
    done = arbiter.post(events, json={"kind": "pause"}, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 200 and done.json()["state"]["status"] == "paused"

    page = f"/clock/{made.json()['id']}"
    assert f'data-csrf="{csrf}"' in arbiter.get(page).text
    assert 'data-csrf=""' in visitor.get(page).text


def test_wrong_clock_pins_are_throttled(app):
    client = TestClient(app)
    clock = client.post(
        "/clock/api/clocks", json={"table": "T", "control": "xiangqi-6.5", "pin": PIN}
    ).json()
    events = f"/clock/api/clocks/{clock['id']}/events"
    client.post(events, json={"kind": "start"})
    for _ in range(5):
        assert client.post(events, json={"kind": "pause", "pin": "0000"}).status_code == 403
    locked = client.post(events, json={"kind": "pause", "pin": PIN})
    assert locked.status_code == 429 and "try again" in locked.json()["detail"]
    app.state.clock_time.t += 61
    assert client.post(events, json={"kind": "pause", "pin": PIN}).status_code == 200


def test_cross_site_requests_are_refused(app):
    client = TestClient(app)
    clock = client.post(
        "/clock/api/clocks", json={"table": "T", "control": "xiangqi-6.5", "pin": PIN}
    ).json()
    events = f"/clock/api/clocks/{clock['id']}/events"
    evil = {"Origin": "http://elsewhere.example"}
    assert client.post(events, json={"kind": "start"}, headers=evil).status_code == 403
    body = {"table": "X", "control": "xiangqi-6.5", "pin": PIN}
    assert client.post("/clock/api/clocks", json=body, headers=evil).status_code == 403
    assert client.get(f"/clock/api/clocks/{clock['id']}").json()["state"]["status"] == "ready"


def test_a_clock_needs_a_pin_or_an_event(app):
    client = TestClient(app)
    response = client.post("/clock/api/clocks", json={"table": "T", "control": "xiangqi-6.5"})
    assert response.status_code == 422 and "pin" in response.json()["detail"]


def test_round_lists_can_be_limited_to_one_event(app):
    arbiter = TestClient(app)
    event_id, csrf = open_event(arbiter)
    headers = {"X-CSRF-Token": csrf}
    body = {"table": "A", "control": "ball-standard", "round": "1", "event_id": event_id}
    arbiter.post("/clock/api/clocks", json=body, headers=headers)
    other = {"table": "B", "control": "ball-standard", "round": "1", "pin": PIN}
    arbiter.post("/clock/api/clocks", json=other)
    both = arbiter.get("/clock/api/clocks", params={"round": "1"}).json()
    mine = arbiter.get("/clock/api/clocks", params={"round": "1", "event": event_id}).json()
    assert [c["table"] for c in both] == ["A", "B"] and [c["table"] for c in mine] == ["A"]
    desk = arbiter.get("/clock/desk", params={"round": "1", "event": event_id}).text
    assert f'data-event="{event_id}"' in desk
