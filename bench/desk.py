"""Desk benchmark: what the arbiter and the public display wait for, in-process.

Builds a Swiss event of N entrants (default 100) on a fresh SQLite file through the desk's
routes, pairs and enters every result of R rounds (default 3) through the result form, then
times: the "as you type" check (form -> sheet -> `decide`), saving one result (version claim +
service + sanction log), the round page with its signal state, and the public standings page
(every tie-break). Prints p50/p95 in milliseconds.

Run: .venv/bin/python bench/desk.py [--entrants 100] [--rounds 3]
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
import warnings
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.web.app import create_app

PIN = "2468"


def sheet(a1: int, b1: int, b2: int, a2: int, td1: str = "", td2: str = "") -> dict:
    return {
        "kind": "sheet",
        "h1_td": td1,
        "h1_A_atk": a1,
        "h1_A_def": b1,
        "h1_B_atk": b1,
        "h1_B_def": a1,
        "h2_td": td2,
        "h2_B_atk": b2,
        "h2_B_def": a2,
        "h2_A_atk": a2,
        "h2_A_def": b2,
    }


def timed(samples: list[float], call):
    start = time.perf_counter()
    result = call()
    samples.append((time.perf_counter() - start) * 1000)
    return result


def report(name: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    p50 = statistics.median(ordered)
    print(f"{name:<34} n={len(samples):4d}  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="desk-bench-"))
    app = create_app(str(folder / "bench.sqlite"))
    check_ms: list[float] = []
    save_ms: list[float] = []
    round_ms: list[float] = []
    standings_ms: list[float] = []
    with TestClient(app) as c:
        r = c.post(
            "/desk/events",
            data={
                "name": "Bench",
                "system": "swiss",
                "rounds": args.rounds,
                "pin": PIN,
                "pin2": PIN,
            },
            follow_redirects=False,
        )
        event = int(r.headers["location"].rsplit("/", 1)[1])
        csrf = re.search(r'name="csrf" value="([^"]+)"', c.get(f"/desk/{event}").text).group(1)
        rows = "\n".join(
            f"Player {i:03d},Club {i % 7},,{1400 + 7 * i}" for i in range(args.entrants)
        )
        c.post(
            f"/desk/{event}/entrants/import",
            data={"csrf": csrf, "csv": "name,club,federation,rating\n" + rows},
        )
        for number in range(1, args.rounds + 1):
            c.post(f"/desk/{event}/rounds", data={"csrf": csrf})
            page = timed(round_ms, lambda n=number: c.get(f"/desk/{event}/rounds/{n}")).text
            tables = sorted(set(int(t) for t in re.findall(r'id="table-(\d+)"', page)))
            for table in tables:
                url = f"/desk/{event}/rounds/{number}/tables/{table}"
                if c.get(url).status_code != 200:
                    continue  # the bye
                form = sheet(
                    2 + table % 3,
                    1,
                    3,
                    2,
                    td1="A" if table % 2 else "",
                    td2="B" if table % 3 == 0 else "",
                )
                timed(
                    check_ms, lambda u=url, f=form: c.post(u + "/check", data={"csrf": csrf, **f})
                )
                timed(
                    save_ms,
                    lambda u=url, f=form: c.post(
                        u, data={"csrf": csrf, "version": 0, **f}, follow_redirects=False
                    ),
                )
            for _ in range(5):
                timed(standings_ms, lambda: c.get(f"/public/{event}/standings"))
    print(f"Swiss, {args.entrants} entrants, {args.rounds} rounds, SQLite file, in-process client")
    report("result check (decide)", check_ms)
    report("save one result", save_ms)
    report("round page (pairings + signals)", round_ms)
    report("public standings (all tie-breaks)", standings_ms)


if __name__ == "__main__":
    main()
