"""The fast paths on a user's measure, with and without each in the same run (issue 31).

Parts (each repeated `--repeats` times, the sides alternating, each first in turn, the
median reported with the ratio; a yardstick of the same run beside it):

- `cli`: wall time of an arbiter's script of 100 `ball` commands (create an event, add 34
  entrants, pair and show three rounds, enter every result from a score-sheet file, print
  the standings, four help screens), run three ways: through the start-up agent (the
  default), in-process with the front door (BALL_AGENT=0: `ball --help` drawn without Typer,
  a command imports its own group only), and the Typer app called directly (BALL_AGENT=0,
  every group imported). Yardstick: 100 times `python -c pass`.
- `sim`: a simulator move's latency (p50/p95) and the server's CPU per move with `--players`
  players (default 200) each playing its own free-play game, thinking `--think` seconds
  (default 6, from half to one and a half times that) between moves. Yardstick: the same
  players against a bare FastAPI endpoint (`bench/web.py`).
- `phones`: a hall of phones (`--phones`, default 200) each viewing standings, pairings or
  results of a 500-entrant event every 30 s while the desk saves a result every 3 s
  (`bench/public.py`'s load), against the app with its page cache and without it (every
  view rendered). Yardstick: the same phones against a bare static page.

`docs/performance.md` ("Fast paths") keeps the table these figures decide. Prints figures;
asserts nothing about time.

    .venv/bin/python bench/fast_paths.py cli|sim|phones [--repeats 3] [...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the other benches' helpers (bench/ is no package)

BALL_AGENT = [sys.executable, "-m", "ball.cli"]
TYPER_APP = [sys.executable, "-c", "from ball.cli import app; app(prog_name='ball')"]
ENTRANTS, ROUNDS = 34, 3


def median_ratio(label: str, fast: list[float], slow: list[float], unit: str = "s") -> None:
    f, s = statistics.median(fast), statistics.median(slow)
    print(f"  {label}: with {f:.3f} {unit}, without {s:.3f} {unit}, ratio {s / f:.2f}x")


def rotated(names: list[str], n: int) -> list[str]:
    """The order of the sides in repeat `n`: each goes first in turn, so a side is not
    always the one measured after another's load (or while the machine calms down)."""
    k = n % len(names)
    return names[k:] + names[:k]


# ------------------------------------------------------------------ CLI


