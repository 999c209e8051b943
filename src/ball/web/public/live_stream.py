"""The live boards' server-sent events (issue 35 §5): one stream per follower, one watch per
followed game.

Owns `LiveHub` (one per app, `hub_of`). A follower's stream (`text/event-stream`) gets the
game's snapshot at once, then a new one each time the game's version changes, a comment
line every `PING_SECONDS` (so a vanished phone is noticed and proxies keep the line open),
and ends after `STREAM_SECONDS` (the browser's EventSource reconnects by itself after
`RETRY_MS`), or with an `end` event when the round is unpublished.

Why it stays cheap with a hall of followers: the followers of one game share one *watch*,
an asyncio task that reads the game's version (one small query) every `CHECK_SECONDS`, or at
once when this process writes the game (`ball.play.signals`), and builds the snapshot
only when the version changed, once for all of them. A follower holds a one-slot queue
(a slow phone skips to the newest board, nothing piles up) and no thread. Reads run on the
hub's own two threads, so a burst of page renders never delays a board. The number of
streams open at once is bounded in all and per address (`Limits.live_streams`,
`live_streams_per_address`): a stranger cannot open enough of them to starve the server.

StreamingResponse over sse-starlette: the protocol needed here is a few lines of text
(`event:`, `data:`, `retry:`, comments), and the bounds, the shared watch and the ping are
ours either way; one dependency fewer to keep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, HTTPException

from ball.play import signals as game_signals
from ball.web.core.limits import Limits, budget_key
from ball.web.public.live_boards import GameRef, LiveBoards

CHECK_SECONDS = 1.0  # a watched game's version is read this often (per game, not follower)
PING_SECONDS = 15.0
STREAM_SECONDS = 300.0  # then the browser reconnects (and is counted again)
RETRY_MS = 3000
RETRY_AFTER = "10"  # seconds, on a refused stream
READS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ball-live")
END = b"event: end\ndata: {}\n\n"
# Not sent: the stream just closes, and the browser reconnects (a read that failed).
CLOSE = b""
LOG = logging.getLogger(__name__)


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event: its name and its data as one line of JSON."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


@dataclass(eq=False)
class _Watch:
    event_id: int
    round: int
    ref: GameRef
    followers: set[asyncio.Queue[bytes]] = field(default_factory=set)
    latest: bytes | None = None
    nudge: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


def _offer(queue: asyncio.Queue[bytes], data: bytes) -> None:
    """Put `data` in a one-slot queue, replacing what the follower has not read yet."""
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(data)


class LiveHub:
    """The open streams and the watched games of one app."""

    def __init__(self, boards: LiveBoards, limits: Limits) -> None:
        self.boards = boards
        self.limits = limits
        self.open = 0
        self._per_address: dict[str, int] = {}
        self._watches: dict[tuple[int, int, GameRef], _Watch] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        game_signals.listen(self._changed)

    def close(self) -> None:
        game_signals.unlisten(self._changed)

    # -- bounds ----------------------------------------------------------------------

    def admit(self, address: str) -> str:
        """Count a new stream of `address` (its budget key), or refuse it: 503 when the
        server holds `live_streams` already, 429 when the address holds its share."""
        key = budget_key(address) or address
        if self.open >= self.limits.live_streams:
            raise HTTPException(
                503,
                f"live boards: {self.limits.live_streams} streams are open, the most this "
                "server keeps; try again shortly",
                headers={"Retry-After": RETRY_AFTER},
            )
        if self._per_address.get(key, 0) >= self.limits.live_streams_per_address:
            raise HTTPException(
                429,
                f"live boards: your address has {self.limits.live_streams_per_address} "
                "streams open, the most one address may",
                headers={"Retry-After": RETRY_AFTER},
            )
        self.open += 1
        self._per_address[key] = self._per_address.get(key, 0) + 1
        return key

    def release(self, key: str) -> None:
        """Give back the place `admit` counted for `key` (once per admitted stream)."""
        self.open -= 1
        left = self._per_address.get(key, 1) - 1
        if left:
            self._per_address[key] = left
        else:
            self._per_address.pop(key, None)

    def watched(self) -> int:
        """Games with a watch running (one however many follow each)."""
        return len(self._watches)

    # -- the stream ------------------------------------------------------------------

    async def stream(
        self, event_id: int, number: int, ref: GameRef, seconds: float = STREAM_SECONDS
    ) -> AsyncIterator[bytes]:
        """A follower's bytes, for at most `seconds` (its place is the caller's to release:
        the generator does not even start when the client leaves first)."""
        self._loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)
        watch = self._watch(event_id, number, ref)
        watch.followers.add(queue)
        if watch.latest is not None:
            _offer(queue, watch.latest)
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            deadline = self._loop.time() + seconds
            while (left := deadline - self._loop.time()) > 0:
                try:
                    data = await asyncio.wait_for(queue.get(), min(PING_SECONDS, left))
                except TimeoutError:
                    yield b": ping\n\n"
                    continue
                if data is CLOSE:
                    break
                yield data
                if data is END:
                    break
        finally:
            watch.followers.discard(queue)
            if not watch.followers and self._watches.get(self._key(watch)) is watch:
                del self._watches[self._key(watch)]
                if watch.task is not None:
                    watch.task.cancel()

    @staticmethod
    def _key(watch: _Watch) -> tuple[int, int, GameRef]:
        return (watch.event_id, watch.round, watch.ref)

    def _watch(self, event_id: int, number: int, ref: GameRef) -> _Watch:
        key = (event_id, number, ref)
        watch = self._watches.get(key)
        if watch is None:
            watch = self._watches[key] = _Watch(event_id, number, ref)
            watch.task = asyncio.get_running_loop().create_task(self._run(watch))
        return watch

    async def _run(self, watch: _Watch) -> None:
        loop = asyncio.get_running_loop()
        seen: str | None = None
        last = END  # what the followers get when the watch ends
        try:
            while watch.followers:
                version = await loop.run_in_executor(
                    READS, self.boards.version, watch.event_id, watch.round, watch.ref
                )
                if version is None:  # unpublished, or the game is gone
                    break
                if version != seen:
                    snapshot = await loop.run_in_executor(READS, self.boards.snapshot, watch.ref)
                    seen = version
                    watch.latest = sse("board", snapshot)
                    for queue in list(watch.followers):
                        _offer(queue, watch.latest)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watch.nudge.wait(), CHECK_SECONDS)
                watch.nudge.clear()
        except asyncio.CancelledError:
            raise
        except Exception:  # a read failed: the followers reconnect and start a new watch
            LOG.exception("live board %s stopped", watch.ref)
            last = CLOSE
        if self._watches.get(self._key(watch)) is watch:
            del self._watches[self._key(watch)]
        for queue in list(watch.followers):
            _offer(queue, last)

    def _changed(self, kind: str, game_id: str) -> None:
        """A game store's write (any thread): wake the game's watches now, on the loop's
        own thread (the watches change there)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._wake, kind, game_id)

    def _wake(self, kind: str, game_id: str) -> None:
        for watch in self._watches.values():
            if watch.ref.kind == kind and watch.ref.id == game_id:
                watch.nudge.set()


_MAKING = threading.Lock()  # one hub per app, however many threads ask first


def hub_of(app: FastAPI) -> LiveHub:
    """The app's hub, made on first use (its boards read the app's database)."""
    hub = getattr(app.state, "live_hub", None)
    if hub is None:
        with _MAKING:
            hub = getattr(app.state, "live_hub", None)
            if hub is None:
                limits = getattr(app.state, "limits", None) or Limits()
                hub = app.state.live_hub = LiveHub(LiveBoards(app.state.sessions), limits)
    return hub
