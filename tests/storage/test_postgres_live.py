"""Live boards on PostgreSQL (issue 35 §5): the desk's switch, a Xiangqi and a BALL table's
recorded games, the broadcast page, both record downloads and the boards' versions; a second
app on the same URL (another server process) sees the same broadcast and the same game."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from ball.games.ball.play.records import replay_record_text
from ball.games.xiangqi.engine import pgn
from ball.web.app import create_app
from ball.web.public.live_stream import hub_of

PIN = "2468"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _app(url: str):
    return create_app(url)


def post(client, event_id: int, path: str, data: dict | None = None):
    """POST a desk form as the signed-in arbiter (with the session's CSRF token)."""
    token = CSRF.search(client.get(f"/desk/{event_id}").text)
    assert token is not None
    form = {"csrf": token.group(1), **(data or {})}
    return client.post(f"/desk/{event_id}{path}", data=form, follow_redirects=False)


def _event(client, name: str, **extra) -> int:
    """An event of four entrants with round 1 paired, through the desk's forms."""
    form = {"name": name, "system": "round-robin", "pin": PIN, "pin2": PIN, **extra}
    made = client.post("/desk/events", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    event_id = int(made.headers["location"].rsplit("/", 1)[1])
    for entrant in ("Wang", "Li", "Zhao", "Qian"):
        assert post(client, event_id, "/entrants", {"name": entrant}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    return event_id


def seat_xiangqi4(client) -> int:
    return _event(client, "Xiangqi Open", game="xiangqi")


def seat_event4(client) -> int:
    return _event(client, "Open")


def test_live_boards_on_postgres(fresh_postgres_url):
    app = _app(fresh_postgres_url)
    desk = TestClient(app)
    xq = seat_xiangqi4(desk)
    opened = post(desk, xq, "/rounds/1/tables/1/record")
    gid = opened.headers["location"].split("#")[0].rsplit("/", 1)[1]
    key = {"X-Table-Key": opened.headers["location"].split("#key=")[1]}
    assert desk.post(
        f"/api/xiangqi/games/{gid}/moves", json={"move": "h2e2"}, headers=key
    ).is_success
    ball = seat_event4(desk)
    opened = post(desk, ball, "/rounds/1/tables/1/record")
    bid = opened.headers["location"].split("#")[0].split("=", 1)[1]
    assert (
        post(desk, ball, "/rounds/1/tables/1/record").headers["location"]
        == opened.headers["location"]
    )  # one match per table: the unique triple holds on PostgreSQL too
    bkey = {"X-Table-Key": opened.headers["location"].split("#key=")[1]}
    action = desk.get(f"/api/games/{bid}").json()["legal"][0]
    assert desk.post(f"/api/games/{bid}/actions", json={"action": action}, headers=bkey).is_success
    for event_id in (xq, ball):
        assert post(desk, event_id, "/rounds/1/broadcast", {"publish": "1"}).status_code == 303

    other = TestClient(_app(fresh_postgres_url))  # another process on the same database
    assert f'href="/public/{xq}/live/1/1"' in other.get(f"/public/{xq}/live/1").text
    record = pgn.read(other.get(f"/public/{xq}/live/1/1/record").text)
    assert [m.iccs() for m in record.game().moves] == ["h2e2"]
    halves = replay_record_text(other.get(f"/public/{ball}/live/1/1/record").text)["halves"]
    assert [p["action"] for p in halves[0]["plies"]] == [action]
    boards = hub_of(other.app).boards
    refs = boards.round_games(xq, 1), boards.round_games(ball, 1)
    assert refs[0][1].kind == "xiangqi" and refs[1][1].kind == "ball"
    assert boards.version(xq, 1, refs[0][1]) == "1" and boards.version(ball, 1, refs[1][1]) == "1"
    assert boards.snapshot(refs[1][1])["last"] == action
    assert post(desk, xq, "/rounds/1/broadcast", {"publish": "0"}).status_code == 303
    assert boards.version(xq, 1, refs[0][1]) is None
    assert other.get(f"/public/{xq}/live/1").status_code == 404