def arbiter_script(db: str, sheets: list[str]) -> list[list[str]]:
    """The 100 commands, in the order an arbiter types them."""
    on = ["--db", db]
    script = [["event", "create", *on, "--name", "Club Open", "--system", "swiss",
               "--rounds", str(ROUNDS)], ["--help"], ["event", "--help"]]  # fmt: skip
    script += [["event", "add-player", *on, f"Coach {i:02d}", "--rating", str(2000 - 7 * i)]
               for i in range(1, ENTRANTS + 1)]  # fmt: skip
    script += [["event", "show", *on], ["result", "enter", "--help"]]
    for rnd in range(1, ROUNDS + 1):
        script += [["round", "pair", *on], ["round", "show", *on]]
        script += [["result", "enter", *on, "--round", str(rnd), "--table", str(t),
                    "--sheet", sheets[t - 1]] for t in range(1, ENTRANTS // 2 + 1)]  # fmt: skip
        script.append(["standings", *on])
    script.append(["--help"])
    assert len(script) == 100, len(script)
    return script


def run_script(prefix: list[str], script: list[list[str]], env: dict[str, str]) -> float:
    start = time.perf_counter()
    for args in script:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise SystemExit(f"ball {' '.join(args)}: {done.stderr.strip()}")
    return time.perf_counter() - start


def cli_part(args: argparse.Namespace) -> None:
    from cli import start_agent
    from public import sheet

    tmp = Path(tempfile.mkdtemp(prefix="fp", dir="/tmp"))  # short: a socket path is short
    os.chmod(tmp, 0o700)
    rng = random.Random(3)
    sheets = []
    for t in range(1, ENTRANTS // 2 + 1):
        path = tmp / f"sheet{t}.json"
        path.write_text(json.dumps(sheet(rng)))
        sheets.append(str(path))
    cold = {**os.environ, "BALL_AGENT": "0"}
    warm = {**os.environ, "BALL_AGENT": "1", "BALL_AGENT_DIR": str(tmp), "BALL_AGENT_IDLE": "900"}
    ways: dict[str, tuple[list[str], dict[str, str]]] = {
        "agent": (BALL_AGENT, warm),
        "front door, no agent": (BALL_AGENT, cold),
        "Typer app, no agent": (TYPER_APP, cold),
    }
    times: dict[str, list[float]] = {name: [] for name in [*ways, "python -c pass"]}
    try:
        start_agent(warm)
        for n in range(args.repeats):
            for way, (name, (prefix, env)) in enumerate(ways.items()):
                script = arbiter_script(str(tmp / f"{n}-{way}.db"), sheets)
                times[name].append(run_script(prefix, script, env))
                print(f"  run {n + 1} {name}: {times[name][-1]:.1f} s", flush=True)
            floor = [[]] * 100
            times["python -c pass"].append(run_script([sys.executable, "-c", "pass"], floor, cold))
    finally:
        subprocess.run([*BALL_AGENT, "agent", "stop"], env=warm, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"a script of 100 ball commands, median of {args.repeats} (s):")
    for name, samples in times.items():
        each = ", ".join(f"{s:.1f}" for s in samples)
        print(f"  {name:24} {statistics.median(samples):7.2f}   ({each})")
    median_ratio("agent vs front door alone", times["agent"], times["front door, no agent"])
    median_ratio("front door vs Typer app", times["front door, no agent"],
                 times["Typer app, no agent"])  # fmt: skip


# ------------------------------------------------------------------ simulator


def bare_app() -> Any:
    """The yardstick: bench/web.py's bare FastAPI endpoint."""
    from web import floor_app

    return floor_app


def simulator_app() -> Any:
    from ball.web.app import create_app

    return create_app()


# The players' and desks' budgets: a hall's players and phones are many clients, here one.
ROOMY = {"BALL_MAX_GAMES_PER_ADDRESS": "100000", "BALL_GAME_CREATIONS": "100000",
         "BALL_REQUEST_RATE": "100000", "BALL_REQUEST_BURST": "100000"}  # fmt: skip


def serve(factory: str, env: dict[str, str], probe: str = "/api/games") -> subprocess.Popen:
    from web import free_port

    port = free_port()
    cmd = [sys.executable, "-m", "uvicorn", "--factory", factory, "--host", "127.0.0.1",
           "--port", str(port), "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd, env={**os.environ, **ROOMY, **env}, cwd=HERE)
    proc.base = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(proc.base + probe, timeout=1)  # type: ignore[attr-defined]
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"{factory} did not start")


async def post(http: httpx.AsyncClient, url: str, **kw: Any) -> httpx.Response:
    """POST, sent again once on a new connection when the server closed the idle keep-alive
    one as it was reused (as a browser does)."""
    try:
        return await http.post(url, **kw)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        return await http.post(url, **kw)


THINK = 6.0  # a player's mean seconds between moves (--think)


async def player(http: httpx.AsyncClient, until: float, seed: int, lat: list[float]) -> None:
    rng = random.Random(seed)
    state = (await post(http, "/api/games", json={"mode": "free"})).raise_for_status().json()
    await asyncio.sleep(rng.uniform(0, THINK))
    while time.monotonic() < until:
        if state["over"] or not state["legal"]:
            state = (await post(http, "/api/games", json={"mode": "free"})).json()
        choices = [a for a in state["legal"] if a != "end"] or state["legal"]
        since = state.get("log_start", 0) + len(state["log"])
        t0 = time.perf_counter()
        move = {"action": rng.choice(choices), "version": state["version"]}
        url = f"/api/games/{state['id']}/actions"
        r = await post(http, url, params={"since": since}, json=move)
        lat.append(time.perf_counter() - t0)
        state = r.raise_for_status().json()
        await asyncio.sleep(rng.uniform(THINK / 2, THINK * 1.5))


async def floor_player(http: httpx.AsyncClient, until: float, seed: int, lat: list[float]) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, THINK))
    while time.monotonic() < until:
        t0 = time.perf_counter()
        r = await post(http, "/floor", json={"action": "G7-H8", "version": 1})
        lat.append(time.perf_counter() - t0)
        r.raise_for_status()
        await asyncio.sleep(rng.uniform(THINK / 2, THINK * 1.5))


def hall(base: str, who: Callable[..., Any], players: int, seconds: float) -> list[float]:
    lat: list[float] = []

    async def everyone() -> None:
        limits = httpx.Limits(max_connections=players, max_keepalive_connections=players)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            until = time.monotonic() + seconds
            await asyncio.gather(*(who(http, until, i, lat) for i in range(players)))

    asyncio.run(everyone())
    return lat


def p50_p95(lat: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(sorted(lat), n=100)
    return q[49] * 1000, q[94] * 1000


def sim_part(args: argparse.Namespace) -> None:
    from web import cpu_seconds

    global THINK
    THINK = args.think
    figures: dict[str, list[tuple[float, float]]] = {"simulator": [], "bare endpoint": []}
    cpu: dict[str, list[float]] = {name: [] for name in figures}
    factories = {"simulator": "fast_paths:simulator_app", "bare endpoint": "fast_paths:bare_app"}
    servers: dict[str, subprocess.Popen] = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for n, (name, factory) in enumerate(factories.items()):
                servers[name] = serve(factory, {"BALL_DB": f"{tmp}/{n}.db"})
            for n in range(args.repeats):
                for name in rotated(list(servers), n):
                    proc = servers[name]
                    who = floor_player if name == "bare endpoint" else player
                    before = cpu_seconds(proc.pid)
                    lat = hall(proc.base, who, args.players, args.seconds)  # type: ignore[attr-defined]
                    cpu[name].append((cpu_seconds(proc.pid) - before) / len(lat) * 1000)
                    figures[name].append(p50_p95(lat))
                    print(f"  run {n + 1} {name}: {len(lat)} moves, p50 {figures[name][-1][0]:.1f}"
                          f" ms, p95 {figures[name][-1][1]:.1f} ms, server CPU "
                          f"{cpu[name][-1]:.2f} ms per request", flush=True)  # fmt: skip
        finally:
            for proc in servers.values():
                proc.terminate()
                proc.wait(timeout=10)
    print(f"a move's latency, {args.players} players, median of {args.repeats} (ms):")
    for name, runs in figures.items():
        p50 = statistics.median(r[0] for r in runs)
        p95 = statistics.median(r[1] for r in runs)
        per = statistics.median(cpu[name])
        print(f"  {name:16} p50 {p50:7.1f}   p95 {p95:7.1f}   server CPU {per:5.2f} per request")
    median_ratio("bare endpoint vs simulator, server CPU per request", cpu["bare endpoint"],
                 cpu["simulator"], "ms")  # fmt: skip


# ------------------------------------------------------------------ public pages


def uncached_app() -> Any:
    """The toolbox with every public view rendered (uvicorn --factory fast_paths:uncached_app):
    `cached_page` renders, as a route without it would; `shared` then computes afresh."""
    from starlette.concurrency import run_in_threadpool

    from ball.web import page_cache

    async def rendered(request: Any, svc: Any, event_id: int, render: Any, extra: str = "") -> Any:
        return await run_in_threadpool(render)

    page_cache.cached_page = rendered
    from ball.web.app import create_app

    for module in list(sys.modules.values()):  # the modules that imported it by name
        if getattr(module, "cached_page", None) is not None and module is not page_cache:
            module.cached_page = rendered  # type: ignore[attr-defined]
    return create_app()


def cached_app() -> Any:
    from ball.web.app import create_app

    return create_app()


def phones_part(args: argparse.Namespace) -> None:
    import multiprocessing

    import public
    from ball.tournament.service import TournamentService
    from ball.web.core import security

    figures: dict[str, list[tuple[float, float]]] = {"page cache": [], "every view rendered": [],
                                                     "bare page": []}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        master = f"{tmp}/event.db"
        event_id, open_tables = public.build(master, args.entrants, 4)
        svc = TournamentService(master)
        with svc.store.sessions.begin() as session:
            security.set_pin(session, event_id, public.PIN, time.time())
        svc.engine.dispose()
        pages = -(-args.entrants // 8)
        urls = [f"/public/{event_id}/standings?page={p}" for p in range(1, pages + 1)]
        urls += [f"/public/{event_id}/pairings", f"/public/{event_id}/results"] * 4
        spawn = multiprocessing.get_context("spawn")
        factories = {"page cache": "fast_paths:cached_app",
                     "every view rendered": "fast_paths:uncached_app"}  # fmt: skip
        for n in range(args.repeats):
            for name in rotated(list(factories), n):
                factory = factories[name]
                db = f"{tmp}/{name[:5]}{n}.db"
                shutil.copy(master, db)
                server = serve(factory, {"BALL_DB": db}, "/docs")
                stop, written = spawn.Event(), spawn.Value("i", 0)
                manager = spawn.Manager()
                work = (server.base, event_id, 4, list(open_tables), 3.0, stop, written,  # type: ignore[attr-defined]
                        manager.list())  # fmt: skip
                desk = spawn.Process(target=public.desk_arbiter, args=work)
                try:
                    desk.start()
                    lat = public.phones_run(server.base, urls, args.phones, 30.0, args.seconds)  # type: ignore[attr-defined]
                finally:
                    stop.set()
                    desk.join()
                    manager.shutdown()
                    server.terminate()
                    server.wait(timeout=10)
                figures[name].append(p50_p95(lat))
                failed = len(public.FAILED)
                public.FAILED.clear()
                print(f"  run {n + 1} {name}: {len(lat)} views, {written.value} results, "
                      f"{failed} failed, p50 {figures[name][-1][0]:.1f} ms, "
                      f"p95 {figures[name][-1][1]:.1f} ms", flush=True)  # fmt: skip
            yard = serve("public:yardstick_app", {"BALL_DB": master}, "/docs")
            try:
                lat = public.phones_run(yard.base, ["/static"], args.phones, 30.0, args.seconds)  # type: ignore[attr-defined]
            finally:
                yard.terminate()
                yard.wait(timeout=10)
            figures["bare page"].append(p50_p95(lat))
    print(f"a hall of {args.phones} phones, {args.entrants} entrants, "
          f"median of {args.repeats} (ms):")  # fmt: skip
    for name, runs in figures.items():
        p50 = statistics.median(r[0] for r in runs)
        p95 = statistics.median(r[1] for r in runs)
        print(f"  {name:20} p50 {p50:7.1f}   p95 {p95:7.1f}")
    for i, q in ((0, "p50"), (1, "p95")):
        median_ratio(f"page cache vs every view rendered, {q}",
                     [r[i] for r in figures["page cache"]],
                     [r[i] for r in figures["every view rendered"]], "ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("part", choices=("cli", "sim", "phones"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0, help="each load's length")
    parser.add_argument("--think", type=float, default=THINK, help="a player's mean gap (s)")
    args = parser.parse_args()
    {"cli": cli_part, "sim": sim_part, "phones": phones_part}[args.part](args)


if __name__ == "__main__":
    main()
