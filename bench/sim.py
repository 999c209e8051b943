"""Self-play throughput: matches per second on the process and Ray backends, 1 and 2 workers.

Run: .venv/bin/python bench/sim.py [--matches 200] [--half-turns 20] [--address HOST:PORT]
Prints figures beside a yardstick from the same run (the same matches played in a plain
in-process loop, no shards); asserts nothing. Every run writes its shards to a temporary
directory, so the figures include the SQLite writes. Ray's start-up is timed apart from the
matches; with `--address` the cluster's own CPUs are used for both Ray rows.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from ball.games.ball.sim import SimConfig, auto_batch_size, play_match, run_in_dir
from ball.games.ball.sim.backends import Backend, ProcessBackend, RayBackend


def rate(matches: int, seconds: float) -> str:
    return f"{matches / seconds:8.1f} matches/s  ({seconds:6.2f} s)"


def timed_run(config: SimConfig, backend: Backend) -> float:
    with tempfile.TemporaryDirectory(prefix="ball-bench-sim-") as out:
        t0 = time.perf_counter()
        run_in_dir(Path(out), config, backend, auto_batch_size(config.matches, config.jobs))
        return time.perf_counter() - t0


def ray_rows(config: SimConfig, address: str | None) -> None:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        print("ray: not installed (ball-toolbox[cluster])")
        return
    for workers in (1, 2):
        t0 = time.perf_counter()
        try:
            if address:
                ray.init(address=address, log_to_driver=False, logging_level="error")
            else:
                ray.init(address="local", num_cpus=workers, object_store_memory=128 * 2**20,
                         include_dashboard=False, log_to_driver=False,
                         logging_level="error")  # fmt: skip
        except Exception as exc:  # Ray raises a bare Exception when its node times out
            print(f"ray x{workers}: could not start ({str(exc).splitlines()[0]})")
            ray.shutdown()
            continue
        started = time.perf_counter() - t0
        try:
            cfg = SimConfig(**{**config.__dict__, "jobs": workers})
            seconds = timed_run(cfg, RayBackend(workers, address))
            print(f"ray      x{workers}: {rate(config.matches, seconds)}  start-up {started:.1f} s")
        finally:
            ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--half-turns", type=int, default=20)
    parser.add_argument("--address", default=None, help="a running Ray cluster")
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    config = SimConfig(matches=args.matches, agent_a="greedy", agent_b="random",
                       half_turns=args.half_turns, seed=1)  # fmt: skip
    t0 = time.perf_counter()
    for index in range(config.matches):
        play_match(index, config)
    print(f"yardstick (in-process loop): {rate(config.matches, time.perf_counter() - t0)}")
    for workers in (1, 2):
        cfg = SimConfig(**{**config.__dict__, "jobs": workers})
        seconds = timed_run(cfg, ProcessBackend(workers))
        print(f"process  x{workers}: {rate(config.matches, seconds)}")
    if not args.no_ray:
        ray_rows(config, args.address)


if __name__ == "__main__":
    main()
