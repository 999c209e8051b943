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

Render after write, not on the phone's time (issue 15): every page a phone asked for is
*watched* (its slot: the key without the token, with what renders it). When a write of this
process commits (`revisions.on_commit`: every kind of write) or a reader notices another
process's write by the token, the event's watched pages are rendered again in the
background (`RERENDERS`), one pass at a time per event; writes during a pass make one more
pass after it. A pass renders the pages phones look at about as often as the event is
written, or more; a page looked at less often waits for its reader, since a later write
would outdate it again first (`PageCache._due`). While a slot's new page renders, a phone
gets the slot's previous page at once with that page's own ETag (so its 304 stays right),
for at most `STALE_SECONDS` after the server learned of the write, if it holds that page
already (it sent its ETag: a 304; decision D-P1, docs/rules-decisions.md) or an older
rendering of the same page (one of its last `RECENT_ETAGS` tags: it is given the previous
page, a 200 with that page's ETag; D-P2); a reader without one (a new visitor) waits for
the new page. After the bound, or when no render of the slot is in progress, the reader
renders (or waits for the render) as before, so a reader after a finished render never sees
an older page. A render that fails is logged and forgets the slot: no stale page is served
after it. A request that carries the event's desk cookie (the arbiter's browser) is never
given a previous page.

Background renders run on the cache's own two threads, which live from the app's start to
its shutdown (`lifespan`): an app never started (a TestClient outside `with`) renders on the
readers' time only, and a shut-down app leaves no thread behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import logging
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar, cast

from fastapi import FastAPI, HTTPException, Request, Response
from starlette.concurrency import run_in_threadpool

from ball.tournament import revisions
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.core.security import cookie_name
from ball.web.core.templating import request_language

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
# D-P1: how long after the server learned of a write a phone may still get the page as it
# was before it, while the new page renders (a render takes 0.1-0.3 s at 500-1,000
# entrants; the bound covers a queue of them on a loaded machine, and is far below the
# phones' 30-s refresh, so a result reaches the hall in the same refresh either way).
STALE_SECONDS = 2.0
# A write renders a watched page in advance only if phones look at it at least once per
# this many of the event's write intervals (`PageCache._due`); the others wait for their
# reader, who would otherwise find it outdated again by a later write.
AHEAD = 2.0
# D-P2: a phone showing any of a slot's last this many renderings holds a page of the slot
# (a results page asked every 3 s renders about ten times between one phone's refreshes).
RECENT_ETAGS = 32
MAX_WATCHED = 256  # slots kept for background renders, all events together (LRU)
# A slot nobody asked for in this long is no longer rendered after writes (phones refresh
# every 30 s by default; a projector paging through standings comes back within minutes).
WATCH_SECONDS = 300.0
# Background renders after a write: one pass per event at a time, two events at once (the
# cache's own threads, `PageCache.start`; named so that tests can tell them apart).
RERENDERS = 2
RERENDER_THREAD = "ball-rerender"
LOG = logging.getLogger(__name__)
# The token a render is for (`shared` keys on it); a context variable, not the request's
# state, since a background render reuses the request of the phone that asked first.
RENDER_TOKEN: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "ball_render_token", default=None
)
# Phones must ask every time (the page refreshes itself); they may keep the body for a 304.
CACHE_CONTROL = "no-cache"
VARY = "Accept-Language, Cookie"


@dataclass(frozen=True)
class Page:
    body: bytes
    media_type: str
    etag: str


