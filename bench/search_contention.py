"""Benchmark (issue 30 item 7): a free-play move while the computer searches for others.

Starts `ball serve`'s app under uvicorn on a fresh SQLite file. One client plays a free-play
game (a random legal action, then a short pause, again and again) and its request times are
measured three ways in the same run:

1. alone (the yardstick: the same client, the same server, nothing else running);
2. while `--searchers` clients (default 4) each play a BALL game against the computer at
   level "hard" (every action of theirs that ends their turn makes the computer search);
3. while `--xiangqi` clients (default 3) each ask the Xiangqi computer for "medium" moves.

Prints p50/p95/max of each phase (ms) and how many searches the loaded phases saw finish.
The target of the issue: the p95 of phase 2 under 50 ms.

Run: .venv/bin/python bench/search_contention.py [--seconds 20] [--searchers 4] [--xiangqi 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx

from web import free_port, start_server  # bench/web.py: the same server start

APP = "ball.web.app:create_app"


def server_env(db: Path) -> dict[str, str]:
    return {
        "BALL_DB": str(db),
        # the bench makes more games from one address than a stranger may
        "BALL_MAX_GAMES_PER_ADDRESS": "100000",
        "BALL_GAME_CREATIONS": "100000",
    }


def new_game(client: httpx.Client, body: dict) -> dict:
    answer = client.post("/api/games", json=body, timeout=120)
    answer.raise_for_status()
    return answer.json()


def free_player(base: str, stop: threading.Event, times: list[float]) -> None:
    """Free play: one random legal action every ~20 ms, each request timed."""
    rng = random.Random(7)
    with httpx.Client(base_url=base) as client:
        state = new_game(client, {"mode": "free"})
        while not stop.is_set():
            if state["over"] or not state["legal"]:
                state = new_game(client, {"mode": "free"})
            action = rng.choice(state["legal"])
            start = time.perf_counter()
            answer = client.post(
                f"/api/games/{state['id']}/actions",
                json={"action": action, "version": state["version"]},
                timeout=120,
            )
            times.append(time.perf_counter() - start)
            answer.raise_for_status()
            state = answer.json()
            time.sleep(0.02)


def player(base: str, address: str) -> httpx.Client:
    """A player's phone: its own client address (127.0.0.x), as in a hall, so the server's
    per-address bounds (two searches at a time, the game quota) count each player apart."""
    return httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=address))


def ball_searcher(
    base: str, stop: threading.Event, seed: int, address: str, done: list[int]
) -> None:
    """Plays S against the computer at "hard": each turn handed over makes it search."""
    rng = random.Random(seed)
    with player(base, address) as client:
        body = {"mode": "computer", "computer_side": "N", "computer_level": "hard"}
        state = new_game(client, body)
        while not stop.is_set():
            if state["over"] or not state["legal"]:
                state = new_game(client, body)
                continue
            before = state["version"]
            answer = client.post(
                f"/api/games/{state['id']}/actions",
                json={"action": rng.choice(state["legal"]), "version": state["version"]},
                timeout=600,
            )
            if answer.status_code != 200:  # e.g. the queue is full: ask again later
                time.sleep(0.2)
                state = client.get(f"/api/games/{state['id']}").json()
                continue
            state = answer.json()
            if state["version"] > before + 1:
                done.append(1)


def xiangqi_searcher(base: str, stop: threading.Event, address: str, done: list[int]) -> None:
    """Asks the Xiangqi computer for a "medium" move, again and again."""
    with player(base, address) as client:
        state = client.post("/api/xiangqi/games", json={"mode": "hotseat"}).json()
        while not stop.is_set():
            if state.get("over"):
                state = client.post("/api/xiangqi/games", json={"mode": "hotseat"}).json()
            answer = client.post(
                f"/api/xiangqi/games/{state['id']}/computer",
                json={"level": "medium", "version": state["version"]},
                timeout=600,
            )
            if answer.status_code == 200:
                state = answer.json()
                done.append(1)
            else:
                time.sleep(0.2)
                state = client.get(f"/api/xiangqi/games/{state['id']}").json()


def phase(base: str, seconds: float, loaders: list) -> tuple[list[float], int]:
    stop = threading.Event()
    times: list[float] = []
    done: list[int] = []
    threads = [threading.Thread(target=f, args=(base, stop, *a, done)) for f, *a in loaders]
    for t in threads:
        t.start()
    time.sleep(1.0 if loaders else 0)  # the searches are under way before timing starts
    player = threading.Thread(target=free_player, args=(base, stop, times))
    player.start()
    time.sleep(seconds)
    stop.set()
    player.join()
    for t in threads:
        t.join()
    return times, len(done)


def report(name: str, times: list[float], searches: int | None = None) -> None:
    ms = sorted(t * 1000 for t in times)
    if not ms:
        print(f"{name:44s} no request finished")
        return
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    extra = "" if searches is None else f"  ({searches} computer replies done)"
    print(
        f"{name:44s} n={len(ms):4d}  p50 {statistics.median(ms):7.1f}  p95 {p95:7.1f}  "
        f"max {ms[-1]:7.1f}{extra}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--searchers", type=int, default=4)
    parser.add_argument("--xiangqi", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(APP, port, server_env(Path(tmp) / "bench.sqlite"))
        base = f"http://127.0.0.1:{port}"
        try:
            alone, _ = phase(base, args.seconds, [])
            hard, hard_done = phase(
                base,
                args.seconds,
                [(ball_searcher, 100 + i, f"127.0.0.{2 + i}") for i in range(args.searchers)],
            )
            xq, xq_done = phase(
                base,
                args.seconds,
                [(xiangqi_searcher, f"127.0.0.{40 + i}") for i in range(args.xiangqi)],
            )
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"free-play move request times (ms), {args.seconds:.0f} s per phase")
    report("alone (yardstick)", alone)
    report(f"with {args.searchers} BALL 'hard' searches", hard, hard_done)
    report(f"with {args.xiangqi} Xiangqi 'medium' searches", xq, xq_done)


if __name__ == "__main__":
    main()
