"""Public display benchmark (issue 15, target 2): what a hall of phones costs the server.

1. CPU per view at N entrants (default 1,000), in-process through the app: the standings,
   results and pairings pages cold (a fresh app, nothing cached), warm (nothing changed
   since the last view), warm answered 304 (the phone sends its ETag), and the first view
   after a result (each time a new result is entered first, through a second service on
   the same file as the CLI would); "(render)" is the CPU of the render after a result
   alone, in the thread that rendered it (`time.thread_time`). Beside them the yardstick:
   a bare FastAPI endpoint returning a static page of the same size through the same
   client, in the same run.
2. 200 phones (default) refreshing every 30 s on a 500-entrant event against a live
   server (uvicorn, its own process), while an arbiter enters a result every 3 s. With
   `--writer desk` (the default: the venue's case) the arbiter saves a score sheet through
   the desk's HTTP route, signed in with the event's PIN, so the write happens in the
   server's process and its public pages render again in the background (D-P1). With
   `--writer process` it enters results from a third process (the CLI's path: another
   process writing the same file), which the server learns of only by the event's token.
   Phones send the ETag they last got, as a browser's reload does. Prints p50/p95/p99 of
   the phones' latency beside the same phones against the bare endpoint, and the server's
   own counts: renders, background passes, previous pages served and the oldest of them
   (seconds since the server learned of the write it predates).

The event is a Swiss of N entrants with `--rounds` rounds paired by the arbiter (set
pairings, so the benchmark does not time the pairing engine), every table of the earlier
rounds with a score sheet and the last round half entered.

Run: .venv/bin/python bench/public.py [--entrants 1000] [--phones 200] [--period 30]
     [--duration 60] [--writer desk|process] [--keep DIR] [--skip-phones] [--skip-views]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse
    from fastapi.testclient import TestClient

from ball.tournament import berger
from ball.tournament.service import TournamentService
from ball.web import page_cache
from ball.web.app import create_app
from ball.web.core import security

PAGES = ("standings", "results", "pairings")
PIN = "2468"  # the desk writer's
FAILED: list[str] = []  # phones' requests that failed (timeouts, errors), reported
# when each phone's request started (time.monotonic), beside its latency in `lat`: the
# first period is every page's first view since the server started (cold renders)
STARTED: list[float] = []
# what each of those requests was: its URL and answer (HTTP status, 0 for a timeout)
ASKED: list[tuple[str, int]] = []


def sheet(rng: random.Random) -> dict:
    """A legal score sheet (coach A ATK in the first half, PB on both coaches)."""
    halves = []
    for atk in ("A", "B"):
        a_atk, b_atk = rng.randint(0, 9), rng.randint(0, 9)
        candidates = [None, None] + [c for c, pb in (("A", a_atk), ("B", b_atk)) if pb > 0]
        halves.append(
            {
                "atk_first": atk,
                "td": rng.choice(candidates),
                "pb": {"A": {"atk": a_atk, "def": b_atk}, "B": {"atk": b_atk, "def": a_atk}},
            }
        )
    return {"coaches": ["A", "B"], "halves": halves, "forfeit": None}


def build(db: str, entrants: int, rounds: int, seed: int = 1) -> tuple[int, list[int]]:
    """The event; returns its id and the tables of the last round still without a result."""
    rng = random.Random(seed)
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Bench Open", system="swiss", rounds=rounds + 1)["id"]
    names = [f"Coach {i:04d}" for i in range(1, entrants + 1)]
    for i, name in enumerate(names):
        svc.entrants.add_player(name, rating=2400 - i, event=event_id)
    open_tables: list[int] = []
    for number in range(1, rounds + 1):
        # Berger rounds never repeat a pair; by pairing number = registration order here
        pairs = berger.round_robin_round(entrants, number, 1)
        tables = [(names[w - 1], names[b - 1] if b else None) for w, b in pairs]
        svc.rounds.set_pairing(number, tables, event=event_id)
        playing = [t for t, (_, b) in enumerate(tables, start=1) if b is not None]
        last = number == rounds
        for t in playing:
            if last and t % 2 == 0:
                open_tables.append(t)
                continue
            svc.results.enter_result(number, t, sheet=sheet(rng), event=event_id)
    svc.engine.dispose()
    return event_id, open_tables


def built(db: str, entrants: int, rounds: int, keep: str | None) -> tuple[int, list[int]]:
    """`build`, or a copy of the event a previous run kept in `keep` (--keep DIR)."""
    if keep is None:
        return build(db, entrants, rounds)
    saved = Path(keep) / f"public-{entrants}x{rounds}.sqlite"
    meta = saved.with_suffix(".json")
    if not saved.exists():
        Path(keep).mkdir(parents=True, exist_ok=True)
        event_id, open_tables = build(str(saved), entrants, rounds)
        meta.write_text(json.dumps([event_id, open_tables]))
    shutil.copyfile(saved, db)
    event_id, open_tables = json.loads(meta.read_text())
    return event_id, open_tables


def cpu_ms(call) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def bare_app(size: int) -> FastAPI:
    """The yardstick: a FastAPI endpoint returning a static page of `size` bytes."""
    app = FastAPI()
    page = ("<!doctype html><p>" + "x" * size + "</p>").encode()

    @app.get("/static", response_class=HTMLResponse)
    def static_page() -> HTMLResponse:
        return HTMLResponse(page)

    return app


def render_cpu(app: FastAPI, into: list[float]) -> None:
    """Record in `into` the CPU of each page render of `app`, in the thread that renders it
    (`time.thread_time`): the request's own render, apart from anything else the process
    does at the same moment (a background render, the client)."""
    cache = page_cache.app_cache(app)
    plain = cache.render_once

    def timed(key: str, build: Callable[[], page_cache.Page]) -> page_cache.Page:
        def build_timed() -> page_cache.Page:
            start = time.thread_time()
            try:
                return build()
            finally:
                into.append((time.thread_time() - start) * 1000)

        return plain(key, build_timed)

    cache.render_once = timed  # type: ignore[method-assign]


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def views(db: str, event_id: int, open_tables: list[int], rounds: int, repeat: int) -> None:
    writer = TournamentService(db)  # another service on the file: the CLI's way in
    sizes: dict[str, int] = {}
    print(f"CPU per view, ms (median of {repeat}; cold = a fresh app)")
    print(f"  {'page':<10} {'bytes':>9} {'cold':>8} {'warm':>8} {'304':>8} {'after':>8} "
          f"{'(render)':>9}")  # fmt: skip
    for page in PAGES:
        url = f"/public/{event_id}/{page}?refresh=0"
        cold, warm, not_modified, after = [], [], [], []
        for _ in range(repeat):
            client = TestClient(create_app(db))
            cold.append(cpu_ms(partial(client.get, url)))
            client.close()
        app = create_app(db)
        rendered: list[float] = []
        render_cpu(app, rendered)
        client = TestClient(app)
        first = client.get(url)
        sizes[page] = len(first.content)
        etag = first.headers.get("etag")
        for _ in range(repeat):
            warm.append(cpu_ms(partial(client.get, url)))
            if etag:
                headers = {"If-None-Match": etag}
                not_modified.append(cpu_ms(partial(client.get, url, headers=headers)))
        rendered.clear()
        for _ in range(min(repeat, len(open_tables))):
            table = open_tables.pop()
            writer.results.enter_result(
                rounds, table, sheet=sheet(random.Random(table)), event=event_id
            )
            after.append(cpu_ms(partial(client.get, url)))
        client.close()
        nm = f"{median(not_modified):8.1f}" if not_modified else "     n/a"
        print(f"  {page:<10} {sizes[page]:>9} {median(cold):8.1f} {median(warm):8.1f} {nm} "
              f"{median(after):8.1f} {median(rendered):9.1f}")  # fmt: skip
    writer.engine.dispose()
    biggest = max(sizes.values())
    bare = TestClient(bare_app(biggest))
    bare.get("/static")
    yard = [cpu_ms(lambda: bare.get("/static")) for _ in range(repeat)]
    print(f"  yardstick: bare FastAPI endpoint, static page of {biggest} bytes: "
          f"{median(yard):.1f} ms")  # fmt: skip


# ------------------------------------------------------------------ phones


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: str, port: int, factory: str) -> subprocess.Popen:
    env = {**os.environ, "BALL_DB": db}
    cmd = [
        sys.executable, "-m", "uvicorn", "--factory", factory,
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, cwd=Path(__file__).parent)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/docs", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start")


async def phone(
    http: httpx.AsyncClient,
    urls: list[str],
    period: float,
    until: float,
    seed: int,
    lat: list[float],
) -> None:
    rng = random.Random(seed)
    url = rng.choice(urls)
    etag: str | None = None
    await asyncio.sleep(rng.uniform(0, period))  # phones were switched on at random times
    while time.monotonic() < until:
        headers = {"If-None-Match": etag} if etag else {}
        t0 = time.perf_counter()
        STARTED.append(time.monotonic())
        try:
            try:
                r = await http.get(url, headers=headers)
            except (httpx.ReadError, httpx.RemoteProtocolError):
                # the server closed the idle keep-alive connection (uvicorn: after 5 s) as
                # the phone reused it; a browser sends the request again on a new one
                r = await http.get(url, headers=headers)
        except httpx.TimeoutException:  # counted at the timeout, and reported
            lat.append(time.perf_counter() - t0)
            ASKED.append((url, 0))
            FAILED.append(f"{url}: no answer in 60 s")
            continue
        lat.append(time.perf_counter() - t0)
        ASKED.append((url, r.status_code))
        if r.status_code not in (200, 304):
            FAILED.append(f"{url}: HTTP {r.status_code}")
        etag = r.headers.get("etag", etag)
        await asyncio.sleep(period)


def arbiter(db: str, event_id: int, rounds: int, tables: list[int], every: float,
            stop: Any, done: Any) -> None:  # fmt: skip
    """Enter one result every `every` seconds (another writer on the file, like the CLI),
    in a process of its own: in the phones' process its CPU would delay their clocks."""
    svc = TournamentService(db)
    while tables and not stop.wait(every):
        svc.results.enter_result(rounds, tables.pop(), sheet=sheet(random.Random(done.value)),
                         event=event_id)  # fmt: skip
        done.value += 1
    svc.engine.dispose()