@dataclass
class Watch:
    """A page phones watch: its latest rendering and how to render it under a new token."""

    build: Callable[[str], Page]  # the page under a token (the first asker's request)
    token: str = ""  # of `page`
    page: Page | None = None
    read_at: float = float("-inf")  # when `token` was read (the page was current then)
    superseded: float | None = None  # when the server learned `page` is outdated
    rendering: int = 0  # renders of this slot in progress (or queued in a pass)
    asked: float = 0.0  # when a phone last asked for it (got it, stale or rendered it)
    seen: float | None = None  # when the last answer of the slot was given (`answered`)
    # ETags of the slot's latest renderings: a reader sending one holds a page of the slot
    etags: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_ETAGS))
    gap: float | None = None  # average seconds between the slot's answers (None: unknown)


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
        self.stale_seconds = STALE_SECONDS
        self.stale_served = 0  # answers given from a previous rendering
        self.stale_age = 0.0  # the oldest of them: seconds since its write was learned
        self.hold: Callable[[str], None] | None = None  # tests: called before each render
        self.clock: Callable[[], float] = time.monotonic  # tests inject one (the bound)
        self.passes = 0  # background passes made (tests: coalescing)
        self._pool: ThreadPoolExecutor | None = None  # between `start` and `stop` only
        self._watches: OrderedDict[tuple[int, str], Watch] = OrderedDict()
        self._written: dict[int, float] = {}  # event -> when this process last wrote it
        self._write_gap: dict[int, float] = {}  # event -> average seconds between its writes
        self._busy: set[int] = set()  # events with a background pass running
        self._again: set[int] = set()  # ... and written again during it
        self._idle = threading.Condition(self._lock)
        self._svc: TournamentService | None = None

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
                        if self.hold is not None:
                            self.hold(key)
                        page = build()
                    with self._lock:
                        self.renders += 1
                    self.put(key, page)
            return page
        finally:
            with self._lock:
                self._rendering.pop(key, None)

    def __len__(self) -> int:
        return len(self._pages)

    # -- watched pages: render after write, serve the previous page meanwhile -------------

    def start(self) -> None:
        """The app started: writes from now on render the watched pages in the background."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(RERENDERS, thread_name_prefix=RERENDER_THREAD)

    def stop(self) -> None:
        """The app shuts down: no new pass starts, queued ones are dropped, the running ones
        finish their current page, and the threads end before this returns."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            self._busy.clear()  # the cancelled passes never ran to clear theirs
            self._again.clear()
            self._idle.notify_all()

    def attach(self, svc: TournamentService) -> None:
        """Learn of this process's writes on `svc`'s engine (once per cache)."""
        with self._lock:
            if self._svc is not None:
                return
            self._svc = svc
        revisions.on_commit(svc.engine, self.written)

    def render_slot(
        self,
        event_id: int,
        slot: str,
        token: str,
        build: Callable[[str], Page],
        read_at: float | None = None,
        reader: bool = True,
    ) -> Page:
        """The page of `slot` under `token` (read at `read_at`, or now), rendered once
        (`render_once`); while it renders, other readers of the slot may get its previous
        page (`stale`). The slot is watched from now on: later writes render it again in the
        background. `reader`: a phone asked (not the background)."""
        if read_at is None:
            read_at = self.clock()
        with self._lock:
            watch = self._watches.get((event_id, slot))
            if watch is None:
                watch = self._watches[(event_id, slot)] = Watch(build)
            watch.rendering += 1
            if reader:
                watch.asked = max(watch.asked, read_at)
            self._watches.move_to_end((event_id, slot))
            while len(self._watches) > MAX_WATCHED:
                self._watches.popitem(last=False)
        try:
            page = self.render_once(slot_key(event_id, token, slot), lambda: build(token))
        finally:
            with self._lock:
                watch.rendering -= 1
        self._store(event_id, watch, build, token, page, read_at)
        return page

    def _store(
        self,
        event_id: int,
        watch: Watch,
        build: Callable[[str], Page],
        token: str,
        page: Page,
        read_at: float,
    ) -> None:
        with self._lock:
            if read_at < watch.read_at:  # a newer rendering is kept already
                return
            watch.build, watch.token, watch.page, watch.read_at = build, token, page, read_at
            if page.etag not in watch.etags:
                watch.etags.append(page.etag)
            written = self._written.get(event_id, float("-inf"))
            # a write this process made after the token was read: outdated from then on
            watch.superseded = written if written > read_at else None

    def asked(self, event_id: int, slot: str) -> None:
        """A phone got the slot's current page from the cache: keep rendering it."""
        with self._lock:
            watch = self._watches.get((event_id, slot))
            if watch is not None:
                watch.asked = self.clock()

    def answered(self, event_id: int, slot: str) -> None:
        """A reader got an answer for the slot (once per request, however it was made):
        how often the slot is looked at decides whether a write renders it in advance."""
        now = self.clock()
        with self._lock:
            watch = self._watches.get((event_id, slot))
            if watch is None:
                return
            if watch.seen is not None:
                watch.gap = _average(watch.gap, now - watch.seen)
            watch.seen = now

    def stale(
        self, event_id: int, slot: str, token: str, holds: Callable[[str], bool]
    ) -> Page | None:
        """The slot's previous page, if a phone may have it now instead of waiting for the
        one of `token`: the phone holds a page of the slot (`holds(an ETag)`: it sent one of
        the slot's recent tags; that very page: D-P1, an older one: D-P2), a render of the
        slot is in progress, and the server learned of the write that outdated the page at
        most `stale_seconds` ago. None: the reader renders or waits for the render."""
        now = self.clock()
        with self._lock:
            watch = self._watches.get((event_id, slot))
            if watch is None or watch.page is None or watch.token == token:
                return None
            if watch.superseded is None:  # another process's write, learned by this reader
                watch.superseded = now
                kick = True
            else:
                kick = False
            age = now - watch.superseded
            fresh_enough = watch.rendering and age <= self.stale_seconds
            holder = any(holds(tag) for tag in watch.etags)
            page = watch.page if fresh_enough and holder else None
            watch.asked = now
            if page is not None:
                self.stale_served += 1
                self.stale_age = max(self.stale_age, age)
        if kick:  # the event's other watched pages: render them before their phones ask
            self.kick(event_id)
        return page

    def written(self, event_ids: set[int]) -> None:
        """This process committed writes to `event_ids` (`revisions.ALL`: to any event):
        their watched pages are outdated from now and render again in the background.
        Called in the writer's thread after its commit: it only marks and queues."""
        now = self.clock()
        with self._lock:
            watched = {e for e, _ in self._watches}
            events = watched if revisions.ALL in event_ids else watched & event_ids
            for (event_id, _), watch in self._watches.items():
                if event_id in events and watch.superseded is None:
                    watch.superseded = now
            # only watched events are remembered: the maps stay as small as the watches
            self._written = {e: t for e, t in self._written.items() if e in watched}
            self._write_gap = {e: g for e, g in self._write_gap.items() if e in watched}
            for event_id in events:
                if event_id in self._written:
                    gap = now - self._written[event_id]
                    self._write_gap[event_id] = _average(self._write_gap.get(event_id), gap)
                self._written[event_id] = now
        for event_id in sorted(events):
            self.kick(event_id)

    def kick(self, event_id: int) -> None:
        """Render the event's watched pages again in the background: one pass at a time per
        event; a kick during a pass makes one more pass after it (a burst coalesces). Not
        between the app's shutdown and its next start: the readers render as before."""
        with self._lock:
            if self._pool is None:
                return
            if event_id in self._busy:
                self._again.add(event_id)
                return
            self._busy.add(event_id)
            # under the lock: `stop` cannot shut the pool down between the check and this
            self._pool.submit(self._passes, event_id)

    def _passes(self, event_id: int) -> None:
        try:
            while True:
                with self._lock:
                    self._again.discard(event_id)
                self._pass(event_id)
                with self._lock:
                    self.passes += 1
                    if event_id not in self._again or self._pool is None:
                        return
        except Exception:  # the token read failed: the readers render as before
            LOG.exception("public pages of event %s: background render failed", event_id)
        finally:
            with self._lock:
                self._busy.discard(event_id)
                self._again.discard(event_id)
                self._idle.notify_all()

    def _pass(self, event_id: int) -> None:
        svc = self._svc
        if svc is None:
            return
        read_at = self.clock()  # before the token: a write after it makes the page outdated
        token = svc.desk.event_revision(event_id)
        with self._lock:
            todo = self._due(event_id, token, read_at - WATCH_SECONDS)
            for _, watch in todo:
                watch.rendering += 1
        for slot, watch in todo:
            try:
                if token is None or self._pool is None:  # the event is gone, or the app
                    self.forget(event_id, slot)  # shuts down: the readers render
                else:
                    self.render_slot(event_id, slot, token, watch.build, read_at, False)
            except (_Uncached, HTTPException, TournamentError):  # no longer a page (the
                self.forget(event_id, slot)  # event or round is gone): the reader gets the error
            except Exception:  # logged; the next reader renders itself, no stale page
                LOG.exception("public page %s of event %s: render failed", slot, event_id)
                self.forget(event_id, slot)
            finally:
                with self._lock:
                    watch.rendering -= 1

    def _due(self, event_id: int, token: str | None, since: float) -> list[tuple[str, Watch]]:
        """The event's watched slots to render again under `token` (under the lock).

        A slot is rendered when a phone asked for it since its page's token was read, and
        it is looked at about as often as the event is written, or more (`AHEAD`): a page
        looked at less often would be outdated again by the next write before its next
        reader came, so rendering it now is CPU for no one, and its reader renders it
        anyway (bench/public.py, 500 entrants, a result every 2.4 s: each of 63 standings
        pages is looked at every ~10 s; rendering each after every write it was asked
        before made 930 renders for 38 results, twice the renders of no background at
        all). A page nobody looked at since it was last rendered waits for its reader too.
        Yet one page of each kind (path) is rendered even so, and first: its render
        computes what the kind's pages share (`shared`: the event, the ranking), so their
        readers then render only their own rows (3 ms for a page of standings)."""
        todo: list[tuple[str, Watch]] = []
        kinds: dict[str, tuple[str, Watch]] = {}
        write_gap = self._write_gap.get(event_id)
        for (e, slot), watch in self._watches.items():
            if e != event_id or watch.token == token or watch.asked < since:
                continue
            often = write_gap is None or watch.gap is None or watch.gap <= AHEAD * write_gap
            if watch.asked >= watch.read_at and often:
                todo.append((slot, watch))
            kind = slot.split("|", 1)[0]
            if kind not in kinds or kinds[kind][1].asked <= watch.asked:
                kinds[kind] = (slot, watch)
        first = sorted(kinds.values(), key=lambda found: found[1].asked, reverse=True)
        firsts = {slot for slot, _ in first}
        rest = [found for found in todo if found[0] not in firsts]
        rest.sort(key=lambda found: found[1].asked, reverse=True)
        return first + rest

    def forget(self, event_id: int, slot: str) -> None:
        with self._lock:
            self._watches.pop((event_id, slot), None)

    def settle(self, timeout: float = 30.0) -> bool:
        """Wait until no background pass runs (tests, benchmarks); False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._busy, timeout)

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
    return app_cache(request.app)


def app_cache(app: FastAPI) -> PageCache:
    state = app.state
    cache = getattr(state, "page_cache", None)
    if cache is None:
        with _MAKING:
            cache = getattr(state, "page_cache", None)
            if cache is None:
                cache = state.page_cache = PageCache()
    return cache


_MAKING = threading.Lock()


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's life: background renders run from its start to its shutdown, which waits
    for them (uvicorn and a TestClient used in `with` both run it). Before the first request
    is taken, `app.state.warm_up` (if set) fills what the newest events' pages share: a
    server (re)started while a hall of phones watches would otherwise rank the event and
    warm its own code on the first phones' time (they waited 0.4-4 s, issue 15)."""
    cache = app_cache(app)
    cache.start()
    warm_up: Callable[[FastAPI], None] | None = getattr(app.state, "warm_up", None)
    if warm_up is not None:
        await asyncio.get_running_loop().run_in_executor(None, _warm, warm_up, app)
    try:
        yield
    finally:
        await asyncio.get_running_loop().run_in_executor(None, cache.stop)


