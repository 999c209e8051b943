"""The web app on PostgreSQL: a stored game and a table clock's event log outlive the app
that wrote them (a second app on the same URL reads them back), and refusals write nothing."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from ball.clocks import ClockRejected
from ball.clocks.store import ClockStore
from ball.games.ball.web.rulebook import diagrams
from ball.storage import open_database
from ball.web.app import create_app


class FakeTime:
    t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def test_stored_game_survives_on_postgres(fresh_postgres_url):
    first = TestClient(create_app(fresh_postgres_url))
    made = first.post("/api/games", json={"position": diagrams()["block-steal"]["position"]})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    for action in ("H10-G9", "continue"):
        played = first.post(f"/api/games/{gid}/actions", json={"action": action})
        assert played.status_code == 200, played.text
    before = first.get(f"/api/games/{gid}").json()
    stale = first.post(
        f"/api/games/{gid}/actions", json={"action": "continue", "version": made.json()["version"]}
    )
    assert stale.status_code == 409
    again = TestClient(create_app(fresh_postgres_url))
    assert again.get(f"/api/games/{gid}").json() == before
    assert before["position"]["attack"] == "N" and len(before["log"]) == 2
    listed = again.get("/api/games").json()
    assert [g["id"] for g in listed] == [gid] and listed[0]["plies"] == 2
    assert listed[0]["updated_at"].endswith("+00:00")  # stored with its time zone


def test_clock_log_survives_on_postgres(fresh_postgres_url):
    app = create_app(fresh_postgres_url)
    app.state.clock_time = fake = FakeTime()
    api = TestClient(app)
    body = {"table": "Table 3", "control": "ball-standard", "pin": "2468", "round": "R1"}
    made = api.post("/clock/api/clocks", json={**body, "players": ["Ana", "Boris"]})
    assert made.status_code == 201, made.text
    url = f"/clock/api/clocks/{made.json()['id']}"
    assert api.post(f"{url}/events", json={"kind": "start"}).status_code == 200
    fake.t += 61
    # Ana is coach A and attacks first; Boris (DEF) makes the first turn (D-U1)
    pressed = api.post(f"{url}/events", json={"kind": "press", "data": {"by": "Boris"}})
    assert pressed.status_code == 200, pressed.text
    refused = api.post(f"{url}/events", json={"kind": "pause", "pin": "0000"})
    assert refused.status_code == 403
    history = api.get(f"{url}/history").json()
    assert [(e["source"], e["kind"]) for e in history if e["source"] == "event"] == [
        ("event", "start"),
        ("event", "press"),
    ]

    later = create_app(fresh_postgres_url)
    later.state.clock_time = fake
    reread = TestClient(later)
    assert reread.get(f"{url}/history").json() == history
    state = reread.get(url).json()["state"]
    assert state["players"][1]["overruns"] == 1 and state["status"] != "paused"
    assert [c["table"] for c in reread.get("/clock/api/clocks", params={"round": "R1"}).json()] == [
        "Table 3"
    ]


@pytest.mark.parametrize(
    ("path", "body", "status", "start", "why"),
    [
        # A game title and a clock's table label are names: the name rule refuses the NUL
        # before the database sees it.
        ("/api/games", {"title": "Nul\x00Byte"}, 400, "title: one line", "U+0000"),
        (
            "/clock/api/clocks",
            {"table": "T\x00", "control": "ball-standard", "pin": "2468"},
            422,  # the clock API's status for a refused value
            "table: one line",
            "U+0000",
        ),
    ],
)
def test_values_postgres_refuses_are_4xx_and_write_nothing(
    fresh_postgres_url, path, body, status, start, why
):
    api = TestClient(create_app(fresh_postgres_url), raise_server_exceptions=False)
    listing = "/api/games" if path == "/api/games" else "/clock/api/clocks"
    before = api.get(listing).json()
    refused = api.post(path, json=body)
    assert refused.status_code == status, refused.text
    assert refused.json()["detail"].startswith(start)
    assert why in refused.json()["detail"]
    assert api.get(listing).json() == before


def test_clock_ids_beyond_an_integer_are_unknown_clocks(fresh_postgres_url):
    api = TestClient(create_app(fresh_postgres_url), raise_server_exceptions=False)
    far = 2**31  # one past PostgreSQL's INTEGER
    assert api.get(f"/clock/api/clocks/{far}").status_code == 404
    pressed = api.post(f"/clock/api/clocks/{far}/events", json={"kind": "start"})
    assert pressed.status_code == 404 and f"no clock {far}" in pressed.json()["detail"]


def test_racing_presses_land_once_on_postgres(fresh_postgres_url):
    _engine, sessions = open_database(fresh_postgres_url)
    store = ClockStore(sessions, FakeTime())
    clock = store.create("T1", "xiangqi-6.5", pin="2468")
    store.record(clock.id, "start")
    outcomes: list[str] = []

    def press() -> None:
        try:
            store.record(clock.id, "press", {"by": "red"})
            outcomes.append("ok")
        except ClockRejected as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=press) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("ok") == 1, outcomes
    assert [e.kind for e in store.events(clock.id)] == ["start", "press"]
