"""Public pages answered from the pages kept per event, and the ETag that lets a phone skip
the download.

A public page (standings, results, pairings, and any other page of an event that goes
through `cached_page`) is a pure function of the event's rows, the request's path and query,
its language and the desk's signal gap. The event's revision token
(`ball.tournament.revisions`) changes with every write to those rows, from any process, so
the page's bytes are kept under (event, token, path, query, language, gap) in the app's
`PageCache` (`ball.web.page_store`, which also renders watched pages again after writes),
and a view that finds its key costs one small query for the token. A write gives the event
a new token: the next view misses and renders anew; the old entries fall out of the bounded
LRU.

The ETag is a digest of that key and of this process's start (a new server with other code
never answers 304 for a page an older one rendered). A request whose `If-None-Match` holds
it gets 304 with no body, before anything is rendered or looked up in memory.

Hits never wait for misses: the route is async, a hit is answered on the event loop after
one token read on threads of its own (`TOKEN_READS`), and only misses go to the server's
thread pool, where concurrent misses of one key render once.

While a slot's new page renders after a write, a phone gets the slot's previous page at
once with that page's own ETag (so its 304 stays right), for at most
`page_store.STALE_SECONDS` after the server learned of the write, if it holds that page
already (it sent its ETag: a 304; D-P1, docs/rules-decisions.md) or an older rendering of
the same page (one of its last `page_store.RECENT_ETAGS` tags: it is given the previous
page, a 200 with that page's ETag; D-P2); a reader without one (a new visitor) waits for
the new page. After the bound, or when no render of the slot is in progress, the reader
renders (or waits for the render), so a reader after a finished render never sees an older
page. A request that carries the event's desk cookie (the arbiter's browser) is never given
a previous page.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

from ball.tournament.service import TournamentService
from ball.web.core.security import cookie_name
from ball.web.core.templating import request_language
from ball.web.page_store import Page, PageCache, Uncached, slot_key

BOOT = secrets.token_hex(8)  # this process: ETags of an older server never match
T = TypeVar("T")
# Threads that read event tokens, apart from the server's pool where misses render and wait:
# a hit needs one of these for a one-row query, never a thread a render holds. Shared by
# every app of the process (threads start on demand).
TOKEN_READS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ball-token")
# The token a render is for (`shared` keys on it); a context variable, not the request's
# state, since a background render reuses the request of the phone that asked first.
RENDER_TOKEN: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "ball_render_token", default=None
)
# Phones must ask every time (the page refreshes itself); they may keep the body for a 304.
CACHE_CONTROL = "no-cache"
VARY = "Accept-Language, Cookie"
LOG = logging.getLogger(__name__)


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
    threads. A miss renders in the server's thread pool (`PageCache.render_once`), where
    waiting misses hold threads; they can no longer hold up the hits (they did: p95 of seconds
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
                raise Uncached(response)
            return Page(
                bytes(response.body), media_type, etag_of(slot_key(event_id, for_token, slot))
            )

        try:
            page = await run_in_threadpool(cache.render_slot, event_id, slot, token, build, read_at)
        except Uncached as passed:
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
