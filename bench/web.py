"""Web benchmark: apply-action latency with concurrent clients on loopback.

Starts `ball.web` under uvicorn in its own process on a fresh SQLite file, then N clients
(default 20) each play their own free-play game through the JSON API: read the state, pick
a legal action at random, POST it. Prints p50/p95/p99 of the POST latency and the rate.

Then the simulator's first load on a phone profile (issue 13): Debian's Chromium through
Playwright, 390x844, a fresh browser context per load (empty cache), CPU slowed 4x with the
DevTools `Emulation.setCPUThrottlingRate`, beside the same loads unthrottled (the yardstick
of the same run). Printed: median first contentful paint and "board ready" (the first piece
drawn by board.js, seen by a MutationObserver installed before the page's own scripts).

Run: .venv/bin/python bench/web.py [--clients 20] [--actions 50] [--loads 5] [--no-browser]
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "BALL_DB": str(db)}
    cmd = [
        sys.executable, "-m", "uvicorn", "--factory", "ball.web.app:create_app",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


async def client(base: str, actions: int, seed: int, latencies: list[float]) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        state = (await http.post("/api/games", json={"mode": "free"})).json()
        for _ in range(actions):
            if state["over"] or not state["legal"]:
                state = (await http.post("/api/games", json={"mode": "free"})).json()
            # prefer actions that move pieces, so games go somewhere
            choices = [a for a in state["legal"] if a != "end"] or state["legal"]
            action = rng.choice(choices)
            t0 = time.perf_counter()
            r = await http.post(
                f"/api/games/{state['id']}/actions",
                json={"action": action, "version": state["version"]},
            )
            latencies.append(time.perf_counter() - t0)
            r.raise_for_status()
            state = r.json()


async def run(base: str, clients: int, actions: int) -> list[float]:
    latencies: list[float] = []
    await asyncio.gather(*(client(base, actions, i, latencies) for i in range(clients)))
    return latencies


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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--actions", type=int, default=50, help="actions per client")
    parser.add_argument("--loads", type=int, default=5, help="cold page loads per profile")
    parser.add_argument("--no-browser", action="store_true", help="skip the phone first load")
    args = parser.parse_args()
    phone: dict[float, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "bench.sqlite", port)
        try:
            t0 = time.perf_counter()
            lat = asyncio.run(run(f"http://127.0.0.1:{port}", args.clients, args.actions))
            wall = time.perf_counter() - t0
            if not args.no_browser:
                for rate in (1.0, 4.0):
                    phone[rate] = first_loads(f"http://127.0.0.1:{port}", args.loads, rate)
        finally:
            server.terminate()
            server.wait(timeout=10)
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(f"apply-action over HTTP, {args.clients} concurrent clients, {len(lat)} actions")
    print(f"  p50 {q[49] * 1000:7.1f} ms")
    print(f"  p95 {q[94] * 1000:7.1f} ms")
    print(f"  p99 {q[98] * 1000:7.1f} ms")
    print(f"  max {lat[-1] * 1000:7.1f} ms")
    print(f"  throughput {len(lat) / wall:7.1f} actions/s (wall {wall:.1f} s)")
    if phone:
        print(f"simulator first load at 390x844, median of {args.loads} cold loads (ms)")
        print(f"  {'CPU':>12} {'first paint':>12} {'board ready':>12}")
        for rate, fig in phone.items():
            label = "unthrottled" if rate == 1.0 else f"{rate:g}x slower"
            print(f"  {label:>12} {fig['fcp']:12.0f} {fig['ready']:12.0f}")


if __name__ == "__main__":
    main()