def _warm(warm_up: Callable[[FastAPI], None], app: FastAPI) -> None:
    """`warm_up(app)`; a failure is logged, never keeps the server from starting (the
    pages then compute what they need on their readers' time, as without it)."""
    try:
        warm_up(app)
    except Exception:
        LOG.exception("warming the public pages' shared data failed")


def page_slot(request: Request, extra: str = "") -> str:
    """What a page is besides its event and token: path, query, language, `extra`."""
    query = "&".join(f"{k}={v}" for k, v in sorted(request.query_params.multi_items()))
    lang = request_language(request)
    return f"{request.url.path}|{query}|{lang}|{extra}"


def slot_key(event_id: int, token: str, slot: str) -> str:
    return f"{event_id}|{token}|{slot}"


def etag_of(key: str) -> str:
    return '"' + hashlib.sha256(f"{BOOT}|{key}".encode()).hexdigest()[:32] + '"'


def _given_tags(request: Request) -> frozenset[str]:
    """The ETags the request's If-None-Match names (read once per request: D-P2 compares
    them with each of a slot's recent tags, under the cache's lock)."""
    given = request.headers.get("if-none-match", "")
    return frozenset(t.strip().removeprefix("W/") for t in given.split(","))


def _matches(tags: frozenset[str], etag: str) -> bool:
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
    cache = cache_of(request)
    read_at = cache.clock()  # before the token: a write after it makes this page outdated
    token = await loop.run_in_executor(TOKEN_READS, svc.desk.event_revision, event_id)
    if token is None:
        return await run_in_threadpool(render)
    slot = page_slot(request, extra)
    try:
        return await _answer(request, svc, event_id, render, token, slot, read_at)
    finally:
        cache.answered(event_id, slot)


