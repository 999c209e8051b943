"""The live boards' event stream (issue 35 §5) against a real uvicorn server: the snapshot
at once and after every recorded move, one shared watch however many follow a game, a
write of another process (no signal here) still reaching the followers, the `end` event
when the desk stops the broadcast, the stream's end of life, and the bounds on open
streams (429 per address, 503 in all) with their places given back when followers leave."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import update

from ball.web.app import create_app
from ball.web.core.limits import Limits
from ball.web.core.models import XiangqiGameRow
from ball.web.public.live_stream import hub_of

from .conftest import FakeClock, post, seat_event4, seat_xiangqi4
from .test_xiangqi_record import device_of, game_of, record

WAIT = 20.0  # seconds a test waits for what must come (never asserted as a speed)


def events(response: httpx.Response) -> Iterator[tuple[str, dict]]:
    """(event name, data) of each server-sent event of a streamed response."""
    name, data = "message", ""
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            data = line[len("data: ") :]
        elif line == "" and data:
            yield name, json.loads(data)
            name, data = "message", ""


def wait_until(done, seconds: float = WAIT) -> None:
    """Wait for what the server does after the client has its answer (at most `seconds`)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture
def live(tmp_path, serve):
    """(app, base URL, desk client, event id, game id, device headers): a Xiangqi event's
    round 1 published, table 1's game recorded at the desk, served by uvicorn."""
    made: list[httpx.Client] = []

    def start(limits: Limits | None = None, seconds: float | None = None):
        app = create_app(str(tmp_path / "live.sqlite"), limits=limits)
        app.state.clock_time = FakeClock()
        if seconds is not None:
            app.state.live_stream_seconds = seconds
        base = serve(app)
        desk = httpx.Client(base_url=base, timeout=WAIT)
        made.append(desk)
        event_id = seat_xiangqi4(desk)
        opened = record(desk, event_id)
        assert post(desk, event_id, "/rounds/1/broadcast", {"publish": "1"}).status_code == 303
        return app, base, desk, event_id, game_of(opened), device_of(opened)

    yield start
    for client in made:
        client.close()


def stream_url(base, event_id, table=1):
    return f"{base}/public/{event_id}/live/1/{table}/stream"


