"""What one request and one app cost the web toolbox in-process (CPU), beside a bare endpoint.

The quick lane (issue 12) makes ~3,000 TestClient requests and builds ~530 apps; a server
makes the same requests over uvicorn. This prints the CPU (`time.process_time`: every thread
of this process, so the TestClient's portal and the thread pool count too) of:

- a bare FastAPI GET (no middleware, no database): the yardstick of the same run;
- an app's life: `create_app` on a copy of a migrated SQLite file, `with TestClient(app)`
  (its start, with the warm-up, and its shutdown; no request, so no route is built);
- the desk's round page (GET, signed in) and the result form's "as you type" check (POST,
  with the session's CSRF token), on a 4-entrant round robin;
- the public event page (a cached render after the first);
- the same three requests on a second app whose `tournament` dependency is overridden by a
  plain `def` (as before branch hserve: a thread-pool hop per request), in the same rounds;
  "the hop" is its figure less the app's own.

Each figure is the median over rounds (default 5) that alternate the loads, so a change of
the shared machine's speed during the run hits them alike; the ratio to the bare GET is the
figure to compare between runs. Asserts nothing.

    .venv/bin/python bench/request_cost.py [--rounds 5] [--requests 200] [--apps 20]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fastapi import FastAPI, Request

from ball.tournament.service import TournamentService
from ball.web.app import create_app
from ball.web.core.deps import service_for, tournament

PIN = "2468"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
THREADED = ", def dependency"


def bare_app() -> FastAPI:
    app = FastAPI()

    @app.get("/ping")
    def ping() -> dict[str, bool]:
        return {"ok": True}

    return app


def cpu_ms_each(action: Callable[[], object], count: int) -> float:
    """Process CPU per call of `action`, in milliseconds."""
    start = time.process_time()
    for _ in range(count):
        action()
    return (time.process_time() - start) * 1000 / count


def seated_event(client: TestClient) -> tuple[int, str]:
    """A 4-entrant round robin with round 1 paired, through the desk's forms."""
    created = client.post(
        "/desk/events",
        data={"name": "Bench", "system": "round-robin", "pin": PIN, "pin2": PIN},
        follow_redirects=False,
    )
    assert created.status_code == 303, (created.status_code, created.text[:300])
    event = int(created.headers["location"].rsplit("/", 1)[1])
    match = CSRF.search(client.get(f"/desk/{event}").text)
    assert match, "no CSRF token on the desk page"
    csrf = match.group(1)
    for name in ("Ann", "Bo", "Cy", "Di"):
        client.post(f"/desk/{event}/entrants", data={"csrf": csrf, "name": name})
    client.post(f"/desk/{event}/rounds", data={"csrf": csrf})
    return event, csrf


def one_app_life(folder: Path, counter: list[int]) -> None:
    """An app on a copy of a migrated, empty database (as a restarted server finds its own)."""
    counter[0] += 1
    path = folder / f"app-{counter[0]}.sqlite"
    shutil.copyfile(folder / "migrated.sqlite", path)
    app = create_app(str(path))
    with TestClient(app):
        pass
    app.state.engine.dispose()


def check_form(csrf: str) -> dict[str, object]:
    return {"csrf": csrf, "kind": "sheet", "h1_td": "", "h1_A_atk": 2, "h1_A_def": 3,
            "h1_B_atk": 3, "h1_B_def": 2, "h2_td": "", "h2_B_atk": 2, "h2_B_def": 3,
            "h2_A_atk": 3, "h2_A_def": 2}


def threaded_tournament(request: Request) -> TournamentService:
    """`ball.web.core.deps.tournament` as a plain `def` (as it was before branch hserve): FastAPI
    runs it in the thread pool, one hop per request."""
    return service_for(request.app)


def desk_loads(client: TestClient, label: str) -> dict[str, Callable[[], object]]:
    event, csrf = seated_event(client)
    table = f"/desk/{event}/rounds/1/tables/1"
    return {
        f"desk GET round page{label}": lambda: client.get(f"/desk/{event}/rounds/1"),
        f"desk POST result check{label}": lambda: client.post(
            table + "/check", data=check_form(csrf)),
        f"public GET event page{label}": lambda: client.get(f"/public/{event}"),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--apps", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="request-cost-"))
    load_before = os.getloadavg()
    figures: dict[str, list[float]] = {}
    counter = [0]
    create_app(str(folder / "migrated.sqlite")).state.engine.dispose()
    threaded = create_app(str(folder / "threaded.sqlite"))
    threaded.dependency_overrides[tournament] = threaded_tournament
    with TestClient(bare_app()) as bare, \
            TestClient(create_app(str(folder / "desk.sqlite"))) as c, TestClient(threaded) as t:
        loads: dict[str, Callable[[], object]] = {
            "bare GET /ping": lambda: bare.get("/ping"),
            **desk_loads(c, ""),
            **desk_loads(t, THREADED),
        }
        for load in loads.values():  # each route's first build, outside the timed part
            load()
        for _ in range(args.rounds):
            for name, load in loads.items():
                figures.setdefault(name, []).append(cpu_ms_each(load, args.requests))
            figures.setdefault("app: create, start, stop", []).append(
                cpu_ms_each(lambda: one_app_life(folder, counter), args.apps))
    load_after = os.getloadavg()
    bare_ms = statistics.median(figures["bare GET /ping"])
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
          f"{args.rounds} rounds, medians of process CPU")
    for name, samples in figures.items():
        ms = statistics.median(samples)
        line = f"{name:<48} {ms:8.2f} ms CPU  {ms / bare_ms:6.1f} x bare GET"
        if name.endswith(THREADED):
            ours = statistics.median(figures[name.removesuffix(THREADED)])
            line += f"  (the hop: {ms - ours:+.2f} ms)"
        print(line)


if __name__ == "__main__":
    main()
