"""CLI start-up figures (issue 15, target 1): `ball --help`, `ball standings --db FILE` and
`ball result enter …`, each the median of N runs, wall and CPU, beside `python -c pass`
measured in the same run (the interpreter's own floor on this machine). Also prints the
load average, since these machines are shared. Prints figures; asserts nothing.

    .venv/bin/python bench/cli.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BALL = [sys.executable, "-m", "ball.cli"]


def run_once(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system of the child) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def figure(label: str, commands: list[list[str]]) -> tuple[float, float]:
    samples = [run_once(cmd) for cmd in commands]
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    print(f"  {label:34} wall {wall * 1000:7.0f} ms   cpu {cpu * 1000:7.0f} ms")
    return wall, cpu


def setup_event(db: str, players: int) -> list[int]:
    """A Swiss event with `players` entrants and round 1 paired; the tables with a game."""
    subprocess.run([*BALL, "event", "create", "--db", db, "--name", "Bench", "--system",
                    "swiss", "--rounds", "3"], check=True, capture_output=True)  # fmt: skip
    for i in range(players):
        subprocess.run([*BALL, "event", "add-player", "--db", db, f"P{i}", "--rating",
                        str(2000 - i)], check=True, capture_output=True)  # fmt: skip
    out = subprocess.run([*BALL, "round", "pair", "--db", db, "--json"], check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return [t["table"] for t in json.loads(out) if t["b"] is not None]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        tables = setup_event(db, players=2 * runs)
        print(f"median of {runs} runs ({sys.executable}):")
        floor, _ = figure("python -c pass (yardstick)", [[sys.executable, "-c", "pass"]] * runs)
        rows = [
            ("ball --help", [[*BALL, "--help"]] * runs),
            ("ball standings --db FILE", [[*BALL, "standings", "--db", db]] * runs),
            (
                "ball result enter --forfeit B",
                [
                    [
                        *BALL,
                        "result",
                        "enter",
                        "--db",
                        db,
                        "--round",
                        "1",
                        "--table",
                        str(t),
                        "--forfeit",
                        "B",
                    ]
                    for t in tables[:runs]
                ],
            ),  # fmt: skip
        ]
        for label, commands in rows:
            wall, _cpu = figure(label, commands)
            print(f"  {'':34} = {wall / floor:.1f}x python -c pass")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
