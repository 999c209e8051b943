"""Running the database's queued searches (issue 34): who claims a job, where it runs, and
how its answer reaches the game.

The request that asks for the computer's move queues the job (`ball.play.search_jobs`) and
claims it at once, so at rest a reply costs no more than before: the search runs in this
process's bounded pool of search processes (`ball.play.searches.pool`, `SEARCHES_AT_ONCE`
processes, clients taken in turn), or on a Ray cluster when `ball serve --ray ADDRESS` set
`RAY_ENV`. While it runs, a heartbeat thread renews the leases of every job this process
holds. The answer is applied to the game by the job's kind (`register`), only if the game is
still at the version searched (`ball.games.ball.play.store`), and then the job is marked done: a
worker killed in between leaves a job whose lease runs out, the next claim searches again (same
input, same seed, same answer) and finds the game already moved on, so an answer is applied
once.

Anyone asking "is my move ready" (`settle`), in any process, claims a job that nobody holds
(queued, or its lease ran out) and runs it; a job another live process holds is waited for
by reading its row. No process polls the queue in the background: every job has a client
waiting for it, and that client's next question is what moves it.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.orm import sessionmaker

from ball.play import search_jobs, searches
from ball.play.search_jobs import Job

RAY_ENV = "BALL_SEARCH_RAY"  # a Ray address: the searches run on that cluster
QUICK_WAIT = 2.0  # seconds a request waits for a search another process holds, then 202
POLL_SECONDS = 0.1  # how often a waiter re-reads a job another process holds
TIDY_EVERY = 60.0  # seconds between two clean-ups of the queue by one process


class Searches(Protocol):
    """Where a search runs: `check` refuses early when it could not take one more from
    `client` now, `run` returns `work(*args)` computed elsewhere."""

    def check(self, client: str) -> None: ...

    def run(self, client: str, work: Callable[..., Any], *args: Any) -> Any: ...


@dataclass(frozen=True)
class Kind:
    """What a job of one kind searches (`search(job)` → the function and its arguments, run
    in a search process) and how its answer reaches the game (`apply`)."""

    search: Callable[[Job], tuple[Callable[..., Any], tuple[Any, ...]]]
    apply: Callable[[sessionmaker, Job, Any], None]


KINDS: dict[str, Kind] = {}


def register(name: str, kind: Kind) -> None:
    KINDS[name] = kind


def worker_name() -> str:
    """This process's name in the queue's `worker` column (host, process id, and a random
    part, as a restarted process may get the same id)."""
    pid = os.getpid()
    if _names.get("pid") != pid:
        _names["pid"] = pid
        _names["name"] = f"{socket.gethostname()[:40]}:{pid}:{secrets.token_hex(4)}"
    return str(_names["name"])


_names: dict[str, object] = {}


class RaySearches:
    """Searches as Ray tasks on the cluster at `address` (`ball serve --ray`; "local" starts
    a Ray instance of this machine): Ray is the optional `cluster` extra, imported and
    joined at the first search. The cluster bounds how many run at once; the database's
    limits bound how many are asked for."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._remote: dict[Callable[..., Any], Any] = {}
        self._lock = threading.Lock()

    def check(self, client: str) -> None:
        """The cluster has its own queue; the database's limits (`search_jobs.check`) hold."""

    def run(self, client: str, work: Callable[..., Any], *args: Any) -> Any:
        ray = self._started()
        with self._lock:
            remote = self._remote.get(work)
            if remote is None:
                remote = self._remote[work] = ray.remote(num_cpus=1)(work)
        return ray.get(remote.remote(*args))

    def _started(self) -> Any:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no network at run time
        try:
            import ray
        except ImportError:
            raise RuntimeError("--ray needs Ray: install ball-toolbox[cluster]") from None
        with self._lock:
            if not ray.is_initialized():
                ray.init(
                    address=self.address,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
        return ray


_ray: dict[str, RaySearches] = {}


def backend() -> Searches:
    """The Ray cluster named by `RAY_ENV`, else this process's pool of search processes."""
    address = os.environ.get(RAY_ENV, "").strip()
    if not address:
        return searches.pool
    if address not in _ray:
        _ray[address] = RaySearches(address)
    return _ray[address]


def shared(engine: Engine) -> bool:
    """Whether other processes can open this database (not an in-memory SQLite): only then
    do leases need renewing. An in-memory database's one connection is shared by the
    threads, so no background thread may use it."""
    return not (engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"))


class _Heartbeat:
    """Renews this process's leases every third of `LEASE_SECONDS` while it holds a job."""

    def __init__(self) -> None:
        self._held: dict[Engine, int] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @contextmanager
    def holding(self, engine: Engine) -> Iterator[None]:
        if not shared(engine):
            yield
            return
        with self._lock:
            self._held[engine] = self._held.get(engine, 0) + 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._beat, name="ball-search-leases", daemon=True
                )
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                self._held[engine] -= 1
                if not self._held[engine]:
                    del self._held[engine]

    def _beat(self) -> None:
        while True:
            time.sleep(search_jobs.LEASE_SECONDS / 3)
            with self._lock:
                engines = list(self._held)
            for engine in engines:
                try:
                    search_jobs.renew(engine, worker_name())
                except Exception:  # a database hiccup: the next beat tries again
                    continue


_heartbeat = _Heartbeat()
_tidied: dict[str, float] = {}


def engine_of(sessions: sessionmaker) -> Engine:
    bind = sessions.kw.get("bind")
    if not isinstance(bind, Engine):
        raise TypeError("the sessionmaker has no engine bound")
    return bind


def tidy_now_and_then(engine: Engine) -> None:
    """`search_jobs.tidy` at most once per `TIDY_EVERY` seconds per database and process."""
    key, now = str(engine.url), time.monotonic()
    if now - _tidied.get(key, -TIDY_EVERY) >= TIDY_EVERY:
        _tidied[key] = now
        search_jobs.tidy(engine)


def run(sessions: sessionmaker, job: Job, client: str) -> None:
    """Search a job this process has claimed, apply its answer, mark it finished. A search
    that raises is recorded as `failed` with its message; `SearchesBusy` (this process's
    pool is full) gives the job back to the queue and is raised to the asker."""
    engine, me = engine_of(sessions), worker_name()
    kind = KINDS.get(job.kind)
    if kind is None:
        search_jobs.finish(engine, job.id, me, "failed", f"no search of kind {job.kind!r}")
        return
    with _heartbeat.holding(engine):
        try:
            work, args = kind.search(job)
            answer = backend().run(client, work, *args)
        except searches.SearchesBusy:
            search_jobs.release(engine, job.id, me)
            raise
        except Exception as exc:  # the job's own fault, told to whoever asks about it
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            search_jobs.finish(engine, job.id, me, "failed", f"the search failed: {first}")
            return
        kind.apply(sessions, job, answer)
        search_jobs.finish(engine, job.id, me, "done", json.dumps(answer))


def check(sessions: sessionmaker, client: str) -> None:
    """`searches.SearchesBusy` now if a search of `client` would be refused (where it runs,
    or by the database's limits): asked before a player's move that the computer must
    answer, so the move is not stored without its answer."""
    backend().check(client)
    with engine_of(sessions).connect() as connection:
        search_jobs.check(connection, client)


def view(game_id: str, version: int, job: Job | None, poll: str) -> dict[str, Any]:
    """Is the computer's move ready, as the API answers it (`ComputerOut`): the search of
    the game's current position (`job`, None when the computer is not to act there)."""
    return {
        "id": game_id,
        "version": version,
        "state": "none" if job is None else job.state,
        "ready": job is None or job.finished,
        "poll": None if job is None or job.finished else poll,
        "error": job.result if job is not None and job.state == "failed" else None,
    }


def settle(sessions: sessionmaker, job: Job, client: str, wait: float) -> Job:
    """Job `job` as it stands after at most `wait` seconds of waiting for another process:
    run here whenever nobody holds it (the usual case: the asker just queued it), read
    until it is finished otherwise."""
    engine = engine_of(sessions)
    deadline = time.monotonic() + wait
    while True:
        if not job.finished:
            mine = search_jobs.claim(engine, worker_name(), job.id)
            if mine is not None:
                run(sessions, mine, client)
        job = search_jobs.read(engine, job.id) or job
        if job.finished or time.monotonic() >= deadline:
            return job
        time.sleep(POLL_SECONDS)
