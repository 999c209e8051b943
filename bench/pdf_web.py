"""Benchmark (issue 30 item 9): public PDFs over HTTP, beside a small JSON request.

Starts the web app under uvicorn on a fresh SQLite file holding one event with round 1
paired (16 entrants), then times, in the same run:

- the yardstick: `GET /api/games` (a small JSON answer), alone;
- the round's forms PDF (`/print/forms.pdf?round=1`): the first request, the same again
  (kept), and three concurrent requests of another language (one key, three askers);
- the regulation PDF: first request and again;
- the yardstick again while the three concurrent PDFs are under way.

Prints each figure in ms (wall) and how many renders the server started.

Run: .venv/bin/python bench/pdf_web.py [--src DIR]   (--src: run another checkout's code)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from web import free_port, start_server  # bench/web.py: the same server start

HERE = Path(__file__).resolve().parent.parent
APP = "ball.web.app:create_app"


SEED = """
import sys
from ball.tournament import TournamentService

svc = TournamentService(sys.argv[1])
svc.events.create_event(name="Bench Open", system="swiss", rounds=5)
for i in range(16):
    svc.entrants.add_player(f"Player {i:02d}")
svc.rounds.pair_next_round()
"""


def seeded(db: Path, src: Path) -> None:
    """The event, written by the code under test (its own migrations)."""
    env = {**os.environ, "PYTHONPATH": f"{src}:{HERE}"}
    subprocess.run([sys.executable, "-c", SEED, str(db)], env=env, check=True)


def timed(client: httpx.Client, path: str, **params: str) -> float:
    start = time.perf_counter()
    answer = client.get(path, params=params, timeout=600)
    answer.raise_for_status()
    return (time.perf_counter() - start) * 1000


def yardstick(client: httpx.Client, stop: threading.Event | None, out: list[float]) -> None:
    while True:
        out.append(timed(client, "/api/games"))
        if stop is None and len(out) >= 50:
            return
        if stop is not None and stop.is_set():
            return
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=HERE / "src")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        seeded(db, args.src)
        port = free_port()
        server = start_server(APP, port, {"BALL_DB": str(db)}, pythonpath=f"{args.src}:{HERE}")
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=base) as client:
                alone: list[float] = []
                yardstick(client, None, alone)
                first = timed(client, "/print/forms.pdf", round="1", lang="en")
                kept = timed(client, "/print/forms.pdf", round="1", lang="en")
                reg_first = timed(client, "/print/regulation.pdf", lang="en")
                reg_kept = timed(client, "/print/regulation.pdf", lang="en")
                three: list[float] = []
                during: list[float] = []
                stop = threading.Event()
                side = threading.Thread(target=yardstick, args=(client, stop, during))

                def ask() -> None:
                    with httpx.Client(base_url=base) as own:
                        three.append(timed(own, "/print/forms.pdf", round="1", lang="bg"))

                askers = [threading.Thread(target=ask) for _ in range(3)]
                side.start()
                for t in askers:
                    t.start()
                for t in askers:
                    t.join()
                stop.set()
                side.join()
        finally:
            server.terminate()
            server.wait(timeout=10)

    def p(values: list[float]) -> str:
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return f"p50 {statistics.median(ordered):8.1f}  p95 {p95:8.1f}  max {ordered[-1]:8.1f}"

    print(f"code: {args.src}")
    print(f"yardstick GET /api/games alone (ms)        {p(alone)}")
    print(f"round forms PDF, first request (ms)        {first:8.1f}")
    print(f"round forms PDF, again (ms)                {kept:8.1f}")
    print(f"regulation PDF, first request (ms)         {reg_first:8.1f}")
    print(f"regulation PDF, again (ms)                 {reg_kept:8.1f}")
    print("round forms PDF, 3 concurrent, new key (ms) " + ", ".join(f"{t:.1f}" for t in three))
    print(f"yardstick during the 3 concurrent (ms)     {p(during)}")


if __name__ == "__main__":
    main()
