"""Several server processes over one PostgreSQL database (issue 34): every promise that a
single process kept in its memory holds across real `ball serve` processes sharing the
database (each test starts two or more, on loopback ports of their own, so a test chooses
which process a request reaches), and `ball serve --workers N` runs and replaces workers."""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sqlalchemy import text

from ball.storage import make_engine, migrate
from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError
from ball.web.core import security
from desk.test_result_sigkill import PIN, Desk, result_form

_NUMBERS = itertools.count(1)


def _event(
    url: str, players: int = 8, system: str = "round-robin"
) -> tuple[int, TournamentService]:
    svc = TournamentService(url)
    name = f"Federation Open {next(_NUMBERS)}"
    event_id = svc.events.create_event(name=name, system=system)["id"]
    for i in range(players):
        svc.entrants.add_player(f"P{i:02d}", event=event_id)
    with svc.store.sessions() as s:
        security.set_pin(s, event_id, PIN, time.time())
        s.commit()
    return event_id, svc


def _call(base: str, method: str, path: str, body: dict | None = None, headers=None):
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body)
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def test_two_desks_save_one_round_through_two_processes(server_process, fresh_postgres_url):
    event_id, svc = _event(fresh_postgres_url, players=12)
    svc.rounds.pair_next_round(event=event_id)
    one, two = server_process(fresh_postgres_url), server_process(fresh_postgres_url)
    desks = [Desk(one.url, event_id), Desk(two.url, event_id)]
    for desk in desks:
        desk.login()
    answers: dict[int, int] = {}

    def enter(desk: Desk, tables: list[int]) -> None:
        for table in tables:
            answers[table] = desk.save(1, table, result_form(1, table))

    # the six tables of round 1, saved at once by the two desks, each through its process
    threads = [
        threading.Thread(target=enter, args=(desks[0], [1, 3, 5])),
        threading.Thread(target=enter, args=(desks[1], [2, 4, 6])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert answers == {t: 303 for t in range(1, 7)}
    stored = {t["table"]: t for t in svc.rounds.pairings(event=event_id)}
    assert all(stored[t]["result"] is not None for t in range(1, 7)), stored

    # both desks loaded table 1's form at version 0; the first save came through process
    # one, so the second desk's other result, through process two, is stale: 409, unwritten
    event_two = _event(fresh_postgres_url, players=2)[0]
    svc.rounds.pair_next_round(event=event_two)
    first, second = Desk(one.url, event_two), Desk(two.url, event_two)
    first.login()
    second.login()
    mine = result_form(1, 1)
    theirs = {**mine, "sanction0_reason": "another arbiter's note"}
    assert first.save(1, 1, mine) == 303
    assert second.save(1, 1, theirs) == 409
    with svc.store.sessions() as s:
        reasons = s.scalars(
            text("select reason from desk_sanctions where event_id = :e order by id"),
            {"e": event_two},
        ).all()
    assert reasons == ["r1 t1: slow play", "r1 t1: phone"]  # the first desk's, alone


def test_simulator_game_played_alternately_through_two_processes(
    server_process, fresh_postgres_url
):
    one, two = server_process(fresh_postgres_url), server_process(fresh_postgres_url)
    status, _, body = _call(one.url, "POST", "/api/games", {"mode": "free"})
    assert status == 201, body
    game = json.loads(body)
    rng = random.Random(34)
    acknowledged: list[str] = []
    version = game["version"]
    for ply in range(24):  # one action through each process in turn
        base = (one, two)[ply % 2].url
        status, _, body = _call(base, "GET", f"/api/games/{game['id']}/legal")
        assert status == 200
        action = rng.choice(json.loads(body)["actions"])
        sent = {"action": action, "version": version}
        status, _, body = _call(base, "POST", f"/api/games/{game['id']}/actions", sent)
        assert status == 200, body
        version = json.loads(body)["version"]
        acknowledged.append(action)

    # now both at once, each through its own process, on the version each last saw: every
    # acknowledged action is in the log once, in the order of the versions it made
    made: dict[int, str] = {}
    refused = []

    def play(base: str, seed: int) -> None:
        mine = random.Random(seed)
        for _ in range(12):
            _, _, body = _call(base, "GET", f"/api/games/{game['id']}")
            state = json.loads(body)
            if not state["legal"]:
                return
            action = mine.choice(state["legal"])
            sent = {"action": action, "version": state["version"]}
            status, _, body = _call(base, "POST", f"/api/games/{game['id']}/actions", sent)
            if status == 200:
                made[json.loads(body)["version"]] = action
            else:
                refused.append(status)

    threads = [threading.Thread(target=play, args=(b.url, s)) for b, s in ((one, 1), (two, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert set(refused) <= {409}, refused
    for base in (one.url, two.url):
        _, _, body = _call(base, "GET", f"/api/games/{game['id']}")
        log = [entry["action"] for entry in json.loads(body)["log"]]
        assert log == acknowledged + [made[v] for v in sorted(made)]
        assert json.loads(body)["version"] == version + len(made)


def test_page_cached_in_one_process_is_fresh_after_a_write_in_another(
    server_process, fresh_postgres_url
):
    event_id, svc = _event(fresh_postgres_url, players=4)
    svc.rounds.pair_next_round(event=event_id)
    one, two = server_process(fresh_postgres_url), server_process(fresh_postgres_url)
    page = f"/public/{event_id}/results"
    status, headers, before = _call(two.url, "GET", page)
    assert status == 200
    etag = headers["etag"]
    assert _call(two.url, "GET", page, headers={"If-None-Match": etag})[0] == 304  # cached
    desk = Desk(one.url, event_id)
    desk.login()
    assert desk.save(1, 1, result_form(1, 1)) == 303  # acknowledged by process one
    # the next phone at process two, holding the old page, gets the new one: the token is
    # read from the database on every request (no render of it was in progress there)
    status, headers, after = _call(two.url, "GET", page, headers={"If-None-Match": etag})
    assert status == 200 and headers["etag"] != etag
    assert after != before
    assert after == _call(one.url, "GET", page)[2]  # what the writing process shows


def test_pin_throttle_holds_across_processes(server_process, fresh_postgres_url):
    event_id, _svc = _event(fresh_postgres_url, players=2)
    servers = [server_process(fresh_postgres_url) for _ in range(3)]
    path = f"/desk/{event_id}/login"
    statuses = []
    for attempt in range(security.MAX_FAILURES + 1):  # wrong PINs, spread over 3 processes
        desk = Desk(servers[attempt % 3].url, event_id)
        statuses.append(desk.request("POST", path, {"pin": "0000"})[0])
    assert 429 not in statuses[: security.MAX_FAILURES], statuses
    assert statuses[-1] == 429, statuses  # the lock, counted by all three, holds everywhere
    for server in servers:  # even the right PIN waits out the address's lock
        assert Desk(server.url, event_id).request("POST", path, {"pin": PIN})[0] == 429


def test_pairing_is_one_at_a_time_per_event_across_processes(fresh_postgres_url):
    """Two services (two engines, as two processes have) pair the same event at once: one
    round is stored, the other call is refused by the rules, never by the database."""
    outcomes: list[str] = []

    def pair(svc: TournamentService, event_id: int, start: threading.Barrier) -> None:
        start.wait()
        try:
            svc.rounds.pair_next_round(event=event_id)
            outcomes.append("paired")
        except TournamentError as exc:
            outcomes.append(str(exc))

    for attempt in range(4):
        event_id, _ = _event(fresh_postgres_url, players=8, system="swiss")
        services = [TournamentService(fresh_postgres_url) for _ in range(2)]
        start = threading.Barrier(2)
        threads = [threading.Thread(target=pair, args=(s, event_id, start)) for s in services]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        with services[0].store.sessions() as s:
            numbers = s.scalars(
                text("select number from tournament_rounds where event_id = :e"), {"e": event_id}
            ).all()
        assert numbers == [1], (attempt, numbers)
    assert outcomes.count("paired") == 4, outcomes
    refusals = [o for o in outcomes if o != "paired"]
    assert len(refusals) == 4
    assert all("still has tables without a result" in o for o in refusals), refusals


def _children(pid: int) -> set[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return {int(p) for p in found}


def _workers(pid: int) -> set[int]:
    """The uvicorn workers of `ball serve`'s process (its children running Python's
    multiprocessing spawn; not a helper such as the resource tracker)."""
    out = set()
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in command:
            out.add(child)
    return out


@pytest.mark.parametrize("server", ["ball serve", "uvicorn --factory"])
def test_workers_run_and_a_killed_worker_is_replaced(server, fresh_postgres_url):
    """`ball serve --workers 2`, and any ASGI server's workers on the same factory."""
    with socket_port() as port:
        pass
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if server == "ball serve":
        args = [sys.executable, "-m", "ball.cli", "serve", "--db", fresh_postgres_url]
        args += ["--port", str(port), "--workers", "2", "--demo"]
    else:
        migrate(make_engine(fresh_postgres_url))  # as the deployment's first command does
        env.update({"BALL_DB": fresh_postgres_url, "BALL_WORKERS": "2"})
        args = [sys.executable, "-m", "uvicorn", "--factory", "ball.web.workers:app_from_env"]
        args += ["--port", str(port), "--workers", "2"]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while len(_workers(proc.pid)) < 2 or not _answers(base):
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        first = _workers(proc.pid)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 90
        while True:  # a new worker takes the killed one's place
            now = _workers(proc.pid)
            if len(now) == 2 and victim not in now:
                break
            assert time.monotonic() < deadline, f"no new worker: {now}"
            time.sleep(0.2)
        assert len(now - first) == 1
        for _ in range(20):  # and the server answers, whichever worker takes the request
            assert _call(base, "GET", "/public")[0] == 200
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _answers(base: str) -> bool:
    try:
        return _call(base, "GET", "/openapi.json")[0] == 200
    except OSError:
        return False


class socket_port:  # noqa: N801 - used as a context manager for a free port
    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return self.sock.getsockname()[1]

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def test_serve_refuses_workers_on_sqlite(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ball.cli",
            "serve",
            "--db",
            str(tmp_path / "t.sqlite"),
            "--workers",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--workers 2 needs PostgreSQL" in lines[0], done.stderr
    assert not (tmp_path / "t.sqlite").exists()  # refused before anything was opened


def test_creation_rate_is_counted_once_for_every_process(
    server_process, fresh_postgres_url, monkeypatch
):
    monkeypatch.setenv("BALL_MAX_CREATIONS", "3")
    servers = [server_process(fresh_postgres_url) for _ in range(2)]
    answers = []
    for n in range(5):  # new events (each a scrypt hash), alternately through each process
        desk = Desk(servers[n % 2].url, 0)
        form = {"name": f"Hall {n}", "system": "swiss", "pin": PIN, "pin2": PIN}
        answers.append(desk.request("POST", "/desk/events", form)[0])
    assert answers == [303, 303, 303, 429, 429]


def test_a_tables_xiangqi_game_is_made_once_when_two_processes_ask_at_once(
    fresh_postgres_url, monkeypatch
):
    """The desk's "Record the game" through two processes at once: one game for the table
    (the unique key stops the second insert), and both answers name it."""
    from ball.games.xiangqi.web.game_store import XiangqiStore
    from ball.play import write_locks as games
    from ball.storage import open_database

    stores = []
    for _ in range(2):  # each with its own write lock, as in two processes
        monkeypatch.setattr(games, "_write_locks", {})
        stores.append(XiangqiStore(open_database(fresh_postgres_url)[1]))

    def record(store: XiangqiStore, table: int, start: threading.Barrier, ids: list) -> None:
        start.wait()
        try:
            ids.append(store.for_table(1, 1, table, f"Table {table}"))
        except BaseException as exc:  # noqa: BLE001 - the failure is the finding
            ids.append(exc)

    for table in range(1, 9):
        start = threading.Barrier(2)
        ids: list[int | BaseException] = []
        threads = [threading.Thread(target=record, args=(s, table, start, ids)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert len(ids) == 2 and ids[0] == ids[1] and isinstance(ids[0], int), ids
