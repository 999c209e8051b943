"""Rendered public pages kept per event, and the ETag that lets a phone skip the download.

A public page (standings, results, pairings, and any other page of an event that goes
through `cached_page`) is a pure function of the event's rows, the request's path and query,
its language and the desk's signal gap. The event's revision token
(`ball.tournament.revisions`) changes with every write to those rows, from any process, so
the page's bytes are kept under (event, token, path, query, language, gap) and a view that
finds its key costs one small query for the token. A write gives the event a new token:
the next view misses and renders anew; the old entries fall out of the bounded LRU.

The ETag is a digest of that key and of this process's start (a new server with other code
never answers 304 for a page an older one rendered). A request whose `If-None-Match` holds
it gets 304 with no body, before anything is rendered or looked up in memory.

Hits never wait for misses: the route is async, a hit is answered on the event loop after
one token read on threads of its own (`TOKEN_READS`), and only misses go to the server's
thread pool. Concurrent misses of one key render once (the others wait for it): when a
result comes in, the hall's phones asking for the same page do not render it each; and at most
`RENDERS_AT_ONCE` pages render at a time, so a burst of misses never exhausts the database
connection pool (it did: HTTP 500 at 200 phones before this bound).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar, cast

from fastapi import Request, Response
from starlette.concurrency import run_in_threadpool

from ball.tournament.service import TournamentService
from ball.web.templating import request_language

BOOT = secrets.token_hex(8)  # this process: ETags of an older server never match
MAX_BYTES = 64 * 1024 * 1024  # kept pages, all events together
MAX_ENTRIES = 2048
# Pages rendered at once. A render holds a database connection and a core; more at once
# (a hall of phones after a write, every standings page a different key) only queue for
# the connection pool and time out. The others wait here, holding nothing.
RENDERS_AT_ONCE = 2
DATA_ENTRIES = 16  # shared computations (a few events' standings and event views)
# Rendered parts of pages kept across tokens (a results page's rounds: a result re-renders
# its own round only); keyed by the digest of what they show, so never stale.
PART_ENTRIES = 512
T = TypeVar("T")
# Threads that read event tokens, apart from the server's pool where misses render and wait:
# a hit needs one of these for a one-row query, never a thread a render holds. Shared by
# every app of the process (threads start on demand).
TOKEN_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ball-token")
# Phones must ask every time (the page refreshes itself); they may keep the body for a 304.
CACHE_CONTROL = "no-cache"
VARY = "Accept-Language, Cookie"


@dataclass(frozen=True)
class Page:
    body: bytes
    media_type: str
    etag: str


class PageCache:
    """A bounded LRU of rendered pages (by key), safe across the server's threads."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_entries: int = MAX_ENTRIES) -> None:
        self.max_bytes, self.max_entries = max_bytes, max_entries
        self._pages: OrderedDict[str, Page] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._rendering: dict[str, threading.Lock] = {}
        self._renders = threading.BoundedSemaphore(RENDERS_AT_ONCE)
        self._data: OrderedDict[str, object] = OrderedDict()
        self._parts: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self.renders = 0  # pages rendered (misses); tests and benchmarks read it

    def get(self, key: str) -> Page | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: str, page: Page) -> None:
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= len(old.body)
            self._pages[key] = page
            self._bytes += len(page.body)
            while self._pages and (
                self._bytes > self.max_bytes or len(self._pages) > self.max_entries
            ):
                _, dropped = self._pages.popitem(last=False)
                self._bytes -= len(dropped.body)

    def render_once(self, key: str, build: Callable[[], Page]) -> Page:
        """The page of `key`, rendered by `build` only when no other thread is doing so."""
        page = self.get(key)
        if page is not None:
            return page
        with self._lock:
            lock = self._rendering.setdefault(key, threading.Lock())
        try:
            with lock:
                page = self.get(key)  # rendered by the thread we waited for
                if page is None:
                    with self._renders:
                        page = build()
                    self.renders += 1
                    self.put(key, page)
            return page
        finally:
            with self._lock:
                self._rendering.pop(key, None)

    def __len__(self) -> int:
        return len(self._pages)

    def part(self, key: tuple[object, ...], build: Callable[[], str]) -> str:
        """A rendered part of a page under `key`, which must name everything the part shows
        (not the event's token: a part outlives writes that do not change it). Two threads
        may build the same part at once; both results are the same text."""
        with self._lock:
            text = self._parts.get(key)
            if text is not None:
                self._parts.move_to_end(key)
                return text
        text = build()
        with self._lock:
            self._parts[key] = text
            while len(self._parts) > PART_ENTRIES:
                self._parts.popitem(last=False)
        return text

    def data(self, key: str, build: Callable[[], T]) -> T:
        """What several pages of one event token share (its standings, the event with its
        rounds), computed once per key: the pages of a long standings table are one
        computation, not one each. A few recent keys are kept."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return cast(T, self._data[key])
            lock = self._rendering.setdefault("data|" + key, threading.Lock())
        with lock:
            with self._lock:
                if key in self._data:
                    return cast(T, self._data[key])
            value = build()
            with self._lock:
                self._data[key] = value
                while len(self._data) > DATA_ENTRIES:
                    self._data.popitem(last=False)
        return value


def cache_of(request: Request) -> PageCache:
    """The app's page cache (made at its first use, so the app factory needs no change)."""
    state = request.app.state
    cache = getattr(state, "page_cache", None)
    if cache is None:
        cache = state.page_cache = PageCache()
    return cache