def sheet_form(sheet: dict) -> dict[str, str]:
    """The desk's result form for `sheet` (A attacks first; PBDEF as the opponent's PBATK)."""
    form = {"kind": "sheet"}
    for half, h in enumerate(sheet["halves"], start=1):
        form[f"h{half}_td"] = h["td"] or ""
        for side in ("A", "B"):
            form[f"h{half}_{side}_atk"] = str(h["pb"][side]["atk"])
            form[f"h{half}_{side}_def"] = str(h["pb"][side]["def"])
    return form


def desk_arbiter(base: str, event_id: int, rounds: int, tables: list[int], every: float,
                 stop: Any, done: Any, answers: Any) -> None:  # fmt: skip
    """Save one score sheet every `every` seconds through the desk's HTTP route (signed
    in with the PIN): the write happens in the server's process, as at a venue. A process
    of its own, like the other writer. `answers`: the desk's POST latencies, seconds."""
    with httpx.Client(base_url=base, timeout=60) as desk:
        login = desk.post(f"/desk/{event_id}/login", data={"pin": PIN})
        if login.status_code >= 400:
            raise SystemExit(f"desk login failed: HTTP {login.status_code}")
        found = re.search(r'name="csrf" value="([^"]+)"', desk.get(f"/desk/{event_id}").text)
        if found is None:
            raise SystemExit("no CSRF token on the desk page")
        while tables and not stop.wait(every):
            table = tables.pop()
            form = {"csrf": found.group(1), "version": "0",
                    **sheet_form(sheet(random.Random(done.value)))}  # fmt: skip
            t0 = time.perf_counter()
            saved = desk.post(f"/desk/{event_id}/rounds/{rounds}/tables/{table}", data=form)
            answers.append(time.perf_counter() - t0)
            if saved.status_code != 303:
                FAILED.append(f"desk result at table {table}: HTTP {saved.status_code}")
                continue
            done.value += 1


