"""Live boards benchmark (issue 35 §5): what N followers of one recorded game cost the server.

A Xiangqi event's table 1 is recorded at the desk and its round published (through the
desk's routes, on a fresh SQLite file). For SECONDS seconds one move is recorded a second,
and N followers read the game:

- *streams*: N event streams of `ball.web.public.live_stream.LiveHub` (the live board), consumed
  in one asyncio loop as the server would serve them;
- *polling* (the yardstick, measured in the same run): N clients each asking the game's state
  (`XiangqiStore.state`, what `GET /api/xiangqi/games/{id}` answers) once a second, the
  per-client polling a stream replaces.

Prints, per N: the process CPU seconds per wall second of each, the database reads of the
streams' shared watch (version reads, snapshots) and the events delivered. No network: the
cost compared is the server's own.

Run: .venv/bin/python bench/live.py [--followers 10,100,500] [--seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
import warnings
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.games.xiangqi.web.game_store import XiangqiStore
from ball.web.app import create_app
from ball.web.public.live_stream import hub_of

PIN = "2468"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2d2", "a9b9", "b0c2", "g6g5"]


def setup(db: str):
    """(app, event id, game id): a Xiangqi event, table 1 recorded, round 1 published."""
    app = create_app(db)
    client = TestClient(app)
    form = {"name": "Bench", "system": "round-robin", "pin": PIN, "pin2": PIN, "game": "xiangqi"}
    made = client.post("/desk/events", data=form, follow_redirects=False)
    event_id = int(made.headers["location"].rsplit("/", 1)[1])

    def post(path: str, data: dict | None = None):
        token = CSRF.search(client.get(f"/desk/{event_id}").text)
        assert token is not None
        body = {"csrf": token.group(1), **(data or {})}
        return client.post(f"/desk/{event_id}{path}", data=body, follow_redirects=False)

    for name in ("Wang", "Li", "Zhao", "Qian"):
        post("/entrants", {"name": name})
    post("/rounds")
    opened = post("/rounds/1/tables/1/record")
    game_id = opened.headers["location"].split("#")[0].rsplit("/", 1)[1]
    post("/rounds/1/broadcast", {"publish": "1"})
    return app, event_id, game_id


async def streams(app, event_id: int, game_id: str, n: int, seconds: float) -> dict:
    hub = hub_of(app)
    boards = hub.boards
    counts = {"versions": 0, "snapshots": 0, "events": 0}
    version, snapshot = boards.version, boards.snapshot

    def counted_version(*args):
        counts["versions"] += 1
        return version(*args)

    def counted_snapshot(*args):
        counts["snapshots"] += 1
        return snapshot(*args)

    boards.version, boards.snapshot = counted_version, counted_snapshot  # type: ignore[method-assign]
    ref = boards.game_of(event_id, 1, 1)

    async def follower() -> None:
        async for chunk in hub.stream(event_id, 1, ref, seconds):
            if chunk.startswith(b"event: board"):
                counts["events"] += 1

    store = XiangqiStore(app.state.sessions)
    loop = asyncio.get_running_loop()
    start_cpu, start = time.process_time(), time.perf_counter()
    tasks = [asyncio.create_task(follower()) for _ in range(n)]
    for k in range(int(seconds)):
        await asyncio.sleep(1.0)
        move = MOVES[k % len(MOVES)]
        await loop.run_in_executor(None, store.play, game_id, move)
    await asyncio.gather(*tasks)
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    boards.version, boards.snapshot = version, snapshot  # type: ignore[method-assign]
    return {"cpu_per_s": cpu / wall, **counts}


def polling(app, game_id: str, n: int, seconds: float) -> dict:
    store = XiangqiStore(app.state.sessions)
    start_cpu, start = time.process_time(), time.perf_counter()
    reads = 0
    for _ in range(int(seconds)):
        tick = time.perf_counter()
        for _ in range(n):
            store.state(game_id)
            reads += 1
        time.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    return {"cpu_per_s": cpu / wall, "reads": reads}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", default="10,100,500")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"{'N':>5} {'streams cpu/s':>14} {'polling cpu/s':>14} {'version reads':>14} "
          f"{'snapshots':>10} {'events':>8} {'poll reads':>11}")  # fmt: skip
    for n in (int(x) for x in args.followers.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            # a fresh game each time: the first moves are legal from the start
            app, event_id, game_id = setup(str(Path(tmp) / "live.sqlite"))
            s = asyncio.run(streams(app, event_id, game_id, n, args.seconds))
            app2, _, game2 = setup(str(Path(tmp) / "poll.sqlite"))
            p = polling(app2, game2, n, args.seconds)
            print(f"{n:>5} {s['cpu_per_s']:>14.3f} {p['cpu_per_s']:>14.3f} {s['versions']:>14} "
                  f"{s['snapshots']:>10} {s['events']:>8} {p['reads']:>11}")  # fmt: skip
            app.state.engine.dispose()
            app2.state.engine.dispose()


if __name__ == "__main__":
    main()