async def _answer(
    request: Request,
    svc: TournamentService,
    event_id: int,
    render: Callable[[], Response],
    token: str,
    slot: str,
    read_at: float,
) -> Response:
    """`cached_page`'s answer for the slot under `token` (read at `read_at`)."""
    cache = cache_of(request)
    key = slot_key(event_id, token, slot)
    etag = etag_of(key)
    given = _given_tags(request)
    if _matches(given, etag):
        return Response(status_code=304, headers=_headers(etag))
    cache.attach(svc)
    page = cache.get(key)
    if page is not None:
        cache.asked(event_id, slot)
    elif cookie_name(event_id) not in request.cookies:  # the desk sees its own writes
        # D-P1, D-P2: a phone holding a page of the slot gets the previous one (a 304 if it
        # holds that very page) while the new one renders; a reader without one (a new
        # visitor) waits for the new page
        held = cache.stale(event_id, slot, token, lambda tag: _matches(given, tag))
        if held is not None and _matches(given, held.etag):
            return Response(status_code=304, headers=_headers(held.etag))
        page = held
    if page is None:

        def build(for_token: str) -> Page:
            """The page under `for_token` (this request's, or a later one's in a
            background render after a write)."""
            mark = RENDER_TOKEN.set(for_token)
            try:
                response = render()
            finally:
                RENDER_TOKEN.reset(mark)
            media_type = response.media_type or "text/html"
            if response.status_code != 200:  # errors are not kept (nor given an ETag)
                raise _Uncached(response)
            return Page(
                bytes(response.body), media_type, etag_of(slot_key(event_id, for_token, slot))
            )

        try:
            page = await run_in_threadpool(cache.render_slot, event_id, slot, token, build, read_at)
        except _Uncached as passed:
            cache.forget(event_id, slot)
            return passed.response
    return Response(page.body, media_type=page.media_type, headers=_headers(page.etag))


def shared(request: Request, event_id: int, name: str, build: Callable[[], T]) -> T:
    """`build()` once per event token for every page of the event rendered under it (in a
    `cached_page` render); computed afresh outside one."""
    token = RENDER_TOKEN.get()
    if token is None:
        return build()
    return cache_of(request).data(data_key(event_id, token, name), build)


def data_key(event_id: int, token: str, name: str) -> str:
    """The key of what `name` computes for the event under `token` (`shared`, and a warm-up
    filling the same entries ahead of the first reader)."""
    return f"{event_id}|{token}|{name}"


def _average(old: float | None, new: float) -> float:
    """A running average of intervals that follows a change of pace within a few."""
    return new if old is None else (old + new) / 2


class _Uncached(Exception):
    """A response `render` made that is not a page to keep (a 4xx raised as a value)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response