def page_key(request: Request, event_id: int, token: str, extra: str = "") -> str:
    query = "&".join(f"{k}={v}" for k, v in sorted(request.query_params.multi_items()))
    lang = request_language(request)
    return f"{event_id}|{token}|{request.url.path}|{query}|{lang}|{extra}"


def etag_of(key: str) -> str:
    return '"' + hashlib.sha256(f"{BOOT}|{key}".encode()).hexdigest()[:32] + '"'


def _matches(request: Request, etag: str) -> bool:
    given = request.headers.get("if-none-match", "")
    tags = {t.strip().removeprefix("W/") for t in given.split(",")}
    return etag in tags or "*" in tags


def _headers(etag: str) -> dict[str, str]:
    return {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Vary": VARY}


async def cached_page(
    request: Request,
    svc: TournamentService,
    event_id: int,
    render: Callable[[], Response],
    extra: str = "",
) -> Response:
    """The page `render` makes for this request, from the cache while the event is
    unchanged; 304 when the request already holds it. `extra`: anything else the page
    depends on (beyond the event, path, query and language). An event without a token
    (none such: `render` answers its 404) is never kept.

    A hit is answered on the event loop: only the token is read, on `TOKEN_READS`'s own
    threads. A miss renders in the server's thread pool (`render_once`), where waiting
    misses hold threads; they can no longer hold up the hits (they did: p95 of seconds
    for a 9 ms hit with 200 phones after a result)."""
    loop = asyncio.get_running_loop()
    token = await loop.run_in_executor(TOKEN_READS, svc.event_revision, event_id)
    if token is None:
        return await run_in_threadpool(render)
    key = page_key(request, event_id, token, extra)
    request.state.event_token = token  # for `shared` in the render
    etag = etag_of(key)
    if _matches(request, etag):
        return Response(status_code=304, headers=_headers(etag))
    cache = cache_of(request)
    page = cache.get(key)
    if page is None:

        def build() -> Page:
            response = render()
            media_type = response.media_type or "text/html"
            if response.status_code != 200:  # errors are not kept (nor given an ETag)
                raise _Uncached(response)
            return Page(bytes(response.body), media_type, etag)

        try:
            page = await run_in_threadpool(cache.render_once, key, build)
        except _Uncached as passed:
            return passed.response
    return Response(page.body, media_type=page.media_type, headers=_headers(page.etag))


def shared(request: Request, event_id: int, name: str, build: Callable[[], T]) -> T:
    """`build()` once per event token for every page of the event rendered under it (in a
    `cached_page` render); computed afresh outside one."""
    token = getattr(request.state, "event_token", None)
    if token is None:
        return build()
    return cache_of(request).data(f"{event_id}|{token}|{name}", build)


class _Uncached(Exception):
    """A response `render` made that is not a page to keep (a 4xx raised as a value)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response
