"""Issue 11 item 5: wrong PINs lock out the address that sent them, not the event.

A guesser's five wrong PINs lock its own address; the arbiter at another address still signs
in with the right PIN. A cap per event bounds guessing from many addresses (beyond it each
wrong PIN locks its address at once) and still lets the right PIN in. The counts are in the
database, so a restart does not reset them. Checked in process (TestClient with a chosen
client address) and against a live `ball serve` (connections from 127.0.0.2 and 127.0.0.1)."""

from __future__ import annotations

import warnings

import httpx

from ball.web import security
from ball.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

PIN = "2468"
T0 = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


def _app(path, clock):
    app = create_app(str(path))
    app.state.clock_time = clock
    return app


def _client(app, address: str) -> TestClient:
    return TestClient(app, client=(address, 40000))


def _create(client) -> int:
    form = {"name": "Open", "system": "swiss", "pin": PIN, "pin2": PIN}
    made = client.post("/desk/events", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    return int(made.headers["location"].rsplit("/", 1)[1])


def _login(client, event_id: int, pin: str):
    return client.post(f"/desk/{event_id}/login", data={"pin": pin}, follow_redirects=False)


def test_a_guesser_locks_out_only_its_own_address(tmp_path):
    clock = Clock()
    app = _app(tmp_path / "d.sqlite", clock)
    with _client(app, "10.0.0.5") as arbiter, _client(app, "10.0.0.66") as guesser:
        event_id = _create(arbiter)
        for _ in range(security.MAX_FAILURES):
            assert _login(guesser, event_id, "0000").status_code == 403
        locked = _login(guesser, event_id, PIN)
        assert locked.status_code == 429 and locked.headers["retry-after"] == "60"
        assert _login(arbiter, event_id, PIN).status_code == 303
        clock.t += security.LOCK_SECONDS
        assert _login(guesser, event_id, "0000").status_code == 403  # open again


def test_the_event_cap_bounds_guesses_from_many_addresses_but_not_the_arbiter(tmp_path):
    clock = Clock()
    app = _app(tmp_path / "d.sqlite", clock)
    with _client(app, "10.0.1.1") as arbiter:
        event_id = _create(arbiter)
    # Up to the cap, each address may guess a few times before it is locked ...
    for n in range(security.EVENT_MAX_FAILURES):
        with _client(app, f"10.0.2.{n + 1}") as guesser:
            assert _login(guesser, event_id, "0000").status_code == 403
    # ... beyond it, one wrong PIN locks a fresh address at once, for EVENT_LOCK_SECONDS.
    with _client(app, "10.0.3.1") as late:
        assert _login(late, event_id, "0000").status_code == 403
        refused = _login(late, event_id, PIN)
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) == int(security.EVENT_LOCK_SECONDS)
    with _client(app, "10.0.1.1") as arbiter:
        assert _login(arbiter, event_id, PIN).status_code == 303


def test_the_lockout_outlives_a_restart(tmp_path):
    clock = Clock()
    db = tmp_path / "d.sqlite"
    with _client(_app(db, clock), "10.0.0.66") as guesser:
        event_id = _create(guesser)
        for _ in range(security.MAX_FAILURES):
            _login(guesser, event_id, "0000")
    with _client(_app(db, clock), "10.0.0.66") as again:
        assert _login(again, event_id, PIN).status_code == 429


def _from(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


def test_live_server_locks_the_guessing_address_only(server_process):
    server = server_process()
    with _from("127.0.0.1") as arbiter, _from("127.0.0.2") as guesser:
        made = arbiter.post(
            server.url + "/desk/events",
            data={"name": "Live", "system": "swiss", "pin": PIN, "pin2": PIN},
        )
        assert made.status_code == 303
        login = server.url + made.headers["location"] + "/login"
        for _ in range(security.MAX_FAILURES):
            assert guesser.post(login, data={"pin": "0000"}).status_code == 403
        assert guesser.post(login, data={"pin": PIN}).status_code == 429
        server.kill()
        server.start()
        assert guesser.post(login, data={"pin": PIN}).status_code == 429  # stored, not reset
        assert arbiter.post(login, data={"pin": PIN}).status_code == 303
