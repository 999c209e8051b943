"""Computer searches off every game lock, in a bounded pool with a queue per client.

Issue 30 item 7: the computer's search used to run while holding the database's write lock
(`ball.play.write_locks`), so four players against the "hard" computer made everyone
else's moves wait seconds. Now a search (the computer's whole turn in a BALL game, one move
in a Xiangqi game) is a job on a *copy* of the position: its inputs are plain values (a
position document, a FEN), and its work is a module-level function the caller names, in its
game's folder (BALL's `ball.games.ball.ai.turn.ball_turn`, Xiangqi's
`ball.games.xiangqi.ai.search.move_text`). It runs in a worker process of a bounded pool
(`SEARCHES_AT_ONCE`), and it returns action texts. A process, not a thread: a search is
pure Python, and in a thread it would take the interpreter lock from the requests that the
server answers meanwhile. The caller applies what comes back under the write lock, and only
if the game is still at the version it searched (`ball.games.ball.play.store`,
`ball.games.xiangqi.web.game_store`).

Jobs wait in one queue per client, and the pool takes the clients in turn, so a client
with several searches queued does not delay one with a single search by more than one
search. A client may have `QUEUED_PER_CLIENT` searches waiting or running and all clients
together `QUEUED_IN_ALL`; beyond that a request is refused at once (`SearchesBusy`, HTTP 429
with the limit named), never parked on a server thread.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ball.play.errors import ComputerBusy

SEARCHES_AT_ONCE = 1  # worker processes: the other core answers requests (2-core machine)
QUEUED_PER_CLIENT = 2  # a player's reply and a hint, say; more is a client hammering
QUEUED_IN_ALL = 16  # each waiting request holds a server thread: keep well under its pool


class SearchesBusy(ComputerBusy):
    """The queue of this client, or of everyone, is full: try again after a search. It is
    the games' `ComputerBusy` (a 429), so a game's store lets it through as it is."""


def _follow_parent(parent: int) -> None:
    """A worker's start: it exits once the server process that made it is gone, even
    SIGKILLed (no shutdown handler runs then), instead of living on as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="ball-search-parent", daemon=True).start()


@dataclass
class _Job:
    work: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future = field(default_factory=Future)


class SearchPool:
    """Searches of every client, taken from per-client queues in turn by `workers` threads,
    each handing its job to the process pool and waiting (off the interpreter lock)."""

    def __init__(
        self,
        workers: int = SEARCHES_AT_ONCE,
        per_client: int = QUEUED_PER_CLIENT,
        in_all: int = QUEUED_IN_ALL,
    ) -> None:
        self.workers, self.per_client, self.in_all = workers, per_client, in_all
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._held: dict[str, int] = {}  # searches queued or running, per client
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._processes: ProcessPoolExecutor | None = None

    def check(self, client: str) -> None:
        """`SearchesBusy` now if a search of `client` would be refused: asked before a
        player's action that the computer must answer, so the action is not stored without
        its answer."""
        with self._cond:
            self._refuse(client)

    def run(self, client: str, work: Callable[..., Any], *args: Any) -> Any:
        """`work(*args)` in a worker process, after the searches queued before it (taking
        clients in turn); raises `SearchesBusy` at once when the queues are full."""
        job = _Job(work, args)
        with self._cond:
            self._refuse(client)
            self._held[client] = self._held.get(client, 0) + 1
            self._queues.setdefault(client, deque()).append(job)
            self._start_workers()
            self._cond.notify()
        return job.future.result()

    def _refuse(self, client: str) -> None:
        """Raise `SearchesBusy` if the queues are full for `client` (lock held)."""
        if self._held.get(client, 0) >= self.per_client:
            raise SearchesBusy(
                f"this address already has {self.per_client} computer searches under "
                "way; wait for their answers"
            )
        if sum(self._held.values()) >= self.in_all:
            raise SearchesBusy(
                f"the server is running the most computer searches it queues "
                f"({self.in_all}); try again in a few seconds"
            )

    def _start_workers(self) -> None:
        while len(self._threads) < self.workers:
            thread = threading.Thread(target=self._serve, name="ball-search", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _next(self) -> tuple[str, _Job]:
        with self._cond:
            while not self._queues:
                self._cond.wait()
            client, queue = next(iter(self._queues.items()))
            job = queue.popleft()
            del self._queues[client]
            if queue:  # this client's next search goes behind everyone else's
                self._queues[client] = queue
            return client, job

    def _serve(self) -> None:
        while True:
            client, job = self._next()
            try:
                job.future.set_result(self._compute(job))
            except BaseException as exc:  # the caller gets the job's own error
                job.future.set_exception(exc)
            finally:
                with self._cond:
                    self._held[client] -= 1
                    if not self._held[client]:
                        del self._held[client]

    def _compute(self, job: _Job) -> Any:
        for attempt in (1, 2):  # a worker process killed under us: one fresh pool, once
            try:
                return self._pool().submit(job.work, *job.args).result()
            except BrokenProcessPool:
                self._processes = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _pool(self) -> ProcessPoolExecutor:
        if self._processes is None:
            # spawn, not fork: the server has threads (and open SQLite files) a fork copies
            self._processes = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_follow_parent,
                initargs=(os.getpid(),),
            )
        return self._processes


pool = SearchPool()
