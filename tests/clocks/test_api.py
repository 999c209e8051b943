"""The clock router mounted on a bare FastAPI app, with a fake time source."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ball.storage import open_database
from ball.web.clocks.pages import router


class FakeTime:
    t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def api(tmp_path):
    app = FastAPI()
    _engine, app.state.sessions = open_database(tmp_path / "api.db")
    app.state.clock_time = FakeTime()
    app.include_router(router)
    client = TestClient(app)
    client.fake = app.state.clock_time
    return client


def new_clock(api, **extra):
    body = {"table": "Table 3", "control": "ball-standard", "pin": "2468", "round": "R1"}
    response = api.post("/clock/api/clocks", json={**body, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_create_start_press_and_read(api):
    clock = new_clock(api, players=["Ana", "Boris"])
    url = f"/clock/api/clocks/{clock['id']}"
    started = api.post(f"{url}/events", json={"kind": "start"})
    assert started.status_code == 200
    # pairing order: Ana is coach A and attacks first, so Boris (DEF) moves first (D-U1)
    assert started.json()["state"]["attack"] == "Ana" and started.json()["state"]["mover"] == 1
    api.fake.t += 61
    state = api.post(f"{url}/events", json={"kind": "press", "data": {"by": "Boris"}}).json()
    assert state["state"]["players"][1]["overruns"] == 1
    api.fake.t += 5
    state = api.get(url).json()["state"]
    assert state["mover"] == 0 and state["turn"]["limit_left"] == pytest.approx(55)
    assert state["half_timer"]["left"] == pytest.approx(1200 - 66)


def test_pause_needs_the_pin(api):
    clock = new_clock(api)
    url = f"/clock/api/clocks/{clock['id']}/events"
    api.post(url, json={"kind": "start"})
    refused = api.post(url, json={"kind": "pause", "pin": "0000"})
    assert refused.status_code == 403 and "PIN" in refused.json()["detail"]
    assert api.post(url, json={"kind": "pause", "pin": "2468"}).json()["state"]["status"] == (
        "paused"
    )


@pytest.mark.parametrize(
    ("body", "status", "word"),
    [
        ({"kind": "press"}, 409, "not started"),
        ({"kind": "flag"}, 422, "kind"),
        ({"kind": "start", "data": {"first": "Zed"}}, 422, "first"),
        ({"kind": "start", "extra": 1}, 422, "extra"),
    ],
)
def test_bad_events_are_4xx_with_a_message(api, body, status, word):
    clock = new_clock(api)
    response = api.post(f"/clock/api/clocks/{clock['id']}/events", json=body)
    assert response.status_code == status and word in str(response.json()["detail"])


def test_bad_creation_and_missing_clock(api):
    response = api.post("/clock/api/clocks", json={"table": "T", "control": "blitz", "pin": "2468"})
    assert response.status_code == 422 and "blitz" in response.json()["detail"]
    assert api.get("/clock/api/clocks/42").status_code == 404
    assert api.post("/clock/api/clocks/42/events", json={"kind": "start"}).status_code == 404


def test_round_list_and_history(api):
    a, b = new_clock(api, table="T1"), new_clock(api, table="T2")
    new_clock(api, table="T3", round="R2")
    api.post(f"/clock/api/clocks/{a['id']}/events", json={"kind": "start"})
    api.fake.t += 70
    listed = api.get("/clock/api/clocks", params={"round": "R1"}).json()
    assert [c["table"] for c in listed] == ["T1", "T2"] and listed[1]["id"] == b["id"]
    history = api.get(f"/clock/api/clocks/{a['id']}/history").json()
    assert [(e["source"], e["kind"]) for e in history] == [
        ("event", "start"),
        ("clock", "turn_overrun"),
    ]


def test_custom_control_object(api):
    control = {
        "name": "club-blitz",
        "game": "xiangqi",
        "title": "5 min + 3 s",
        "players": ["red", "black"],
        "stages": [{"time": "5m"}],
        "increment": "3s",
    }
    clock = new_clock(api, control=control)
    assert clock["state"]["players"][0]["main_left"] == 300
    bad = api.post(
        "/clock/api/clocks",
        json={"table": "T", "pin": "2468", "control": {**control, "stages": []}},
    )
    assert bad.status_code == 422 and "increment" in bad.json()["detail"]


def test_demo_round_is_seeded_once(tmp_path):
    from ball.web.clocks.pages import seed_demo_clocks

    _engine, sessions = open_database(tmp_path / "demo.db")
    seed_demo_clocks(sessions)
    seed_demo_clocks(sessions)
    from ball.clocks.store import ClockStore

    views = ClockStore(sessions).round_views("demo")
    assert [v.control.game for v in views] == ["ball", "xiangqi", "mahjong"]


def test_pages_render_in_the_real_app(tmp_path):
    from ball.web.app import create_app

    client = TestClient(create_app(str(tmp_path / "pages.db")))
    made = client.post(
        "/clock/api/clocks",
        json={"table": "Table 9", "control": "mahjong-wmc", "pin": "2468", "round": "Final"},
    ).json()
    index = client.get("/clock")
    assert index.status_code == 200 and "/clock/desk?round=Final" in index.text
    table = client.get(f"/clock/{made['id']}")
    assert table.status_code == 200 and "Table 9" in table.text
    assert table.text.count('class="side"') == 4  # one panel per Mahjong seat
    desk = client.get("/clock/desk", params={"round": "Final"})
    assert desk.status_code == 200 and 'data-round="Final"' in desk.text
    assert client.get("/clock/77").status_code == 404
    assert client.get("/clock/not-a-number").status_code == 422
