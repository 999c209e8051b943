"""Federation benchmark (issue 34): `ball serve --workers N` over a real PostgreSQL.

Starts a throwaway PostgreSQL (initdb in a temporary folder, Unix socket only, as the test
suite's fixture does), seeds `--events` events of `--players` entrants with round 1 paired
and a desk PIN, and runs four parts:

0. The yardstick: the mixed load of part 1 on one worker, as one `ball serve` process runs it.
1. Mixed load on `--workers` workers for `--seconds`: `--phones` phones each open one public
   page (standings, results or pairings of a random event) every `--phone-gap` seconds with
   the ETag they hold; `--desks` desks (one per event) each save a result every
   `--desk-gap` seconds; `--players-sim` simulator players each play an action every
   `--sim-gap` seconds (a tenth of them against the computer at "greedy"). Prints p50/p95
   of each kind and the failures.
2. Throughput of public pages with 1 and with 2 workers: `--clients` clients in a closed
   loop for `--tp-seconds` each, requests a second, and the CPU (user+system, from /proc)
   each worker, PostgreSQL and this load generator used; the yardstick is the 1-worker
   figure of the same run.
3. The mixed load again with a worker SIGKILLed every `--kill-every` seconds: acknowledged
   writes (desk 303s, simulator 200s) are then looked up in the database (lost = acked but
   not stored), requests failed other than by a dropped connection are counted, and the
   supervisor's replacement workers are counted.

Run: .venv/bin/python bench/federation.py [--workers 4] [--phones 500] [--seconds 60] ...
     (`--small`: 100 phones, 20 s per part, for a quick look)
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PIN = "8642"
CONNECTION_ERRORS = (httpx.TransportError,)


# ------------------------------------------------------------------ PostgreSQL


class Postgres:
    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            raise SystemExit("PostgreSQL is not installed (bash scripts/setup.sh installs it)")
        self.bin = found[-1].parent
        self.root = Path(tempfile.mkdtemp(prefix="ballfed-"))
        self.sock = self.root / "sock"
        self.sock.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.sock, "postgres")
        self._run(
            "initdb", "-D", str(self.root / "data"), "-U", "postgres", "--auth=trust", "--no-sync"
        )
        options = f"-k {self.sock} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run(
            "pg_ctl",
            "-D",
            str(self.root / "data"),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )
        self._run("psql", "-h", str(self.sock), "-U", "postgres", "-c", "CREATE DATABASE fed")
        self.url = f"postgresql+psycopg://postgres@/fed?host={self.sock}"

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.root)

    def cpu(self) -> float:
        """CPU seconds of every PostgreSQL process so far: the running ones, and the ended
        backends the server reaped (its children's time)."""
        pids = _pids_of(b"postgres")
        return sum(_cpu(pid) for pid in pids) + max((_cpu(p, True) for p in pids), default=0)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def _pids_of(name: bytes) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_bytes().strip() == name:
                    out.append(int(entry.name))
            except OSError:
                continue
    return out


def _cpu(pid: int, reaped: bool = False) -> float:
    """User+system CPU seconds of a process (0 when it is gone); `reaped`: of its ended
    children instead."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    first = 13 if reaped else 11
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------ the server


def seed(url: str, events: int, players: int) -> list[int]:
    from ball.tournament import TournamentService
    from ball.web.core import security

    svc = TournamentService(url)
    ids = []
    for n in range(events):
        event_id = svc.events.create_event(name=f"Hall {n + 1}", system="swiss", rounds=5)["id"]
        for i in range(players):
            svc.entrants.add_player(f"Coach {n + 1}-{i:03d}", rating=1500 + i, event=event_id)
        svc.rounds.pair_next_round(event=event_id)
        with svc.store.sessions() as s:
            security.set_pin(s, event_id, PIN, time.time())
            s.commit()
        ids.append(event_id)
    return ids


class Server:
    def __init__(self, url: str, workers: int) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ball.cli",
                "serve",
                "--db",
                url,
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--proxy",
                "127.0.0.1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        self.workers = workers
        self.seen: set[int] = set()
        deadline = time.monotonic() + 120
        while len(self.pids()) < workers or not self._answers():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit("ball serve did not start")
            time.sleep(0.2)

    def _answers(self) -> bool:
        try:
            return httpx.get(self.base + "/public", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def pids(self) -> set[int]:
        """The serving processes: the workers (or the one process with `--workers 1`)."""
        if self.workers == 1:
            return {self.proc.pid}
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        except OSError:
            return set()
        out = set()
        for pid in map(int, children.split()):
            try:
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    out.add(pid)
            except OSError:
                continue
        self.seen |= out
        return out

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# ------------------------------------------------------------------ the load

# Every phone, desk and player is a client of its own, as at a hall: the server runs behind
# a proxy (`--proxy 127.0.0.1`, as docs/deploy.md sets it up) and each client's requests
# carry its own X-Forwarded-For address, so the per-address limits (games made and kept,
# computer searches under way, request budgets) count each client apart.
ADDRESSES = (
    {"X-Forwarded-For": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}
    for n in itertools.count(1)
)


class Record:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.failed: dict[str, int] = {}
        self.statuses: dict[str, dict[int, int]] = {}  # the failed answers' status codes
        self.reasons: dict[tuple[str, int], str] = {}  # the first answer of each (kind, status)
        self.dropped = 0  # connection errors: a killed worker's open connections
        self.acked_results: list[tuple[int, int, int]] = []  # (event, round, table)
        self.acked_actions: dict[str, list[tuple[int, str]]] = {}  # game -> (version, action)

    def took(self, kind: str, seconds: float) -> None:
        self.times.setdefault(kind, []).append(seconds * 1000)

    def fail(self, kind: str, answer: httpx.Response) -> None:
        self.failed[kind] = self.failed.get(kind, 0) + 1
        codes = self.statuses.setdefault(kind, {})
        codes[answer.status_code] = codes.get(answer.status_code, 0) + 1
        self.reasons.setdefault((kind, answer.status_code), answer.text[:200])


async def phone(client, base, events, gap, stop, record, rng) -> None:
    me = next(ADDRESSES)
    held: dict[str, str] = {}
    await asyncio.sleep(rng.uniform(0, gap))
    while not stop.is_set():
        page = f"/public/{rng.choice(events)}/{rng.choice(('standings', 'results', 'pairings'))}"
        headers = {"If-None-Match": held[page]} if page in held else {}
        started = time.perf_counter()
        try:
            answer = await client.get(base + page, headers={**me, **headers})
        except CONNECTION_ERRORS:
            record.dropped += 1
        else:
            record.took("public page", time.perf_counter() - started)
            if answer.status_code in (200, 304):
                held[page] = answer.headers.get("etag", "")
            else:
                record.fail("public page", answer)
        await asyncio.sleep(gap * rng.uniform(0.8, 1.2))


async def desk(client, base, event_id, gap, stop, record, rng) -> None:
    me = next(ADDRESSES)
    cookies = None
    while cookies is None and not stop.is_set():
        try:
            login = await client.post(
                f"{base}/desk/{event_id}/login", data={"pin": PIN}, headers=me
            )
            cookies = {k: v for k, v in login.cookies.items()}
            page = (await client.get(f"{base}/desk/{event_id}", cookies=cookies, headers=me)).text
        except CONNECTION_ERRORS:
            cookies = None
            await asyncio.sleep(0.5)
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    if found is None:
        raise SystemExit(f"desk {event_id}: no session")
    csrf = found.group(1)
    table = 0
    await asyncio.sleep(rng.uniform(0, gap))
    while not stop.is_set():
        table += 1
        form = {
            "kind": "sheet",
            "version": 0,
            "csrf": csrf,
            "h1_td": "A",
            "h1_A_atk": 3,
            "h1_A_def": 1,
            "h1_B_atk": 1,
            "h1_B_def": 3,
            "h2_td": "",
            "h2_B_atk": 2,
            "h2_B_def": 1,
            "h2_A_atk": 1,
            "h2_A_def": 2,
        }
        path = f"{base}/desk/{event_id}/rounds/1/tables/{table}"
        while not stop.is_set():  # a save whose answer was lost is sent again, as a desk does
            started = time.perf_counter()
            try:
                answer = await client.post(path, data=form, cookies=cookies, headers=me)
            except CONNECTION_ERRORS:
                record.dropped += 1
                continue
            record.took("result save", time.perf_counter() - started)
            if answer.status_code == 303:
                record.acked_results.append((event_id, 1, table))
            elif answer.status_code != 404:  # 404: past the round's last table
                record.fail("result save", answer)
            break
        await asyncio.sleep(gap * rng.uniform(0.8, 1.2))


async def player(client, base, computer, gap, stop, record, rng) -> None:
    me = next(ADDRESSES)
    body = {"mode": "computer", "computer_level": "greedy"} if computer else {"mode": "play"}
    state = None
    while state is None and not stop.is_set():
        try:
            made = await client.post(base + "/api/games", json=body, headers=me)
        except CONNECTION_ERRORS:
            await asyncio.sleep(0.5)
            continue
        if made.status_code == 201:
            state = made.json()
        else:  # counted, and asked again a second later (not in a tight loop)
            record.fail("game creation", made)
            await asyncio.sleep(1.0)
    if state is None:
        return
    game_id = state["id"]
    acked = record.acked_actions.setdefault(game_id, [])
    await asyncio.sleep(rng.uniform(0, gap))
    while not stop.is_set() and state["legal"] and not state["over"]:
        action = rng.choice(state["legal"])
        started = time.perf_counter()
        try:
            answer = await client.post(
                f"{base}/api/games/{game_id}/actions",
                json={"action": action, "version": state["version"]},
                headers=me,
            )
        except CONNECTION_ERRORS:
            record.dropped += 1
            state = await _state(client, base, game_id, state, me)
            continue
        record.took("simulator move", time.perf_counter() - started)
        if answer.status_code == 200:
            state = answer.json()
            ply = next(e["ply"] for e in reversed(state["log"]) if e["action"] == action)
            acked.append((ply, action))
        elif answer.status_code == 409:  # a retried action already went through
            state = await _state(client, base, game_id, state, me)
        else:
            record.fail("simulator move", answer)
            state = await _state(client, base, game_id, state, me)
        await asyncio.sleep(gap * rng.uniform(0.5, 1.5))


async def _state(client, base, game_id, old, me):
    try:
        answer = await client.get(f"{base}/api/games/{game_id}", headers=me)
        return answer.json() if answer.status_code == 200 else old
    except CONNECTION_ERRORS:
        return old


async def killer(server: Server, every: float, stop, kills: list[int]) -> None:
    rng = random.Random(9)
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            pids = sorted(server.pids())
            if pids:
                victim = rng.choice(pids)
                os.kill(victim, signal.SIGKILL)
                kills.append(victim)


async def mixed(args, server: Server, events: list[int], kill: bool) -> tuple[Record, list[int]]:
    record = Record()
    stop = asyncio.Event()
    rng = random.Random(34)
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    kills: list[int] = []
    # phones come back every 30 s, long after uvicorn closed their idle connection: each
    # visit is a new connection, which the kernel hands to whichever worker accepts next
    fresh = httpx.Limits(max_connections=400, max_keepalive_connections=0)
    async with (
        httpx.AsyncClient(timeout=30, limits=limits, follow_redirects=False) as client,
        httpx.AsyncClient(timeout=30, limits=fresh) as phones,
    ):
        tasks = [
            phone(
                phones,
                server.base,
                events,
                args.phone_gap,
                stop,
                record,
                random.Random(rng.random()),
            )
            for _ in range(args.phones)
        ]
        tasks += [
            desk(client, server.base, e, args.desk_gap, stop, record, random.Random(rng.random()))
            for e in events[: args.desks]
        ]
        tasks += [
            player(
                client,
                server.base,
                i % 10 == 0,
                args.sim_gap,
                stop,
                record,
                random.Random(rng.random()),
            )
            for i in range(args.players_sim)
        ]
        if kill:
            tasks.append(killer(server, args.kill_every, stop, kills))
        running = [asyncio.ensure_future(t) for t in tasks]
        await asyncio.sleep(args.seconds)
        stop.set()
        await asyncio.gather(*running)
    return record, kills


def lost_writes(url: str, record: Record) -> tuple[int, int]:
    """Acknowledged results and simulator actions not found in the database."""
    import json

    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    lost_results = lost_actions = 0
    with engine.connect() as db:
        for event_id, number, table in record.acked_results:
            stored = db.scalar(
                text(
                    "select count(*) from tournament_results x join tournament_pairings p "
                    "on p.id = x.pairing_id join tournament_rounds r on r.id = p.round_id "
                    'where r.event_id = :e and r.number = :n and p."table" = :t'
                ),
                {"e": event_id, "n": number, "t": table},
            )
            lost_results += 0 if stored else 1
        for game_id, acked in record.acked_actions.items():
            actions = json.loads(
                db.scalar(text("select actions from web_games where id = :g"), {"g": game_id})
                or "[]"
            )
            lost_actions += sum(
                1 for ply, action in acked if ply > len(actions) or actions[ply - 1] != action
            )
    engine.dispose()
    return lost_results, lost_actions


def report(title: str, record: Record) -> None:
    print(f"\n{title}")
    for kind, times in sorted(record.times.items()):
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"  {kind:16s} n={len(times):6d}  p50 {statistics.median(times):7.1f} ms  "
            f"p95 {p95:7.1f} ms  failed {record.failed.get(kind, 0)}"
            + "".join(f"  [{c}: {n}]" for c, n in sorted(record.statuses.get(kind, {}).items()))
        )
    for kind in sorted(set(record.failed) - set(record.times)):
        codes = "".join(f"  [{c}: {n}]" for c, n in sorted(record.statuses[kind].items()))
        print(f"  {kind:16s} failed {record.failed[kind]}{codes}")
    for (kind, status), text in sorted(record.reasons.items()):
        print(f"  {kind} {status}: {text}")
    print(f"  dropped connections {record.dropped}")


async def closed_loop(base: str, pages: list[str], clients: int, seconds: float) -> int:
    """Pages answered 200 by `clients` clients, each asking again as soon as it has its
    answer. A bare HTTP/1.1 client on asyncio streams: httpx spent about 1.6 ms of this
    process's CPU per page (as much as the worker serving it), and on two cores the load
    generator's share is taken from the workers it measures. A connection per request, as
    phones make: kept-alive connections opened at once would all be accepted by the first
    worker to wake, and the others would idle."""
    host, port = base.removeprefix("http://").split(":")
    asks = [
        f"GET {page} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
        for page in pages
    ]
    done = 0
    stop = time.monotonic() + seconds

    async def one(rng: random.Random) -> None:
        nonlocal done
        while time.monotonic() < stop:
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(rng.choice(asks))
            answer = await reader.read()  # to the end: the server closes the connection
            writer.close()
            done += answer.startswith(b"HTTP/1.1 200 ")

    await asyncio.gather(*[one(random.Random(i)) for i in range(clients)])
    return done


def throughput(args, pg: Postgres, events: list[int]) -> None:
    pages = [f"/public/{e}/{kind}" for e in events for kind in ("standings", "results")]
    print(
        f"\nthroughput of public pages (closed loop, {args.clients} clients, {args.tp_seconds:g} s)"
    )
    rates = {}
    for workers in (1, 2):
        server = Server(pg.url, workers)
        asyncio.run(closed_loop(server.base, pages, args.clients, 3))  # warm every page
        pids = server.pids()
        before = {p: _cpu(p) for p in pids}
        pg_before, me_before = pg.cpu(), time.process_time()
        started = time.monotonic()
        done = asyncio.run(closed_loop(server.base, pages, args.clients, args.tp_seconds))
        wall = time.monotonic() - started
        used = {p: _cpu(p) - before[p] for p in pids}
        rates[workers] = done / wall
        per = ", ".join(f"{u / wall:.0%}" for u in used.values())
        print(
            f"  {workers} worker(s): {rates[workers]:7.1f} pages/s; CPU per worker {per}; "
            f"PostgreSQL {(pg.cpu() - pg_before) / wall:.0%}; "
            f"load generator {(time.process_time() - me_before) / wall:.0%}"
        )
        server.stop()
    print(f"  2 workers / 1 worker: {rates[2] / rates[1]:.2f}x (yardstick: the 1-worker run)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--phone-gap", type=float, default=30.0)
    parser.add_argument("--desks", type=int, default=10)
    parser.add_argument("--desk-gap", type=float, default=3.0)
    parser.add_argument("--players-sim", type=int, default=50)
    parser.add_argument("--sim-gap", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--tp-seconds", type=float, default=20.0)
    parser.add_argument("--kill-every", type=float, default=10.0)
    parser.add_argument("--small", action="store_true", help="100 phones, 20 s parts")
    parser.add_argument("--parts", default="single,mixed,throughput,kill")
    args = parser.parse_args()
    if args.small:
        args.phones, args.phone_gap, args.seconds, args.tp_seconds = 100, 6.0, 20.0, 10.0
    parts = set(args.parts.split(","))
    pg = Postgres()
    try:
        events = seed(pg.url, args.events, args.players)
        print(
            f"PostgreSQL {pg.bin.parent.name}; {args.events} events of {args.players}; "
            f"{args.phones} phones every {args.phone_gap:g} s, {args.desks} desks every "
            f"{args.desk_gap:g} s, {args.players_sim} simulator players every "
            f"{args.sim_gap:g} s; {args.workers} workers; {os.cpu_count()} cores; load "
            f"average {os.getloadavg()[0]:.1f} (other work on the machine takes its share)"
        )
        if "single" in parts:
            # the yardstick: the same load on one process, as `ball serve` runs at a venue
            server = Server(pg.url, 1)
            record, _ = asyncio.run(mixed(args, server, events, kill=False))
            server.stop()
            report(f"mixed load on 1 worker (the yardstick), {args.seconds:g} s", record)
        if "mixed" in parts:
            server = Server(pg.url, args.workers)
            record, _ = asyncio.run(mixed(args, server, events, kill=False))
            server.stop()
            report(f"mixed load, {args.seconds:g} s", record)
        if "throughput" in parts:
            throughput(args, pg, events)
        if "kill" in parts:
            # a fresh round of tables for the desks: round 1's were saved above
            server = Server(pg.url, args.workers)
            record, kills = asyncio.run(mixed(args, server, events[::-1], kill=True))
            alive = server.pids()
            replaced = len(server.seen) - args.workers
            server.stop()
            report(f"mixed load with a worker SIGKILLed every {args.kill_every:g} s", record)
            lost = lost_writes(pg.url, record)
            print(
                f"  kills {len(kills)}; new workers started {replaced}; workers alive at the "
                f"end {len(alive)}; acknowledged results {len(record.acked_results)} "
                f"(lost {lost[0]}); acknowledged simulator actions "
                f"{sum(map(len, record.acked_actions.values()))} (lost {lost[1]}); failed "
                f"requests {sum(record.failed.values())}"
            )
        print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
