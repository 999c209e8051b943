"""Public PDFs rendered once per key, one at a time, off the event loop (issue 30 item 9).

A PDF (the regulation, a round's forms) costs WeasyPrint seconds of CPU; rendered per
request, three concurrent round-forms PDFs took 97 s each and slowed every other request.
So a PDF's bytes are kept under a key that names everything it shows: its kind, language,
paper, round, the event and the event's revision token (`ball.tournament.revisions`, which
changes with every write to the event: a kept PDF is never stale), and its audience (the
public, or one desk session: a desk-only variant is never served to anyone else).

- A hit is answered from memory.
- A miss of a key already rendering waits for that render (single flight): the waiter holds
  no thread, it awaits the render's future.
- Renders run on this cache's own `RENDERS_AT_ONCE` thread (1: a render is CPU-bound and the
  machine may have 2 cores), never on the event loop nor in the server's thread pool;
  misses of other keys queue for it.
- Each client address may start `pdf_renders` renders per `pdf_render_window` seconds
  (`ball.web.core.limits`): 429 with Retry-After beyond that; hits and joined renders are free.

Kept bytes are bounded (`MAX_BYTES`, `MAX_ENTRIES`, least recently used first out).
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from fastapi import Request

from ball.web.core.limits import check_creation_rate, limits_of

RENDERS_AT_ONCE = 1
MAX_BYTES = 256 * 1024 * 1024  # a regulation PDF is a few MB; every language and paper fits
MAX_ENTRIES = 256
DESK_COOKIE_PREFIX = "ball_desk_"  # `ball.web.core.security.cookie_name`

Key = tuple[str, ...]


class PdfCache:
    """Rendered PDFs by key, and the renders under way (thread-safe)."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_entries: int = MAX_ENTRIES) -> None:
        self.max_bytes, self.max_entries = max_bytes, max_entries
        self._kept: OrderedDict[Key, bytes] = OrderedDict()
        self._bytes = 0
        self._flights: dict[Key, Future[bytes]] = {}
        self._lock = threading.Lock()
        self._renderer = ThreadPoolExecutor(RENDERS_AT_ONCE, thread_name_prefix="ball-pdf")
        self.renders = 0  # renders started (tests and benchmarks read it)

    def known(self, key: Key) -> bool:
        """Whether `key` is kept or rendering: asking for it starts no render."""
        with self._lock:
            return key in self._kept or key in self._flights

    def fetch(self, key: Key, render: Callable[[], bytes]) -> Future[bytes]:
        """The PDF of `key`: kept, the render under way, or a render queued now."""
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
                done: Future[bytes] = Future()
                done.set_result(body)
                return done
            flight = self._flights.get(key)
            if flight is None:
                self.renders += 1
                flight = self._flights[key] = self._renderer.submit(self._render, key, render)
            return flight

    def _render(self, key: Key, render: Callable[[], bytes]) -> bytes:
        try:
            body = render()
            self._keep(key, body)
            return body
        finally:  # a failed render is not kept: the next request tries again
            with self._lock:
                self._flights.pop(key, None)

    def _keep(self, key: Key, body: bytes) -> None:
        with self._lock:
            self._kept[key] = body
            self._bytes += len(body)
            while self._kept and (
                self._bytes > self.max_bytes or len(self._kept) > self.max_entries
            ):
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)


def cache_of(request: Request) -> PdfCache:
    cache = getattr(request.app.state, "pdf_cache", None)
    if cache is None:
        cache = request.app.state.pdf_cache = PdfCache()
    return cache


def audience(request: Request) -> str:
    """Who the PDF is for: "public", or a digest of the request's desk cookies, so that a
    PDF rendered for one desk session is only ever given back to that session."""
    desk = sorted((k, v) for k, v in request.cookies.items() if k.startswith(DESK_COOKIE_PREFIX))
    if not desk:
        return "public"
    return "desk:" + hashlib.sha256(repr(desk).encode()).hexdigest()[:32]


async def cached_pdf(request: Request, key: Key, render: Callable[[], bytes]) -> bytes:
    """The PDF of `key` (with the request's audience added), rendered by `render` only when
    it is neither kept nor rendering; a new render counts against the address's rate."""
    cache = cache_of(request)
    key = (*key, audience(request))
    if not cache.known(key):
        limits = limits_of(request)
        check_creation_rate(request, "PDF renders", (limits.pdf_renders, limits.pdf_render_window))
    # shielded: a client that goes away must not cancel a render others wait for
    return await asyncio.shield(asyncio.wrap_future(cache.fetch(key, render)))
