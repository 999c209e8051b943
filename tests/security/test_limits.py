"""Issue 11 item 6: a body-size limit, a creation rate limit, caps on stored rows, and
scrypt off the event loop; in process and against a live `ball serve`."""

from __future__ import annotations

import asyncio
import json
import warnings
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from ball.web.app import create_app
from ball.web.core import security
from ball.web.core.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

PIN = "2468"


def _event(client, name: str):
    form = {"name": name, "system": "swiss", "pin": PIN, "pin2": PIN}
    return client.post("/desk/events", data=form, follow_redirects=False)


def _big_json(size: int) -> bytes:
    return json.dumps({"title": "x" * size}).encode()


def test_a_body_over_the_limit_is_refused_by_its_declared_length(tmp_path):
    app = create_app(str(tmp_path / "w.sqlite"), limits=Limits(max_body_bytes=10_000))
    with TestClient(app) as client:
        response = client.post(
            "/api/games", content=_big_json(20_000), headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 413
        assert response.json()["detail"] == "request body too large: at most 10000 bytes"
        assert client.get("/api/games").json() == []
        small = client.post("/api/games", json={"title": "ok"})
        assert small.status_code == 201


def test_a_streamed_body_is_counted_not_trusted(tmp_path):
    """No Content-Length (chunked): the bytes received are counted."""
    from ball.web.core.limits import BodyLimit

    seen = []

    async def app(scope, receive, send):
        while True:
            message = await receive()
            seen.append(len(message.get("body", b"")))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"read"})

    chunks = [b"a" * 4000] * 5

    async def run():
        sent = []
        queue = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]

        async def receive():
            return queue.pop(0)

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "headers": [(b"transfer-encoding", b"chunked")]}
        await BodyLimit(app, max_bytes=10_000)(scope, receive, send)
        return sent

    # A thread of its own: a browser test earlier on this worker may leave its event loop
    # running in the main thread, where asyncio.run() refuses to start another.
    with ThreadPoolExecutor(1) as pool:
        sent = pool.submit(asyncio.run, run()).result()
    assert sent[0]["status"] == 413
    assert sum(seen) <= 12_000  # stopped at the third chunk, not after all five


def test_the_body_limit_works_behind_other_middleware(tmp_path):
    """With a BaseHTTPMiddleware outside it, a streamed oversize JSON body is still a 413
    (not FastAPI's 400 about a body it could not parse)."""
    from starlette.middleware.base import BaseHTTPMiddleware

    from ball.web.core.limits import BodyLimit

    app = create_app(str(tmp_path / "w.sqlite"), limits=Limits(max_body_bytes=10**9))
    app.add_middleware(BodyLimit, max_bytes=10_000)

    async def passthrough(request, call_next):
        return await call_next(request)

    app.add_middleware(BaseHTTPMiddleware, dispatch=passthrough)

    def stream():
        for _ in range(5):
            yield b" " * 4000

    with TestClient(app) as client:
        response = client.post(
            "/api/games", content=stream(), headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 413, response.text
        assert "too large" in response.json()["detail"]
        assert client.get("/api/games").json() == []


def test_event_creation_is_rate_limited_per_address(tmp_path):
    app = create_app(str(tmp_path / "w.sqlite"), limits=Limits(creations=3))
    with TestClient(app, client=("10.0.0.9", 1)) as flood, TestClient(
        app, client=("10.0.0.2", 1)
    ) as arbiter:
        for n in range(3):
            assert _event(flood, f"E{n}").status_code == 303
        refused = _event(flood, "E3")
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) > 0 and "at most 3" in refused.text
        assert _event(arbiter, "Real").status_code == 303


@pytest.mark.parametrize("kind", ["events", "clocks", "games"])
def test_stored_rows_are_capped(tmp_path, kind):
    limits = Limits(max_events=2, max_clocks=2, max_games=2)
    app = create_app(str(tmp_path / "w.sqlite"), limits=limits)
    clock = {"table": "1", "control": "ball-standard", "pin": PIN}

    def make(client, n):
        if kind == "events":
            return _event(client, f"E{n}")
        if kind == "clocks":
            return client.post("/clock/api/clocks", json=clock)
        return client.post("/api/games", json={})

    with TestClient(app) as client:
        for n in range(2):
            assert make(client, n).status_code in (201, 303)
        refused = make(client, 2)
        assert refused.status_code == 409
        assert f"limit reached: this server holds 2 {kind}" in refused.text


def test_limits_come_from_the_environment_and_bad_values_are_named():
    assert Limits.from_env({"BALL_MAX_GAMES": "7"}).max_games == 7
    with pytest.raises(ValueError, match="BALL_MAX_EVENTS: 'many' is not a number"):
        Limits.from_env({"BALL_MAX_EVENTS": "many"})


def test_scrypt_runs_off_the_event_loop(tmp_path, monkeypatch):
    on_loop = []
    real_hash, real_match = security.hash_pin, security.pin_matches

    def in_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def hash_pin(pin):
        on_loop.append(("hash", in_loop()))
        return real_hash(pin)

    def pin_matches(pin, stored):
        on_loop.append(("check", in_loop()))
        return real_match(pin, stored)

    monkeypatch.setattr(security, "hash_pin", hash_pin)
    monkeypatch.setattr(security, "pin_matches", pin_matches)
    with TestClient(create_app(str(tmp_path / "w.sqlite"))) as client:
        made = _event(client, "Open")
        event_id = int(made.headers["location"].rsplit("/", 1)[1])
        client.post(f"/desk/{event_id}/login", data={"pin": "0000"})
    assert {kind for kind, _ in on_loop} == {"hash", "check"}
    assert not any(loop for _, loop in on_loop), on_loop


def test_live_server_refuses_a_streamed_body_and_caps_games(server_process, monkeypatch):
    monkeypatch.setenv("BALL_MAX_GAMES", "2")
    server = server_process()

    def flood():
        for _ in range(70):  # 70 MB if nobody stopped it
            yield b" " * 1_000_000

    with httpx.Client(timeout=60) as client:
        response = client.post(
            server.url + "/api/games",
            content=flood(),  # chunked: no Content-Length to trust
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 413
        assert "too large" in response.json()["detail"]
        for _ in range(2):
            assert client.post(server.url + "/api/games", json={}).status_code == 201
        capped = client.post(server.url + "/api/games", json={})
        assert capped.status_code == 409 and "BALL_MAX_GAMES" in capped.text
        assert client.get(server.url + "/api/games").status_code == 200  # still serving