def test_a_follower_gets_the_board_at_once_and_after_each_move(live):
    app, base, desk, event_id, gid, device = live()
    with (
        httpx.Client(timeout=WAIT) as follower,
        follower.stream("GET", stream_url(base, event_id)) as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        seen = events(response)
        name, board = next(seen)
        assert name == "board" and board["kind"] == "xiangqi" and board["moves"] == []
        assert board["pieces"]["e0"] == "K" and board["turn"] == "red"
        assert "legal" not in board  # a follower gets the board, not the device's choices
        for n, move in enumerate(("h2e2", "h9g7"), 1):
            path = f"/api/xiangqi/games/{gid}/moves"
            played = desk.post(path, json={"move": move}, headers=device)
            assert played.status_code == 200, played.text
            name, board = next(seen)
            assert name == "board" and len(board["moves"]) == n
            assert board["last"] == move and board["version"] == n


def test_followers_of_a_game_share_one_watch_and_leave_nothing_behind(live):
    app, base, desk, event_id, gid, device = live()
    hub = hub_of(app)
    url = stream_url(base, event_id)
    with (
        httpx.Client(timeout=WAIT) as one,
        httpx.Client(timeout=WAIT) as two,
        one.stream("GET", url) as a,
        two.stream("GET", url) as b,
    ):
        seen_a, seen_b = events(a), events(b)  # kept: a dropped reader closes its line
        assert next(seen_a) == next(seen_b)
        assert hub.open == 2 and hub.watched() == 1
    wait_until(lambda: not (hub.open or hub.watched()))
    assert hub.open == 0 and hub.watched() == 0


def test_a_write_nobody_here_announced_still_reaches_the_followers(live):
    """Another server process recording the game: only the version check sees it."""
    app, base, desk, event_id, gid, device = live()
    with (
        httpx.Client(timeout=WAIT) as follower,
        follower.stream("GET", stream_url(base, event_id)) as response,
    ):
        seen = events(response)
        assert next(seen)[1]["moves"] == []
        with app.state.sessions() as session:
            session.execute(
                update(XiangqiGameRow)
                .where(XiangqiGameRow.id == int(gid))
                .values(moves=json.dumps(["h2e2"]), version=XiangqiGameRow.version + 1)
            )
            session.commit()
        name, board = next(seen)
        assert name == "board" and [m["iccs"] for m in board["moves"]] == ["h2e2"]


def test_stopping_the_broadcast_ends_the_streams(live):
    app, base, desk, event_id, gid, device = live()
    with (
        httpx.Client(timeout=WAIT) as follower,
        follower.stream("GET", stream_url(base, event_id)) as response,
    ):
        seen = events(response)
        assert next(seen)[0] == "board"
        assert post(desk, event_id, "/rounds/1/broadcast", {"publish": "0"}).status_code == 303
        assert next(seen) == ("end", {})
        assert list(seen) == []  # and the server closed the stream
    assert httpx.get(stream_url(base, event_id)).status_code == 404


def test_a_stream_ends_after_its_life_and_tells_the_browser_when_to_come_back(live):
    app, base, desk, event_id, gid, device = live(seconds=1.0)
    with (
        httpx.Client(timeout=WAIT) as follower,
        follower.stream("GET", stream_url(base, event_id)) as response,
    ):
        text = response.read().decode()  # returns: the server ended the stream
    assert text.startswith("retry: 3000\n\n")
    assert "event: board\n" in text
    wait_until(lambda: hub_of(app).open == 0)  # the server's own end of the response
    assert hub_of(app).open == 0


def test_one_address_holds_at_most_its_share_of_streams(live):
    app, base, desk, event_id, gid, device = live(limits=Limits(live_streams_per_address=2))
    with httpx.Client(timeout=WAIT) as client:
        with (
            client.stream("GET", stream_url(base, event_id)) as a,
            client.stream("GET", stream_url(base, event_id)) as b,
        ):
            seen = events(a), events(b)
            assert [next(s)[0] for s in seen] == ["board", "board"]
            refused = client.get(stream_url(base, event_id))
            assert refused.status_code == 429
            assert refused.headers["retry-after"] == "10"
            assert "2 streams open" in refused.json()["detail"]
        # The places are given back when the followers leave.
        wait_until(lambda: hub_of(app).open == 0)
        with client.stream("GET", stream_url(base, event_id)) as again:
            assert again.status_code == 200


def test_the_server_holds_at_most_its_streams_in_all(live):
    app, base, desk, event_id, gid, device = live(limits=Limits(live_streams=1))
    with (
        httpx.Client(timeout=WAIT) as client,
        client.stream("GET", stream_url(base, event_id)) as first,
    ):
        seen = events(first)
        assert next(seen)[0] == "board"
        refused = client.get(stream_url(base, event_id))
        assert refused.status_code == 503 and refused.headers["retry-after"] == "10"
        assert "1 streams are open" in refused.json()["detail"]


def test_the_stream_is_refused_for_a_table_without_a_game_or_a_bad_path(live):
    app, base, desk, event_id, gid, device = live()
    assert httpx.get(stream_url(base, event_id, table=2)).status_code == 404
    assert httpx.get(stream_url(base, event_id, table=99)).status_code == 404
    assert httpx.get(f"{base}/public/{event_id}/live/1/x/stream").status_code == 422
    assert hub_of(app).open == 0


def test_a_ball_tables_match_is_followed_action_by_action(tmp_path, serve):
    app = create_app(str(tmp_path / "ball.sqlite"))
    app.state.clock_time = FakeClock()
    base = serve(app)
    with httpx.Client(base_url=base, timeout=WAIT) as desk, httpx.Client(timeout=WAIT) as phone:
        event_id = seat_event4(desk)
        opened = record(desk, event_id)
        gid = opened.headers["location"].split("#", 1)[0].split("=", 1)[1]
        assert post(desk, event_id, "/rounds/1/broadcast", {"publish": "1"}).status_code == 303
        with phone.stream("GET", stream_url(base, event_id)) as response:
            seen = events(response)
            name, board = next(seen)
            assert name == "board" and board["kind"] == "ball" and board["plies"] == []
            assert board["position"]["half"] == 1
            for n in (1, 2):
                legal = desk.get(f"/api/games/{gid}").json()["legal"]
                action = legal[0]
                played = desk.post(
                    f"/api/games/{gid}/actions", json={"action": action}, headers=device_of(opened)
                )
                assert played.status_code == 200, played.text
                name, board = next(seen)
                assert len(board["plies"]) == n and board["last"] == action


def test_a_failed_read_closes_the_streams_without_ending_the_broadcast(live):
    """The browser reconnects after a dropped line; only `end` tells it to stop."""
    app, base, desk, event_id, gid, device = live()
    boards = hub_of(app).boards
    with (
        httpx.Client(timeout=WAIT) as follower,
        follower.stream("GET", stream_url(base, event_id)) as response,
    ):
        seen = events(response)
        assert next(seen)[0] == "board"

        def broken(*args):
            raise OSError("the database went away")

        boards.version = broken  # type: ignore[method-assign]
        assert list(seen) == []  # closed, with no `end` event
    del boards.version  # the class's method again
    with (
        httpx.Client(timeout=WAIT) as follower,
        follower.stream("GET", stream_url(base, event_id)) as response,
    ):
        assert next(events(response))[0] == "board"  # a reconnect starts a new watch
