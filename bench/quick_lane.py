"""The quick lane's time (issue 12: `bash scripts/test.sh --fast` under 60 s on this two-core
machine) beside yardsticks measured just before and just after it in the same run, because
this machine's own speed moves by up to a third within an hour (`import sqlalchemy.orm` took
0.30 s wall one morning and 0.45 s that afternoon) and the lane's wall time moves with it.

Prints the lane's wall time, its CPU (user + system of the script and all its children), the
tests pytest counted, and the yardsticks: `python -c pass`, a fresh interpreter importing
what every test worker imports first (SQLAlchemy's ORM and FastAPI), and a fixed pure-Python
loop in this process. Also the load average before and after. Asserts nothing.

    .venv/bin/python bench/quick_lane.py [--runs 1] [-- extra pytest arguments]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall_of(command: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def loop_seconds() -> float:
    """A fixed pure-Python workload (dict and integer work, as the tests' own code does)."""
    t0 = time.process_time()
    table: dict[int, int] = {}
    for i in range(2_000_000):
        table[i & 4095] = table.get(i & 4095, 0) + i % 7
    return time.process_time() - t0


def yardsticks() -> dict[str, float]:
    python = sys.executable
    return {
        "python -c pass": statistics.median(wall_of([python, "-c", "pass"]) for _ in range(5)),
        "import sqlalchemy.orm, fastapi": statistics.median(
            wall_of([python, "-c", "import sqlalchemy.orm, fastapi"]) for _ in range(3)
        ),
        "pure-Python loop (CPU)": statistics.median(loop_seconds() for _ in range(3)),
    }


def lane(extra: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one `scripts/test.sh --fast`, and pytest's summary line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        ["bash", "scripts/test.sh", "--fast", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = re.findall(r"^=*\s*(\d+ passed.*?)=*$", done.stdout, re.MULTILINE)
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-3000:] + done.stderr[-3000:])
        raise SystemExit(f"the quick lane failed (exit {done.returncode})")
    return wall, cpu, summary[-1].strip() if summary else "?"


def show(label: str, sticks: dict[str, float]) -> None:
    print(f"yardsticks {label}:")
    for name, seconds in sticks.items():
        print(f"  {name:34s} {seconds * 1000:8.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("extra", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    show("before", yardsticks())
    for run in range(1, args.runs + 1):
        wall, cpu, summary = lane(args.extra)
        print(f"quick lane run {run}: wall {wall:6.1f} s   CPU (user+sys) {cpu:6.1f} s   "
              f"({summary})")  # fmt: skip
    show("after", yardsticks())
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
