"""The Ray backend (issue 14): a local Ray instance plays 2 × 200 matches with the same
results as the local process pool on the same seeds, and an interrupted run resumes.

One local Ray head (2 CPUs, a small object store) serves the whole module, started by
`ray start --head --block` as a child of the test and reached with `--address`, the way a
cluster is used. Its agents get fixed ports: on a loaded machine a head left to choose them
waits for its dashboard agent past Ray's own 30-second start-up limit.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.games.ball.sim import SimConfig, run_in_dir
from ball.games.ball.sim.backends import ProcessBackend, RayBackend
from ball.games.ball.sim.rundir import read_manifest, read_outcomes, shard_indices

pytestmark = [pytest.mark.slow, pytest.mark.process]

# 400 matches with a short turn cap, so that 2 × 200 is cheap on two shared cores.
CONFIG = SimConfig(matches=400, agent_a="greedy", agent_b="random", half_turns=3, seed=11, jobs=2)
RAY = str(Path(sys.executable).with_name("ray"))
# A throwaway local head: no token (nothing but this test reaches it), no usage report.
RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def _free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def _ready(address: str, env: dict[str, str]) -> bool:
    probe = [RAY, "status", "--address", address]
    return subprocess.run(probe, env=env, capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    saved = {k: os.environ.get(k) for k in RAY_ENV}
    os.environ.update(RAY_ENV)  # before Ray is imported: it reads its auth mode once
    pytest.importorskip("ray")  # installed by the dev extra
    env = dict(os.environ)
    gcs, listen, grpc, metrics, runtime = _free_ports(5)
    head = subprocess.Popen(
        [RAY, "start", "--head", "--block", "--num-cpus", "2", "--port", str(gcs),
         "--include-dashboard", "false", "--dashboard-agent-listen-port", str(listen),
         "--dashboard-agent-grpc-port", str(grpc), "--metrics-export-port", str(metrics),
         "--runtime-env-agent-port", str(runtime), "--object-store-memory", str(128 * 2**20),
         "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    address = f"127.0.0.1:{gcs}"
    try:
        deadline = time.monotonic() + 180
        while not _ready(address, env):
            assert head.poll() is None, "ray start --head exited"
            assert time.monotonic() < deadline, "the Ray head did not come up"
            time.sleep(2)
        yield address
    finally:
        os.killpg(head.pid, signal.SIGTERM)  # --block stops the head's processes with it
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
        # The head leaves its address for a later bare ray.init(); it is gone, so is that.
        current = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
        if current.exists() and current.read_text().strip().endswith(f":{gcs}"):
            current.unlink()
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.update({key: value})


def test_ray_plays_two_batches_of_200_like_the_process_pool(
    ray_address: str, tmp_path: Path
) -> None:
    on_ray = run_in_dir(tmp_path / "ray", CONFIG, RayBackend(2, ray_address), batch_size=200)
    on_pool = run_in_dir(tmp_path / "pool", CONFIG, ProcessBackend(2), batch_size=200)
    assert on_ray is not None and on_ray.matches == 400
    assert on_ray == on_pool
    # Match by match, not only the totals.
    assert list(read_outcomes(tmp_path / "ray", 400, 200)) == list(
        read_outcomes(tmp_path / "pool", 400, 200)
    )
    assert sorted(p.name for p in (tmp_path / "ray" / "shards").iterdir()) == [
        "batch-000000.sqlite", "batch-000001.sqlite",
    ]  # fmt: skip
    assert read_manifest(tmp_path / "ray")["backend"] == "ray"


def test_interrupted_ray_run_resumes_without_repeating_or_losing(
    ray_address: str, tmp_path: Path
) -> None:
    config = SimConfig(matches=60, agent_a="greedy", agent_b="random", half_turns=3, seed=5)
    out = tmp_path / "run"
    assert run_in_dir(out, config, RayBackend(2, ray_address), batch_size=10, limit=2) is None
    assert len(shard_indices(out)) == 20
    summary = run_in_dir(out, config, RayBackend(2, ray_address), batch_size=10)
    manifest = read_manifest(out)
    assert sorted(shard_indices(out)) == list(range(manifest["matches"]))  # each once
    whole = run_in_dir(tmp_path / "whole", config, ProcessBackend(1), batch_size=10)
    assert summary == whole


def test_cli_prints_the_same_summary_on_either_backend(ray_address: str, tmp_path: Path) -> None:
    args = ["sim", "run", "--matches", "30", "--half-turns", "3", "--agent-b", "random",
            "--jobs", "2", "--batch-size", "10", "--json"]  # fmt: skip
    on_ray = [*args, "--backend", "ray", "--address", ray_address, "--out", str(tmp_path / "r")]
    ray = CliRunner().invoke(app, on_ray)
    pool = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "p")])
    assert ray.exit_code == 0 and pool.exit_code == 0, ray.output + pool.output
    assert json.loads(ray.stdout) == json.loads(pool.stdout)
    assert json.loads(ray.stdout)["matches"] == 30
