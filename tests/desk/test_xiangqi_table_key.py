"""A Xiangqi game the desk opened for a table is the desk's (issue 30, item 2): a stranger can
neither move, let the computer move, nor declare an ending in it, and does not find it in the
public list of free games; the desk session (with its CSRF token) and the table's device key
from the desk's link write it. Free games stay open to anyone."""

from __future__ import annotations

from .conftest import post
from .test_xiangqi_record import device_of, game_of


def record(client, event_id, table=1):
    return post(client, event_id, f"/rounds/1/tables/{table}/record")


def test_a_stranger_cannot_write_a_tables_game(client, other_client, xiangqi4):
    event_id, _ = xiangqi4
    gid = game_of(record(client, event_id))
    base = f"/api/xiangqi/games/{gid}"
    for path, body in (
        ("/moves", {"move": "h2e2"}),
        ("/computer", {}),
        ("/ending", {"ending": "resign-red"}),
    ):
        refused = other_client.post(base + path, json=body)
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json()["detail"].startswith("key:")
        forged = other_client.post(base + path, json=body, headers={"X-Table-Key": "k" * 32})
        assert forged.status_code == 403
    # Nothing was written; the board still reads, and the desk's form offers nothing.
    state = other_client.get(base).json()
    assert state["moves"] == [] and state["over"] is False
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert 'id="recorded-ending"' not in page


def test_a_tables_game_is_not_in_the_public_list(client, other_client, xiangqi4):
    event_id, tables = xiangqi4
    game_of(record(client, event_id))
    free = other_client.post("/api/xiangqi/games", json={"title": "casual"})
    assert free.status_code == 201
    listed = other_client.get("/api/xiangqi/games").json()
    assert [g["title"] for g in listed] == ["casual"]
    assert all(tables[0]["a"] not in g["title"] for g in listed)


def test_the_device_key_and_the_desk_session_write_it(client, other_client, xiangqi4):
    event_id, _ = xiangqi4
    opened = record(client, event_id)
    gid, device = game_of(opened), device_of(opened)
    base = f"/api/xiangqi/games/{gid}"
    # The tablet the desk passed the link to: a browser without any desk session.
    played = other_client.post(base + "/moves", json={"move": "h2e2"}, headers=device)
    assert played.status_code == 200, played.text
    # The desk's own session with its CSRF token, without the key.
    from .conftest import csrf_of

    csrf = {"X-CSRF-Token": csrf_of(client, f"/desk/{event_id}")}
    assert client.post(base + "/moves", json={"move": "h9g7"}).status_code == 403  # no token
    answered = client.post(base + "/moves", json={"move": "h9g7"}, headers=csrf)
    assert answered.status_code == 200, answered.text
    # Another table's key does not open this game.
    other_key = device_of(record(client, event_id, table=2))
    crossed = other_client.post(base + "/moves", json={"move": "h0g2"}, headers=other_key)
    assert crossed.status_code == 403
    assert other_client.get(base).json()["last"] == "h9g7"


def test_free_games_stay_open_to_anyone(other_client):
    made = other_client.post("/api/xiangqi/games", json={})
    gid = made.json()["id"]
    played = other_client.post(f"/api/xiangqi/games/{gid}/moves", json={"move": "h2e2"})
    assert played.status_code == 200, played.text


def test_the_desks_form_shows_the_tablets_link_once_the_game_is_recorded(
    client, other_client, xiangqi4
):
    import re

    event_id, _ = xiangqi4
    form = f"/desk/{event_id}/rounds/1/tables/1"
    assert 'id="table-device-link"' not in client.get(form).text
    opened = record(client, event_id)
    link = re.search(r'id="table-device-link" href="([^"]+)"', client.get(form).text).group(1)
    assert link == opened.headers["location"]
    gid, key = link.split("#key=")[0].rsplit("/", 1)[1], link.split("#key=")[1]
    played = other_client.post(
        f"/api/xiangqi/games/{gid}/moves", json={"move": "h2e2"}, headers={"X-Table-Key": key}
    )
    assert played.status_code == 200, played.text
