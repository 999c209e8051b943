"""CLI start-up figures (issue 15, target 1): `ball --help`, `ball standings --db FILE` and
`ball result enter …`, each the median of N runs, cold (BALL_AGENT=0: the command imports
everything in its own process) and warm (through a running start-up agent, the first run
discarded), beside two yardsticks measured in the same run: `python -c pass` (the
interpreter's own floor on this machine) and the *import floor*, a process that imports
exactly what `standings` needs (Typer running a one-option command, which brings Pydantic
for Typer's coercion; SQLAlchemy's ORM; the tournament models and the ranking code) and
does nothing else: no cold command can be quicker than that. Wall time and CPU: the
client's (user + system of the `ball` process) and, warm, the agent's side too (its forked
copy and the fork itself: the agent's own and its reaped children's CPU from /proc, in
clock ticks of 10 ms), and the agent's own start (its CPU when it first answers: the
imports it preloads). Also prints the load average, since these machines are shared.
Prints figures; asserts nothing. The agent runs in a private directory of its own and is
stopped at the end.

    .venv/bin/python bench/cli.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BALL = [sys.executable, "-m", "ball.cli"]
TICK = 1 / os.sysconf("SC_CLK_TCK")
# The import floor of `ball standings` (see the docstring).
FLOOR = """
import sqlalchemy.orm
import typer

from ball.tournament import models, standings

app = typer.Typer(add_completion=False)


@app.command()
def main(db: str = typer.Option(None, "--db")) -> None:
    assert models.Event and standings.of_event


app(["--db", "x"], standalone_mode=False)
"""


def agent_cpu(pid: int | None) -> float:
    """CPU seconds of the agent and of the copies it has reaped (utime, stime, cutime,
    cstime of /proc/PID/stat); 0 without an agent."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) * TICK


def wait_reaped(pid: int | None) -> None:
    """Until the agent has reaped its copies (their CPU is then in its cutime)."""
    if pid is None:
        return
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if not Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            return
        time.sleep(0.002)


def run_once(cmd: list[str], env: dict[str, str], agent: int | None) -> tuple[float, ...]:
    """Wall, client CPU and agent-side CPU seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    side = agent_cpu(agent)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
    wait_reaped(agent)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, agent_cpu(agent) - side


def figure(label: str, commands: list[list[str]], env: dict[str, str], agent: int | None = None):
    samples = [run_once(cmd, env, agent) for cmd in commands]
    wall, cpu, side = (statistics.median(s[i] for s in samples) for i in range(3))
    extra = f"   agent side cpu {side * 1000:5.0f} ms" if agent else ""
    print(f"  {label:40} wall {wall * 1000:6.0f} ms   client cpu {cpu * 1000:6.0f} ms{extra}")
    return wall


def setup_event(db: str, players: int, env: dict[str, str]) -> list[int]:
    """A Swiss event with `players` entrants and round 1 paired; the tables with a game."""

    def ball(*args: str) -> str:
        return subprocess.run([*BALL, *args], check=True, capture_output=True, text=True,
                              env=env).stdout  # fmt: skip

    ball("event", "create", "--db", db, "--name", "Bench", "--system", "swiss", "--rounds", "3")
    for i in range(players):
        ball("event", "add-player", "--db", db, f"P{i}", "--rating", str(2000 - i))
    out = ball("round", "pair", "--db", db, "--json")
    return [t["table"] for t in json.loads(out) if t["b"] is not None]


def start_agent(env: dict[str, str]) -> int:
    subprocess.run([*BALL, "--help"], env=env, capture_output=True, check=True)  # starts one
    end = time.monotonic() + 60
    while time.monotonic() < end:
        status = subprocess.run([*BALL, "agent", "status"], env=env, capture_output=True,
                                text=True).stdout  # fmt: skip
        if m := re.search(r"pid (\d+)", status):
            return int(m.group(1))
        time.sleep(0.1)
    raise SystemExit("no start-up agent started")


def rows(db: str, tables: list[int]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(label, the discarded first warm run, the measured runs) per command."""

    def enter(table: int) -> list[str]:
        return [*BALL, "result", "enter", "--db", db, "--round", "1", "--table", str(table),
                "--forfeit", "B"]  # fmt: skip

    runs = (len(tables) - 1) // 2
    cold, warm = tables[:runs], tables[runs:]
    help_, standings = [*BALL, "--help"], [*BALL, "standings", "--db", db]
    return [
        ("ball --help", help_, [help_] * runs, [help_] * runs),
        ("ball standings --db FILE", standings, [standings] * runs, [standings] * runs),
        ("ball result enter --forfeit B", enter(warm[0]), [enter(t) for t in cold],
         [enter(t) for t in warm[1:]]),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    agent_dir = tempfile.mkdtemp(prefix="bc", dir="/tmp")  # short: a socket path is short
    os.chmod(agent_dir, 0o700)
    cold = {**os.environ, "BALL_AGENT": "0"}
    warm = {**os.environ, "BALL_AGENT": "1", "BALL_AGENT_DIR": agent_dir, "BALL_AGENT_IDLE": "600"}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = str(Path(tmp) / "bench.db")
            agent = start_agent(warm)
            print(f"  {'agent start (its own cpu)':40} {agent_cpu(agent) * 1000:6.0f} ms")
            tables = setup_event(db, 2 * (2 * runs + 1), warm)  # through the agent: quicker
            print(f"median of {runs} runs ({sys.executable}):")
            floor = figure("python -c pass (yardstick)", [[sys.executable, "-c", "pass"]] * runs,
                           cold)  # fmt: skip
            floor_wall = figure("import floor (yardstick)", [[sys.executable, "-c", FLOOR]] * runs,
                                cold)  # fmt: skip
            for label, first, cold_runs, warm_runs in rows(db, tables[: 2 * runs + 1]):
                wall = figure(f"{label} (cold)", cold_runs, cold)
                print(f"  {'':40} = {wall / floor:.1f}x python -c pass, "
                      f"{wall / floor_wall:.2f}x the import floor")  # fmt: skip
                run_once(first, warm, agent)  # discarded: the first copy touches cold pages
                wall = figure(f"{label} (warm)", warm_runs, warm, agent)
                print(f"  {'':40} = {wall / floor:.1f}x python -c pass")
    finally:
        subprocess.run([*BALL, "agent", "stop"], env=warm, capture_output=True)
        shutil.rmtree(agent_dir, ignore_errors=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
