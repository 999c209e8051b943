"""Issue 11 item 5: wrong PINs lock out the address that sent them, not the event.

A guesser's five wrong PINs lock its own address; the arbiter at another address still signs
in with the right PIN. A cap per event bounds guessing from many addresses (beyond it each
wrong PIN locks its address at once) and still lets the right PIN in. The counts are in the
database, so a restart does not reset them. Checked in process (TestClient with a chosen
client address) and against a live `ball serve` (connections from 127.0.0.2 and 127.0.0.1)."""

from __future__ import annotations

import warnings

import httpx

from ball.web.app import create_app
from ball.web.core import security

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


def forty_at_once(sessions, client: str = "10.0.0.66") -> list[float]:
    """40 threads start a PIN try of one address at the same moment; what `take` told each."""
    import threading

    throttle = security.PinThrottle(sessions, "desk")
    start = threading.Barrier(40)
    told: list[float] = []

    def one() -> None:
        start.wait()
        told.append(throttle.take(7, client, T0))

    threads = [threading.Thread(target=one) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return told


def test_forty_simultaneous_tries_on_sqlite_get_exactly_five_checks(tmp_path):
    app = create_app(str(tmp_path / "race.sqlite"))
    told = forty_at_once(app.state.sessions)
    assert told.count(0.0) == security.MAX_FAILURES
    assert all(wait == security.LOCK_SECONDS for wait in told if wait)


def test_the_right_pin_takes_its_try_back_and_a_right_recovery_code_opens_a_locked_desk(
    tmp_path,
):
    clock = Clock()
    app = _app(tmp_path / "d.sqlite", clock)
    with _client(app, "10.0.1.1") as arbiter:
        event_id = _create(arbiter)
        page = arbiter.get(f"/desk/{event_id}")
        code = page.text.split('<p class="recovery-code"><code>', 1)[1].split("<", 1)[0]
    stored = {row.code_hash for row in _rows(app, security.DeskRecovery)}
    assert len(stored) == 1 and code not in next(iter(stored))  # only its hash is stored
    assert stored.pop().startswith("scrypt$")
    with _client(app, "10.0.1.1") as arbiter:
        for _ in range(security.MAX_FAILURES):
            assert _login(arbiter, event_id, "0000").status_code == 403
        assert _login(arbiter, event_id, PIN).status_code == 429
        came = _login(arbiter, event_id, code)
        assert came.status_code == 303
        assert came.headers["location"] == f"/desk/{event_id}/recovery"
        assert _login(arbiter, event_id, PIN).status_code == 303  # the lock was lifted
        assert _login(arbiter, event_id, code).status_code == 403  # and the code is spent


def _rows(app, model):
    from sqlalchemy import select

    with app.state.sessions() as session:
        return list(session.scalars(select(model)))


def test_recovery_codes_are_read_forgivingly_and_nothing_else_is_one():
    code = security.new_recovery_code()
    assert security.recovery_text(code) == code
    assert security.recovery_text(code.lower().replace("-", " ")) == code
    assert security.recovery_text(code.replace("0", "O").replace("1", "I")) == code
    for not_a_code in ("2468", "", "u" * 20, code + "0", "A" * 65, "ÄBCDE-FGHJK-MNPQR-STVWX"):
        assert security.recovery_text(not_a_code) is None
    assert len({security.new_recovery_code() for _ in range(50)}) == 50


def test_event_create_prints_a_recovery_code_that_opens_the_desk(tmp_path):
    from typer.testing import CliRunner

    from ball.cli import app as cli

    db = str(tmp_path / "cli.sqlite")
    args = ["event", "create", "--db", db, "--name", "C", "--system", "swiss"]
    run = CliRunner().invoke(cli, args)
    assert run.exit_code == 0, run.output
    first, second = run.output.splitlines()[:2]
    assert first.startswith("event 1: C (swiss)")
    code = security.recovery_text(second.split()[2])
    assert second.startswith("recovery code: ") and code is not None
    app = _app(db, Clock())
    assert all(code not in row.code_hash for row in _rows(app, security.DeskRecovery))
    with _client(app, "10.0.5.5") as arbiter:
        assert _login(arbiter, 1, "1234").status_code == 403  # a CLI event has no PIN
        came = _login(arbiter, 1, code)
        assert came.status_code == 303
        assert arbiter.get(came.headers["location"]).status_code == 200


def test_the_desk_makes_a_new_recovery_code_and_the_old_one_stops_working(tmp_path):
    import re

    app = _app(tmp_path / "n.sqlite", Clock())
    shown = re.compile(r'<p class="recovery-code"><code>([0-9A-Z-]+)</code>')
    with _client(app, "10.0.1.1") as arbiter:
        event_id = _create(arbiter)
        old = shown.search(arbiter.get(f"/desk/{event_id}").text).group(1)
        csrf = re.search(r'name="csrf" value="([^"]+)"', arbiter.get(f"/desk/{event_id}").text)
        noted = arbiter.post(
            f"/desk/{event_id}/recovery/noted", data={"csrf": csrf.group(1)}, follow_redirects=False
        )
        assert noted.status_code == 303
        page = arbiter.get(f"/desk/{event_id}/recovery").text
        assert shown.search(page) is None and old not in page  # noted: not shown any more
        made = arbiter.post(
            f"/desk/{event_id}/recovery", data={"csrf": csrf.group(1)}, follow_redirects=False
        )
        assert made.status_code == 303
        new = shown.search(arbiter.get(made.headers["location"]).text).group(1)
        assert new != old
    with _client(app, "10.0.1.2") as other:
        assert _login(other, event_id, old).status_code == 403
        assert _login(other, event_id, new).status_code == 303
