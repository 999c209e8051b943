"""A BALL table's match recorded on the simulator board and followed live (issue 35 §5):
"Record the game" opens one `play` game per table (reopened after), only the table's
device key or the desk writes it (half 2, made at half-time, too), the broadcast lists it
and its `.bgn` download holds both halves and replays through the record reader."""

from __future__ import annotations

from ball.games.ball.play.records import replay_record_text

from .conftest import post
from .test_live_boards import publish
from .test_xiangqi_record import device_of, record


def game_of(response) -> str:
    assert response.status_code == 303, response.text
    location = response.headers["location"].split("#", 1)[0]
    assert location.startswith("/?game=")
    return location[len("/?game=") :]


def act(client, gid, device, action=None):
    """One action of the game (the first legal one, `end` when it is legal)."""
    if action is None:
        legal = client.get(f"/api/games/{gid}").json()["legal"]
        action = "end" if "end" in legal else legal[0]
    answer = client.post(f"/api/games/{gid}/actions", json={"action": action}, headers=device)
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_half(client, gid, device) -> list[str]:
    played = []
    for _ in range(400):  # a half ends on its timer (counted in turns) or a touchdown
        state = client.get(f"/api/games/{gid}").json()
        if state["over"]:
            return played
        played.append(act(client, gid, device)["applied"]["action"])
    raise AssertionError("the half did not end")


def test_the_desk_records_a_ball_table_once_and_only_its_device_writes(
    client, other_client, event4
):
    event_id, tables = event4
    opened = record(client, event_id)
    gid, device = game_of(opened), device_of(opened)
    state = client.get(f"/api/games/{gid}").json()
    a, b = tables[0]["a"], tables[0]["b"]
    assert state["mode"] == "play" and state["log"] == []
    assert state["title"] == f"Open, round 1, table 1: {a} (A) – {b} (B)"
    assert game_of(record(client, event_id)) == gid  # reopened, not a second game
    assert game_of(record(client, event_id, table=2)) != gid
    # The result form offers the tablet's link; the game is in no public list.
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert f'href="/?game={gid}#key={device["X-Table-Key"]}"' in page
    assert gid not in [g["id"] for g in other_client.get("/api/games").json()]
    # A stranger's action is refused and changes nothing; the device's is played.
    legal = other_client.get(f"/api/games/{gid}").json()["legal"]
    refused = other_client.post(f"/api/games/{gid}/actions", json={"action": legal[0]})
    assert refused.status_code == 403 and "key" in refused.json()["detail"]
    wrong = {"X-Table-Key": "x" * 32}
    refused = other_client.post(
        f"/api/games/{gid}/actions", json={"action": legal[0]}, headers=wrong
    )
    assert refused.status_code == 403
    assert client.get(f"/api/games/{gid}").json()["version"] == 0
    assert act(client, gid, device, legal[0])["version"] == 1


def test_half_two_keeps_the_key_and_the_record_holds_both_halves(client, other_client, event4):
    event_id, tables = event4
    opened = record(client, event_id)
    gid, device = game_of(opened), device_of(opened)
    first = play_half(client, gid, device)
    assert other_client.post(f"/api/games/{gid}/next-half").status_code == 403
    made = client.post(f"/api/games/{gid}/next-half", headers=device)
    assert made.status_code == 201, made.text
    second_id = made.json()["id"]
    legal = client.get(f"/api/games/{second_id}").json()["legal"]
    refused = other_client.post(f"/api/games/{second_id}/actions", json={"action": legal[0]})
    assert refused.status_code == 403
    second = [act(client, second_id, device)["applied"]["action"] for _ in range(3)]

    publish(client, event_id)
    page = other_client.get(f"/public/{event_id}/live/1").text
    assert f'href="/public/{event_id}/live/1/1"' in page
    board = other_client.get(f"/public/{event_id}/live/1/1").text
    assert 'id="live-ball"' in board and "/static/js/live-ball.js" in board
    answer = other_client.get(f"/public/{event_id}/live/1/1/record")
    assert answer.status_code == 200 and ".bgn" in answer.headers["content-disposition"]
    replayed = replay_record_text(answer.text)
    assert replayed["tags"]["CoachA"] == tables[0]["a"]
    assert replayed["tags"]["CoachB"] == tables[0]["b"] and replayed["tags"]["Table"] == "1"
    halves = replayed["halves"]
    assert [h["half"] for h in halves] == [1, 2]
    # Half 1 ended on the half timer: the record says where it ran out (its Final Drive).
    recorded = [p["action"] for p in halves[0]["plies"]]
    assert recorded.count("final-drive") == 1
    assert [a for a in recorded if a != "final-drive"] == first
    assert [p["action"] for p in halves[1]["plies"]] == second


def test_the_desk_session_writes_a_tables_game_too(client, event4):
    event_id, _ = event4
    gid = game_of(record(client, event_id))
    legal = client.get(f"/api/games/{gid}").json()["legal"]
    token = client.get(f"/desk/{event_id}").text.split('name="csrf" value="')[1].split('"')[0]
    answer = client.post(
        f"/api/games/{gid}/actions", json={"action": legal[0]}, headers={"X-CSRF-Token": token}
    )
    assert answer.status_code == 200, answer.text


def test_mahjong_and_unpaired_rounds_have_no_broadcast(client, event4):
    event_id, _ = event4
    assert post(client, event_id, "/rounds/2/broadcast", {"publish": "1"}).status_code == 404
