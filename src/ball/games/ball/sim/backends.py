"""Where batches of self-play run: local worker processes (the default) or a Ray cluster.

A backend takes batches and yields each one's size as its task finishes (in any order); the
task itself writes the batch's shard (`rundir.play_batch`), so results never travel back
through the framework. Ray is an optional extra (`ball-toolbox[cluster]`) imported only when
its backend is built. With an address the run directory must be on a file system the Ray
workers share.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Protocol

from .rundir import Batch, play_batch
from .selfplay import SimConfig

BACKENDS = ("process", "ray")
CLUSTER_HINT = "the ray backend needs Ray: install ball-toolbox[cluster]"


class BackendError(ValueError):
    """The backend cannot be used (the message says why, in one line)."""


class Backend(Protocol):
    name: str

    def map_batches(
        self, run_dir: str, config: SimConfig, todo: Sequence[Batch]
    ) -> Iterator[int]: ...


class ProcessBackend:
    """The local pool of worker processes (inline when there is one worker)."""

    name = "process"

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def map_batches(self, run_dir: str, config: SimConfig, todo: Sequence[Batch]) -> Iterator[int]:
        if self.workers <= 1 or len(todo) <= 1:
            for batch in todo:
                yield play_batch(run_dir, config, batch)
            return
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            futures = [pool.submit(play_batch, run_dir, config, b) for b in todo]
            for done in as_completed(futures):
                yield done.result()


class RayBackend:
    """Ray tasks, one per batch: a local instance of `workers` CPUs, or the cluster at
    `address`."""

    name = "ray"

    def __init__(self, workers: int, address: str | None = None) -> None:
        self.workers = workers
        self.address = address

    def _start(self) -> Any:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no network at run time
        try:
            import ray
        except ImportError as exc:
            raise BackendError(CLUSTER_HINT) from exc
        if ray.is_initialized():
            return ray, False
        quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        quiet["logging_level"] = "error"
        try:
            if self.address:
                ray.init(address=self.address, **quiet)
            else:
                # "local": a new instance even if another was started on this machine.
                # 128 MB of object store: shards go to disk, only counts come back.
                store = 128 * 2**20
                ray.init(address="local", num_cpus=self.workers, object_store_memory=store, **quiet)
        except Exception as exc:  # Ray raises a bare Exception when its node times out
            ray.shutdown()
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise BackendError(f"cannot start Ray ({self.address or 'local'}): {first}") from exc
        return ray, True

    def map_batches(self, run_dir: str, config: SimConfig, todo: Sequence[Batch]) -> Iterator[int]:
        if not todo:
            return
        ray, started = self._start()
        try:
            task = ray.remote(num_cpus=1)(play_batch)
            waiting = [task.remote(run_dir, config, b) for b in todo]
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                try:
                    count = ray.get(done[0])
                except ray.exceptions.RayError as exc:  # a lost worker or node: resume later
                    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    raise BackendError(f"a Ray task failed: {first}") from exc
                yield count
        finally:
            if started:
                ray.shutdown()


def make_backend(name: str, workers: int, address: str | None = None) -> Backend:
    """The backend called `name`; Ray is checked for (not started) here."""
    if name == "process":
        if address:
            raise BackendError("--address needs --backend ray")
        return ProcessBackend(workers)
    if name != "ray":
        raise BackendError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        raise BackendError(CLUSTER_HINT)
    return RayBackend(workers, address)
