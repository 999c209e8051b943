"""Recording a Xiangqi table's game move by move from the desk (issue 16): "Record the game"
creates the table's hot-seat game once (Red = player A), reopens the same game afterwards,
and once the board has ended the game the result form offers that result (seed 4.1.9
resignation here); the arbiter still checks and saves through the plug-in."""

from __future__ import annotations

import pytest

from ball.web.core.deps import service_for

from .conftest import create_event, post, seat_xiangqi4

# The tests of four entrants start from `xiangqi4` (tests/desk/conftest.py): built through
# the desk's forms once per test process, each test on its own copy.


def record(client, event_id, table=1, number=1):
    return post(client, event_id, f"/rounds/{number}/tables/{table}/record")


def game_of(response) -> str:
    assert response.status_code == 303, response.text
    location = response.headers["location"].split("#", 1)[0]
    assert location.startswith("/xiangqi/")
    return location.rsplit("/", 1)[1]


def device_of(response) -> dict[str, str]:
    """The table device key the desk's link carries in its fragment, as the board sends it."""
    fragment = response.headers["location"].split("#", 1)[1]
    assert fragment.startswith("key=")
    return {"X-Table-Key": fragment[len("key=") :]}


def test_record_creates_the_tables_game_once_and_reopens_it(client, xiangqi4):
    event_id, tables = xiangqi4
    opened = record(client, event_id)
    first, device = game_of(opened), device_of(opened)
    state = client.get(f"/api/xiangqi/games/{first}").json()
    a, b = tables[0]["a"], tables[0]["b"]
    assert state["mode"] == "hotseat" and state["turn"] == "red" and state["moves"] == []
    assert state["title"] == f"Xiangqi Open, round 1, table 1: {a} (Red) – {b} (Black)"
    played = client.post(f"/api/xiangqi/games/{first}/moves", json={"move": "h2e2"}, headers=device)
    assert played.status_code == 200, played.text
    # Reopening gives the same game, with its move; another table has its own game.
    assert game_of(record(client, event_id)) == first
    assert client.get(f"/api/xiangqi/games/{first}").json()["last"] == "h2e2"
    assert game_of(record(client, event_id, table=2)) != first
    assert client.get(f"/xiangqi/{first}").status_code == 200


def test_the_form_offers_the_result_of_the_recorded_game_and_saves_it(client, xiangqi4):
    event_id, tables = xiangqi4
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert "Record the game" in page and 'id="recorded-ending"' not in page
    opened = record(client, event_id)
    gid, device = game_of(opened), device_of(opened)
    for move in ("h2e2", "h9g7", "h0g2"):
        played = client.post(f"/api/xiangqi/games/{gid}/moves", json={"move": move}, headers=device)
        assert played.status_code == 200, played.text
    # Not over yet: nothing is offered.
    assert 'value="1-0" checked' not in client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    ended = client.post(
        f"/api/xiangqi/games/{gid}/ending", json={"ending": "resign-black"}, headers=device
    )
    assert ended.status_code == 200, ended.text
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert 'id="recorded-ending"' in page
    assert 'value="1-0" checked' in page and 'value="resignation" selected' in page
    # Three plies are two moves as a scoresheet counts them (D-Y1).
    assert 'name="xq_moves" type="number" min="0" step="1" inputmode="numeric" value="2"' in page
    # Nothing is stored until the arbiter saves.
    svc = service_for(client.app)
    assert "result" not in svc.rounds.pairings(1, event=event_id)[0]
    form = {"kind": "sheet", "version": "0", "xq_result": "1-0", "xq_reason": "resignation",
            "xq_fouls_A": "0", "xq_fouls_B": "0", "xq_moves": "2", "action": "save"}  # fmt: skip
    assert post(client, event_id, "/rounds/1/tables/1", form).status_code == 303
    assert svc.rounds.pairings(1, event=event_id)[0]["result"]["outcome"] == "A"
    # The stored result, not the recorded game, fills the corrections form from now on.
    assert 'value="1-0" checked' in client.get(f"/desk/{event_id}/rounds/1/tables/1").text


def test_strangers_and_forged_posts_are_refused_and_create_nothing(client, other_client, xiangqi4):
    event_id, _ = xiangqi4
    path = f"/desk/{event_id}/rounds/1/tables/1/record"
    assert other_client.post(path, follow_redirects=False).status_code == 401
    assert client.post(path, follow_redirects=False).status_code == 403  # no CSRF token
    assert client.post(path, data={"csrf": "x" * 43}, follow_redirects=False).status_code == 403
    assert client.get("/api/xiangqi/games").json() == []


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/rounds/1/tables/99/record", 404),
        ("/rounds/9/tables/1/record", 404),
        ("/rounds/1/tables/x/record", 422),
        # Out of the id range: the same clear 404 as any table that does not exist.
        ("/rounds/1/tables/99999999999999999999999/record", 404),
    ],
)
def test_bad_tables_are_refused_by_name(client, path, status, xiangqi4):
    event_id, _ = xiangqi4
    answer = post(client, event_id, path)
    assert answer.status_code == status, answer.text
    assert "detail" in answer.json()
    assert client.get("/api/xiangqi/games").json() == []


def test_a_bye_has_no_game_to_record_and_a_ball_table_records_on_the_simulator(client):
    event_id = seat_xiangqi4(client, players=("Wang", "Li", "Zhao"))
    tables = service_for(client.app).rounds.pairings(1, event=event_id)
    bye = next(t for t in tables if t.get("b") is None)
    refused = record(client, event_id, table=bye["table"])
    assert refused.status_code == 404 and "bye" in refused.json()["detail"]
    ball_event = create_event(client, name="BALL Open")
    for name in ("A1", "B2"):
        assert post(client, ball_event, "/entrants", {"name": name}).status_code == 303
    assert post(client, ball_event, "/rounds").status_code == 303
    opened = record(client, ball_event)  # a BALL match: the simulator board (issue 35 §5)
    assert opened.status_code == 303 and opened.headers["location"].startswith("/?game=")
    assert client.get("/api/xiangqi/games").json() == []