def phones_run(
    base: str, urls: list[str], phones: int, period: float, duration: float
) -> list[float]:
    lat: list[float] = []
    STARTED.clear()
    ASKED.clear()
    until = time.monotonic() + duration

    async def all_phones() -> None:
        # one client, one connection per phone: 200 clients cost the benchmark's own process
        # seconds of CPU (an SSL context each), which showed as the server's latency
        limits = httpx.Limits(max_connections=phones, max_keepalive_connections=phones)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            await asyncio.gather(
                *(phone(http, urls, period, until, i, lat) for i in range(phones))
            )

    asyncio.run(all_phones())
    return lat


def report(label: str, lat: list[float], period: float | None = None) -> None:
    """Percentiles of all the phones' requests; with `period`, also of those that started
    after the first period (every phone's page seen once: the server's steady state)."""
    if FAILED:
        print(f"  {len(FAILED)} requests failed, e.g. {FAILED[0]}")
        FAILED.clear()
    rows = [(label, lat)]
    if period is not None and STARTED:
        first = min(STARTED) + period
        steady = [x for t, x in zip(STARTED, lat, strict=True) if t >= first]
        rows.append(("  after the first period", steady))
    for name, samples in rows:
        if len(samples) < 2:
            continue
        q = statistics.quantiles(sorted(samples), n=100)
        print(f"  {name:<34} n={len(samples):5d}  p50 {q[49] * 1000:6.1f} ms  "
              f"p95 {q[94] * 1000:6.1f} ms  p99 {q[98] * 1000:6.1f} ms")  # fmt: skip
    if period is not None and len(ASKED) == len(lat):
        first_period(lat, period)


