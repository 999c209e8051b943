"""The public pages kept per event, and their renders after writes (`PageCache`).

`ball.web.page_cache` answers a request from here: a page's bytes are kept under (event,
token, slot), the slot being the path, query, language and the desk's signal gap
(`slot_key`); concurrent misses of one key render once, and at most `RENDERS_AT_ONCE` pages
render at a time, so a burst of misses never exhausts the database connection pool (it
did: HTTP 500 at 200 phones before this bound).

Render after write, not on the phone's time (issue 15): every page a phone asked for is
*watched* (its slot, with what renders it). When a write of this process commits
(`revisions.on_commit`: every kind of write) or a reader notices another process's write by
the token, the event's watched pages are rendered again in the background (`RERENDERS`),
one pass at a time per event; writes during a pass make one more pass after it. A pass
renders the pages phones look at about as often as the event is written, or more; a page
looked at less often waits for its reader, since a later write would outdate it again first
(`PageCache._due`). While a slot's new page renders, `stale` offers the slot's previous page
for at most `STALE_SECONDS` after the server learned of the write (decisions D-P1 and D-P2,
docs/rules-decisions.md, say to whom). A render that fails is logged and forgets the slot:
no stale page is served after it.

Background renders run on the cache's own two threads, which live from the app's start to
its shutdown (`start`, `stop`): an app never started (a TestClient outside `with`) renders
on the readers' time only, and a shut-down app leaves no thread behind.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar, cast

from fastapi import HTTPException, Response

from ball.tournament import revisions
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService

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
            except (Uncached, HTTPException, TournamentError):  # no longer a page (the
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


def slot_key(event_id: int, token: str, slot: str) -> str:
    return f"{event_id}|{token}|{slot}"


def _average(old: float | None, new: float) -> float:
    """A running average of intervals that follows a change of pace within a few."""
    return new if old is None else (old + new) / 2


class Uncached(Exception):
    """A response `render` made that is not a page to keep (a 4xx raised as a value)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response
