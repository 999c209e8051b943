"""Web benchmark: the simulator's apply-action against a bare FastAPI endpoint, same run.

Starts `ball.web` under uvicorn in its own process on a fresh SQLite file, and beside it a
bare FastAPI endpoint (`bench/web.py` itself, no middleware, no database) under uvicorn the
same way: the framework's floor. N clients (default 20) each play their own free-play game
through the JSON API (made before the timed part, so the figure is CPU per action; a game
that ends is replaced inside it): pick a legal action at random from the last answer, POST
it (asking only for the log entries after the ones it has, `?since=N`); the same clients
POST a small JSON body to the bare endpoint. The two loads alternate in rounds (default 5,
the requests split evenly), so that a change of the shared machine's load during the run
hits both alike. Prints p50/p95/p99 of both, each server's CPU per request over all rounds
(user+system time of the server process, read from /proc), their ratio and each round's
ratio, and the apply response's size early and late in one long game (it must not grow
with the game).

Then the simulator's first load on a phone profile (issue 13): Debian's Chromium through
Playwright, 390x844, a fresh browser context per load (empty cache), CPU slowed 4x with the
DevTools `Emulation.setCPUThrottlingRate`, beside the same loads unthrottled (the yardstick
of the same run). Printed: median first contentful paint and "board ready" (the first piece
drawn by board.js, seen by a MutationObserver installed before the page's own scripts).

Run: .venv/bin/python bench/web.py [--clients 20] [--actions 50] [--rounds 5] [--long 500]
     [--loads 5] [--no-browser]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

# The yardstick: a bare FastAPI app, so this file is also `bench.web:floor_app`.
try:
    from fastapi import FastAPI
    from pydantic import BaseModel

    class _Body(BaseModel):
        action: str
        version: int | None = None

    floor_app = FastAPI()

    @floor_app.post("/floor")
    async def floor(body: _Body) -> dict:
        return {"action": body.action, "version": (body.version or 0) + 1}

    @floor_app.get("/api/games")
    async def ready() -> list:
        return []
except ImportError:  # pragma: no cover - the bench runs in the project's environment
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    app: str, port: int, env: dict[str, str], pythonpath: str | None = None
) -> subprocess.Popen:
    """`app` under uvicorn on `port` with `env` added, once it answers; `pythonpath` puts
    another copy of the code first (a bench's "before" run). Other benches use it too."""
    factory = ["--factory"] if app.startswith("ball") else []
    cmd = [
        sys.executable, "-m", "uvicorn", *factory, app,
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip
    here = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, **env, "PYTHONPATH": pythonpath or here}
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid` so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def since(state: dict) -> int:
    return state.get("log_start", 0) + len(state["log"])


# Each client's first game, made before the timed part (`measure`): the figure is CPU per
# action, and a create (an ORM insert in the thread pool, ~5 ms) is not one. A game that ends
# during the run is replaced inside the timed part, as before.
first_games: dict[int, dict] = {}


# Each client's random choices, kept across rounds.
client_rngs: dict[int, random.Random] = {}


async def sim_client(http: httpx.AsyncClient, actions: int, seed: int, out: list) -> None:
    rng = client_rngs.setdefault(seed, random.Random(seed))
    state = first_games.pop(seed, None)
    if state is None:
        state = (await http.post("/api/games", json={"mode": "free"})).json()
    for _ in range(actions):
        if state["over"] or not state["legal"]:
            state = (await http.post("/api/games", json={"mode": "free"})).json()
        choices = [a for a in state["legal"] if a != "end"] or state["legal"]
        t0 = time.perf_counter()
        r = await http.post(
            f"/api/games/{state['id']}/actions",
            params={"since": since(state)},
            json={"action": rng.choice(choices), "version": state["version"]},
        )
        out.append(time.perf_counter() - t0)
        r.raise_for_status()
        state = r.json()
    first_games[seed] = state  # the next round goes on with this game


async def floor_client(http: httpx.AsyncClient, actions: int, seed: int, out: list) -> None:
    for i in range(actions):
        t0 = time.perf_counter()
        r = await http.post("/floor", json={"action": "G7-H8", "version": i})
        out.append(time.perf_counter() - t0)
        r.raise_for_status()


async def load(base: str, worker, clients: int, actions: int) -> list[float]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        await asyncio.gather(*(worker(http, actions, i, latencies) for i in range(clients)))
    return latencies


async def make_first_games(base: str, clients: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for seed in range(clients):
            r = await http.post("/api/games", json={"mode": "free"})
            first_games[seed] = r.raise_for_status().json()


class Server:
    """One server process under uvicorn, warmed up, and the load its clients put on it."""

    def __init__(self, app: str, env: dict[str, str], worker) -> None:
        self.port = free_port()
        self.process = start_server(app, self.port, env)
        self.base = f"http://127.0.0.1:{self.port}"
        self.worker = worker
        self.latencies: list[float] = []
        self.cpu = self.wall = 0.0
        asyncio.run(load(self.base, worker, 2, 5))  # warm up imports and caches

    def round(self, clients: int, actions: int) -> float:
        """One timed round; returns its server CPU per request (seconds)."""
        cpu0, t0 = cpu_seconds(self.process.pid), time.perf_counter()
        lat = asyncio.run(load(self.base, self.worker, clients, actions))
        cpu = cpu_seconds(self.process.pid) - cpu0
        self.wall += time.perf_counter() - t0
        self.cpu += cpu
        self.latencies += lat
        return cpu / len(lat)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def measure(env: dict[str, str], clients: int, actions: int, rounds: int):
    """Both servers, loaded in alternate rounds: (sim, bare, per-round ratios, sizes)."""
    sim = bare = None
    try:
        sim = Server("ball.web.app:create_app", env, sim_client)
        bare = Server("bench.web:floor_app", {}, floor_client)
        asyncio.run(make_first_games(sim.base, clients))
        per_round = [actions // rounds + (i < actions % rounds) for i in range(rounds)]
        ratios = []
        for n in per_round:
            if n:
                ratios.append(sim.round(clients, n) / bare.round(clients, n))
        sizes = long_game(sim.base, args_long)
    finally:
        for server in (sim, bare):
            if server is not None:
                server.stop()
    return sim, bare, ratios, sizes


def long_game(base: str, plies: int) -> list[tuple[int, int, int]]:
    """(ply, bytes with ?since, bytes of the full state) along one long free-play game."""
    rng = random.Random(7)
    out = []
    with httpx.Client(base_url=base, timeout=60) as http:
        state = http.post("/api/games", json={"mode": "free"}).json()
        for ply in range(1, plies + 1):
            if state["over"] or not state["legal"]:
                break
            choices = [a for a in state["legal"] if a != "end"] or state["legal"]
            r = http.post(
                f"/api/games/{state['id']}/actions",
                params={"since": since(state)},
                json={"action": rng.choice(choices), "version": state["version"]},
            )
            r.raise_for_status()
            state = r.json()
            if ply in (10, 100, plies) or ply % 250 == 0:
                full = http.get(f"/api/games/{state['id']}")
                out.append((ply, len(r.content), len(full.content)))
    return out


args_long = 500


def report(name: str, lat: list[float], cpu: float, wall: float) -> float:
    q = statistics.quantiles(lat, n=100)
    per = cpu / len(lat) * 1000
    print(f"{name}: {len(lat)} requests, wall {wall:.1f} s, {len(lat) / wall:.0f}/s")
    print(f"  p50 {q[49] * 1000:6.1f} ms  p95 {q[94] * 1000:6.1f} ms  p99 {q[98] * 1000:6.1f} ms")
    print(f"  server CPU {per:.2f} ms per request")
    return per


BOARD_READY = """
new MutationObserver((_, observer) => {
  if (document.querySelector('.board .pieces [data-piece]')) {
    window.__boardReady = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
FIGURES = """() => ({
  fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  ready: window.__boardReady,
})"""


def first_loads(base: str, loads: int, throttle: float) -> dict[str, float]:
    """Median first contentful paint and board ready (ms after navigation) over `loads`
    cold loads of `/` at 390x844 with the CPU slowed `throttle` times."""
    import shutil

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (bash scripts/setup.sh)")
    fcp: list[float] = []
    ready: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(loads):
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                device_scale_factor=2, bypass_csp=True,
            )  # fmt: skip
            page = context.new_page()
            page.add_init_script(BOARD_READY)
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.goto(f"{base}/")
            page.wait_for_function("() => window.__boardReady !== undefined", timeout=60_000)
            figures = page.evaluate(FIGURES)
            fcp.append(figures["fcp"])
            ready.append(figures["ready"])
            context.close()
        browser.close()
    return {"fcp": statistics.median(fcp), "ready": statistics.median(ready)}


def main() -> None:
    global args_long
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--actions", type=int, default=50, help="requests per client")
    parser.add_argument("--rounds", type=int, default=5, help="alternate rounds of each load")
    parser.add_argument("--long", type=int, default=500, help="plies of the size game")
    parser.add_argument("--loads", type=int, default=5, help="cold page loads per profile")
    parser.add_argument("--no-browser", action="store_true", help="skip the phone first load")
    args = parser.parse_args()
    args_long = args.long
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        env = {"BALL_DB": str(Path(tmp) / "bench.sqlite")}
        sim, bare, ratios, sizes = measure(env, args.clients, args.actions, max(1, args.rounds))
    print(
        f"{args.clients} concurrent clients, {args.actions} requests each, in {len(ratios)} rounds"
    )
    sim_cpu = report("simulator apply-action", sorted(sim.latencies), sim.cpu, sim.wall)
    bare_cpu = report(
        "bare FastAPI endpoint (yardstick)", sorted(bare.latencies), bare.cpu, bare.wall
    )
    print(f"CPU ratio simulator / bare: {sim_cpu / bare_cpu:.2f}x")
    print("  per round: " + ", ".join(f"{r:.2f}x" for r in ratios))
    print("apply response size along one game (bytes: with ?since / full GET state):")
    for ply, small, full in sizes or []:
        print(f"  ply {ply:4d}: {small:6d} / {full:6d}")
    if not args.no_browser:
        phone_first_load(args.loads)


def phone_first_load(loads: int) -> None:
    """The simulator's first load on a phone profile, throttled 4x beside unthrottled."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {"BALL_DB": str(Path(tmp) / "bench.sqlite")}
        server = start_server("ball.web.app:create_app", port, env)
        try:
            phone = {
                rate: first_loads(f"http://127.0.0.1:{port}", loads, rate) for rate in (1.0, 4.0)
            }
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"simulator first load at 390x844, median of {loads} cold loads (ms)")
    print(f"  {'CPU':>12} {'first paint':>12} {'board ready':>12}")
    for rate, fig in phone.items():
        label = "unthrottled" if rate == 1.0 else f"{rate:g}x slower"
        print(f"  {label:>12} {fig['fcp']:12.0f} {fig['ready']:12.0f}")


if __name__ == "__main__":
    main()