def page_of(url: str) -> str:
    """The page a phone's URL asks for, with its query ("standings?page=3")."""
    return url.rsplit("/", 1)[-1]


def first_period(lat: list[float], period: float) -> None:
    """Where the first period's tail is: its requests by page kind and answer (200 = the
    page's body, 304 = unchanged), and the slowest of them with when they started."""
    start = min(STARTED)
    early = [(t - start, url, status, x) for t, (url, status), x in
             zip(STARTED, ASKED, lat, strict=True) if t - start < period]  # fmt: skip
    kinds: dict[str, list[float]] = {}
    for _, url, status, x in early:  # the page: "standings", "results", "static" ...
        kinds.setdefault(f"{page_of(url).split('?')[0]} {status}", []).append(x)
    for kind, samples in sorted(kinds.items()):
        samples.sort()
        p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
        print(f"    first period, {kind:<14} n={len(samples):4d}  "
              f"p50 {samples[len(samples) // 2] * 1000:6.1f}  p95 {p95 * 1000:6.1f}  "
              f"max {samples[-1] * 1000:6.1f} ms")  # fmt: skip
    slowest = sorted(early, key=lambda e: -e[3])[:8]
    print("    slowest: " + ", ".join(
        f"{page_of(url)} {status} at {at:.1f} s {x * 1000:.0f} ms"
        for at, url, status, x in slowest))  # fmt: skip


def phones_bench(db: str, entrants: int, rounds: int, args: argparse.Namespace) -> None:
    event_id, open_tables = built(db, entrants, rounds, args.keep)
    svc = TournamentService(db)
    with svc.store.sessions.begin() as session:  # the desk writer signs in with it
        security.set_pin(session, event_id, PIN, time.time())
    svc.engine.dispose()
    pages = -(-entrants // 8)
    urls = [f"/public/{event_id}/standings?page={p}" for p in range(1, pages + 1)]
    urls += [f"/public/{event_id}/pairings", f"/public/{event_id}/results"] * 4
    print(
        f"{args.phones} phones, one view every {args.period:.0f} s each, for "
        f"{args.duration:.0f} s, {entrants} entrants, a result every {args.every:.0f} s "
        f"({args.writer} writer)"
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port, "public:counted_app")
    spawn = multiprocessing.get_context("spawn")
    stop, written = spawn.Event(), spawn.Value("i", 0)
    manager = spawn.Manager()
    answers = manager.list()
    if args.writer == "desk":
        work: tuple[Any, ...] = (base, event_id, rounds, open_tables, args.every, stop, written,
                                 answers)  # fmt: skip
        writer = spawn.Process(target=desk_arbiter, args=work)
    else:
        work = (db, event_id, rounds, open_tables, args.every, stop, written)
        writer = spawn.Process(target=arbiter, args=work)
    try:
        writer.start()
        lat = phones_run(base, urls, args.phones, args.period, args.duration)
        counts = httpx.get(f"{base}/bench/counts", timeout=60).json()
    finally:
        stop.set()
        writer.join()
        server.terminate()
        server.wait(timeout=10)
    report(f"public pages ({written.value} results entered)", lat, args.period)
    print(f"  server: {counts['renders']} renders, {counts['passes']} background passes, "
          f"{counts['stale_served']} previous pages served, the oldest "
          f"{counts['stale_age'] * 1000:.0f} ms after its write was learned")  # fmt: skip
    if answers:
        desk = sorted(answers)
        print(f"  desk: {len(desk)} results saved, POST median {median(desk) * 1000:.0f} ms, "
              f"max {desk[-1] * 1000:.0f} ms")  # fmt: skip
    manager.shutdown()
    port = free_port()
    yard = serve(db, port, "public:yardstick_app")
    try:
        lat = phones_run(f"http://127.0.0.1:{port}", ["/static"], args.phones, args.period,
                         args.duration)  # fmt: skip
    finally:
        yard.terminate()
        yard.wait(timeout=10)
    report("yardstick: bare FastAPI static page", lat, args.period)


def counted_app() -> FastAPI:
    """The benchmarked server (uvicorn --factory public:counted_app): the toolbox on BALL_DB
    with one route more, for this benchmark only, telling its page cache's counts."""
    app = create_app()

    @app.get("/bench/counts")
    def counts() -> dict[str, float]:
        # zeros for what a cache does not count (older code on PYTHONPATH: a before/after)
        cache = getattr(app.state, "page_cache", None)
        names = ("renders", "passes", "stale_served", "stale_age")
        return {name: getattr(cache, name, 0) for name in names}

    return app


def yardstick_app() -> FastAPI:
    """The phones' yardstick server (uvicorn --factory public:yardstick_app)."""
    return bare_app(20_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--phone-entrants", type=int, default=500)
    parser.add_argument("--period", type=float, default=30.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between results")
    parser.add_argument(
        "--writer",
        choices=("desk", "process"),
        default="desk",
        help="desk: results saved through the desk's HTTP route in the server's process (a "
        "venue); process: entered by another process on the file (the CLI's way)",
    )
    parser.add_argument("--keep", help="keep the built events in this directory, reuse them")
    parser.add_argument("--skip-views", action="store_true")
    parser.add_argument("--skip-phones", action="store_true")
    args = parser.parse_args()
    # /dev/shm when there is one: the benchmark times the server, not the disk's fsync
    where = "/dev/shm" if Path("/dev/shm").is_dir() else None
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min)")
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        if not args.skip_views:
            db = str(Path(tmp) / "views.sqlite")
            t0 = time.perf_counter()
            event_id, open_tables = built(db, args.entrants, args.rounds, args.keep)
            print(f"built {args.entrants} entrants x {args.rounds} rounds in "
                  f"{time.perf_counter() - t0:.1f} s")  # fmt: skip
            views(db, event_id, open_tables, args.rounds, args.repeat)
        if not args.skip_phones:
            phones_bench(str(Path(tmp) / "phones.sqlite"), args.phone_entrants, args.rounds, args)


if __name__ == "__main__":
    main()
