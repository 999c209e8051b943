"""What one stranger on the venue's network may make the server do (issue 11 item 6).

Every value is here, in `Limits` (defaults below; `ball serve` and `create_app` read the
`BALL_*` environment variables named in `ENVIRONMENT`, or take a `Limits` object):

- `max_body_bytes` (1 MiB): the largest request body. The biggest legitimate body is an
  entrants CSV (200 kB, `ball.web.desk.forms.MAX_CSV_BYTES`) in a multipart form; a JSON body of
  65 MB used to cost 700 MB of memory. `BodyLimit` counts the bytes as they stream in, so a
  missing or lying `Content-Length` does not get past it: 413 with a message.
- `creations` per `creation_window` seconds (10 per 10 minutes) per client address for what
  costs a scrypt hash (events, clocks with a PIN): 429 with `Retry-After`. Counted in memory
  on SQLite (a restart forgets it, which only gives a guesser a fresh 10), in the database
  on PostgreSQL, where several server processes count together (`StoredCreationRate`).
- `max_events` (200), `max_clocks` (2000), `max_games` (5000): stored rows the web will create;
  beyond them a creation is refused with 409 naming the limit (nothing is deleted). Counting
  then inserting is not one step, so racing requests may pass a cap by a few rows: bounded
  by the number of simultaneous requests. The CLI, run by the organiser, is not capped.
- `request_rate` (30 a second) and `request_burst` (900): the general request budget of one
  client address (issue 30 item 10; `RequestBudget`), a token bucket: `request_burst`
  requests at once, then `request_rate` a second; beyond it 429 with `Retry-After`. A file
  under `/static/` costs a quarter of a request (served from memory, no database). Sized for
  a hall of 200 phones behind one venue NAT address, each reloading a public page and every
  file it loads every 30 s with no browser cache (about 17 a second; 500 when all start
  in the same second): they never meet it, while one address flooding pages at the 290 a
  second the campaign measured gets under a quarter through. IPv6 addresses count per /64
  (one device can hold a whole /64). Never limited: the server's own machine (127.0.0.1,
  ::1: the desk on the laptop, a projector on it) and any request carrying a valid desk
  session (the arbiter's device behind the same NAT as the hall).
- `live_streams` (1,000) and `live_streams_per_address` (250): the live boards' event
  streams open at once (`ball.web.public.live_stream`); beyond them 503 / 429 with `Retry-After`.
  A stream holds a socket and a one-slot queue, never a thread or a render of its own.
  Several server processes (`workers`, `BALL_WORKERS`; `ball serve --workers N` sets it):
  the budget stays in each process's memory, a database write per request would cost more
  than the page, and each process counts its share, `request_rate / workers` a second and
  `request_burst / workers` at once. So a flooding address gets at most the whole budget
  through all processes together, as with one; the hall's phones are many connections
  spread over the processes by the kernel, each process seeing about its share of them
  (200 phones at 17 a second are 4 a second on each of 4, far below 7.5). Creation rates
  are counted in the database on PostgreSQL (`StoredCreationRate`): one count for all
  processes.
"""

from __future__ import annotations

import ipaddress
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from fastapi import HTTPException, Request
from sqlalchemy import delete, func, select
from sqlalchemy.orm import sessionmaker

# Limits field -> environment variable read by `Limits.from_env`.
ENVIRONMENT = {
    "max_body_bytes": "BALL_MAX_BODY_BYTES",
    "creations": "BALL_MAX_CREATIONS",
    "creation_window": "BALL_CREATION_WINDOW",
    "max_events": "BALL_MAX_EVENTS",
    "max_clocks": "BALL_MAX_CLOCKS",
    "max_games": "BALL_MAX_GAMES",
    "request_rate": "BALL_REQUEST_RATE",
    "request_burst": "BALL_REQUEST_BURST",
    "max_games_per_address": "BALL_MAX_GAMES_PER_ADDRESS",
    "game_creations": "BALL_GAME_CREATIONS",
    "game_creation_window": "BALL_GAME_CREATION_WINDOW",
    "pdf_renders": "BALL_PDF_RENDERS",
    "pdf_render_window": "BALL_PDF_RENDER_WINDOW",
    "live_streams": "BALL_LIVE_STREAMS",
    "live_streams_per_address": "BALL_LIVE_STREAMS_PER_ADDRESS",
    "workers": "BALL_WORKERS",
}


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 1_048_576
    creations: int = 10
    creation_window: float = 600.0
    max_events: int = 200
    max_clocks: int = 2_000
    max_games: int = 5_000
    request_rate: float = 30.0
    request_burst: int = 900
    # stored games one client address may hold, and create per window (ball.web.api.game_quota)
    max_games_per_address: int = 100
    game_creations: int = 60
    game_creation_window: float = 600.0
    # PDF renders (cache misses) one address may start per window (ball.web.pdf_cache)
    pdf_renders: int = 20
    pdf_render_window: float = 600.0
    # live boards' event streams open at once, in all and per address (ball.web.public.live_stream);
    # per address sized for a hall of phones behind one venue NAT address
    live_streams: int = 1_000
    live_streams_per_address: int = 250
    # server processes sharing the request budget (`ball serve --workers N` sets it; set it
    # yourself for another ASGI server's workers): each counts its share (see the doc)
    workers: int = 1

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """Defaults overridden by the `BALL_*` variables of `ENVIRONMENT` (positive numbers)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENVIRONMENT[f.name])
            if raw is None or raw.strip() == "":
                continue
            kind = float if f.type in ("float", float) else int
            try:
                value = kind(raw)
            except ValueError:
                raise ValueError(f"{ENVIRONMENT[f.name]}: {raw!r} is not a number") from None
            if value <= 0:
                raise ValueError(f"{ENVIRONMENT[f.name]}: must be positive, got {raw}")
            values[f.name] = value
        return cls(**values)


def limits_of(request: Request) -> Limits:
    return getattr(request.app.state, "limits", None) or Limits()


# ------------------------------------------------------------------------ body size


class BodyLimit:
    """Pure ASGI middleware: refuses a body longer than `max_bytes` (413), by its declared
    `Content-Length` at once and by counting the bytes actually received otherwise.

    Past the limit the app is told the client went away (`http.disconnect`): whatever it
    does then (an error, a 400 about the cut body) is dropped and the 413 answered instead,
    so this works wherever it sits among other middleware."""

    def __init__(self, app, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"request body too large: at most {self.max_bytes} bytes"
        declared = _content_length(scope)
        if declared == -1:
            await _reply(send, 400, "Content-Length: not a number")
            return
        if declared is not None and declared > self.max_bytes:
            await _reply(send, 413, message)
            return
        received = 0
        exceeded = responded = False

        async def limited_receive():
            nonlocal received, exceeded
            if exceeded:
                return {"type": "http.disconnect"}
            incoming = await receive()
            if incoming["type"] == "http.request":
                received += len(incoming.get("body", b""))
                if received > self.max_bytes:
                    exceeded = True
                    return {"type": "http.disconnect"}
            return incoming

        async def watched_send(outgoing) -> None:
            nonlocal responded
            if exceeded and not responded:
                return  # the app's answer to a body it never got whole: the 413 replaces it
            responded = responded or outgoing["type"] == "http.response.start"
            await send(outgoing)

        try:
            await self.app(scope, limited_receive, watched_send)
        except Exception:
            if not exceeded:
                raise
        if exceeded and not responded:
            await _reply(send, 413, message)


def _content_length(scope) -> int | None:
    """The declared length; None when absent, -1 when it is not a number."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


async def _reply(send, status: int, message: str, extra=()) -> None:
    import json

    body = json.dumps({"detail": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# ----------------------------------------------------------------- creation rate


class CreationRate:
    """Sliding window of creations per (kind, client address), in memory."""

    MAX_TRACKED = 10_000  # addresses remembered; the oldest quiet ones are dropped first

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def take(
        self,
        kind: str,
        client: str,
        now: float,
        limits: Limits,
        allowed: tuple[int, float] | None = None,
    ) -> float:
        """Count one creation; returns 0, or the seconds to wait when over the limit (then
        nothing is counted). `allowed` is (creations, window seconds) when `kind` has its
        own, else the limits' `creations` per `creation_window`."""
        count, window = allowed or (limits.creations, limits.creation_window)
        with self._lock:
            stamps = self._seen.setdefault((kind, client), deque())
            while stamps and stamps[0] <= now - window:
                stamps.popleft()
            if len(stamps) >= count:
                return stamps[0] + window - now
            stamps.append(now)
            if len(self._seen) > self.MAX_TRACKED:
                self._forget_quiet(now, window)
            return 0.0

    def _forget_quiet(self, now: float, window: float) -> None:
        for key in [k for k, v in self._seen.items() if not v or v[-1] <= now - window]:
            del self._seen[key]


class StoredCreationRate:
    """`CreationRate`'s sliding window kept in the database (`web_creation_stamps`), for
    PostgreSQL, where several server processes share one database (issue 34): each counts
    the creations all of them allowed. One address's count and insert are one transaction
    under a lock of that address and kind (`ball.storage.locks`), so racing creations
    through different processes get exactly `count` through. Creations are rare (each
    costs a scrypt hash or a PDF render): a few small statements are nothing beside them."""

    def __init__(self, sessions: sessionmaker) -> None:
        self._sessions = sessions

    def take(
        self,
        kind: str,
        client: str,
        now: float,
        limits: Limits,
        allowed: tuple[int, float] | None = None,
    ) -> float:
        """As `CreationRate.take`: 0 (counted) or the seconds to wait (nothing counted)."""
        from ball.storage import locks
        from ball.web.core.models import CreationStamp

        count, window = allowed or (limits.creations, limits.creation_window)
        with self._sessions() as session:
            locks.hold(session, locks.CREATIONS, locks.key_of(kind, client))
            # the kind's stamps past the window, of every address: the table stays small
            session.execute(
                delete(CreationStamp).where(
                    CreationStamp.kind == kind, CreationStamp.at <= now - window
                )
            )
            stamps = session.scalars(
                select(CreationStamp.at)
                .where(CreationStamp.kind == kind, CreationStamp.client == client)
                .order_by(CreationStamp.at)
            ).all()
            if len(stamps) >= count:
                session.commit()
                return stamps[0] + window - now
            session.add(CreationStamp(kind=kind, client=client, at=now))
            session.commit()
            return 0.0


def creation_rate_for(sessions: sessionmaker) -> CreationRate | StoredCreationRate:
    """The counter of an app's database: in memory for SQLite (served by one process,
    `ball.web.workers`), stored for PostgreSQL (any number of processes)."""
    bind = sessions.kw.get("bind")
    if bind is not None and bind.dialect.name == "postgresql":
        return StoredCreationRate(sessions)
    return CreationRate()


def check_creation_rate(
    request: Request, kind: str, allowed: tuple[int, float] | None = None
) -> None:
    """429 (with Retry-After) when this client address made too many `kind` lately: more
    than `allowed` (creations, window seconds), by default the limits' `creations`."""
    from ball.web.core.security import client_address

    rate = getattr(request.app.state, "creation_rate", None)
    if rate is None:
        # an app without a database (the printing app of `ball.printing`'s tests and tools)
        # counts in memory, as a SQLite server does
        sessions = getattr(request.app.state, "sessions", None)
        rate = CreationRate() if sessions is None else creation_rate_for(sessions)
        request.app.state.creation_rate = rate
    source = getattr(request.app.state, "clock_time", None) or time.time
    limits = limits_of(request)
    count, window = allowed or (limits.creations, limits.creation_window)
    wait = rate.take(kind, client_address(request), float(source()), limits, (count, window))
    if wait > 0:
        seconds = max(1, int(wait + 0.999))
        raise HTTPException(
            429,
            f"too many {kind} created from this address: at most {count} in "
            f"{int(window)} s; try again in {seconds} s",
            {"Retry-After": str(seconds)},
        )


# --------------------------------------------------------------------------- caps


def _count(request: Request, models) -> int:
    with request.app.state.sessions() as session:
        return sum(
            session.scalar(_counted(m)) or 0
            for m in (models if isinstance(models, tuple) else (models,))
        )


def _counted(model):
    """The rows of `model` a cap counts: learn games (`ball.games.ball.web.learn_games`) are not."""
    query = select(func.count()).select_from(model)
    lesson = getattr(model, "lesson", None)
    return query if lesson is None else query.where(lesson.is_(None))


def check_cap(request: Request, kind: str) -> None:
    """409 when the database already holds the most `kind` (events, clocks, games) the web
    may create."""
    from ball.clocks.models import ClockRow
    from ball.play.models import WebGame
    from ball.tournament.models import Event
    from ball.web.core.models import XiangqiGameRow

    limits = limits_of(request)
    model, cap = {
        "events": (Event, limits.max_events),
        "clocks": (ClockRow, limits.max_clocks),
        "games": ((WebGame, XiangqiGameRow), limits.max_games),  # a Xiangqi game is a game
    }[kind]
    if _count(request, model) >= cap:
        raise HTTPException(
            409,
            f"limit reached: this server holds {cap} {kind}, the most it accepts "
            f"(the organiser can raise {ENVIRONMENT['max_' + kind]})",
        )


# ------------------------------------------------------------------ request budget

NEVER_LIMITED = frozenset({"127.0.0.1", "::1"})  # the server's own machine
STATIC_COST = 0.25  # a file under /static/: no database, no template


def budget_key(address: str) -> str | None:
    """What one budget counts: the address, or for IPv6 its /64 (one device's share). None
    for a peer that has no IP address (a Unix socket, an in-process client): only the
    server's own machine reaches the server that way, so it is not limited."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class Buckets:
    """Token buckets per budget key, in memory: `take` spends one request's token."""

    MAX_TRACKED = 20_000  # keys remembered; full (idle) buckets are forgotten first

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._tokens: dict[str, tuple[float, float]] = {}  # key -> (tokens, as of)
        self._lock = threading.Lock()

    def take(self, key: str, now: float, cost: float = 1.0) -> float:
        """0 when `key` may make a request costing `cost` now (its tokens spent), else the
        seconds until it may (nothing spent)."""
        with self._lock:
            tokens, then = self._tokens.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + max(0.0, now - then) * self.rate)
            if tokens < cost:
                self._tokens[key] = (tokens, now)
                return (cost - tokens) / self.rate
            self._tokens[key] = (tokens - cost, now)
            if len(self._tokens) > self.MAX_TRACKED:
                self._forget_idle(now)
            return 0.0

    def _forget_idle(self, now: float) -> None:
        refill = self.burst / self.rate  # seconds that fill an empty bucket
        for key in [k for k, (_t, then) in self._tokens.items() if now - then >= refill]:
            del self._tokens[key]


def process_buckets(limits: Limits) -> Buckets:
    """This process's buckets: its share of the one budget when the server runs
    `limits.workers` processes (see the module's doc)."""
    share = max(1, limits.workers)
    return Buckets(limits.request_rate / share, max(1, limits.request_burst // share))


class RequestBudget:
    """Pure ASGI middleware: the per-address request budget (see the module's doc). A
    request over budget is answered 429 before any route runs, unless it carries a valid
    desk session (`has_desk_session(cookies)`, asked only then, in a worker thread)."""

    def __init__(
        self,
        app,
        limits: Limits,
        has_desk_session: Callable[[dict[str, str]], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.buckets = process_buckets(limits)
        self.total = (limits.request_rate, limits.request_burst)
        self.has_desk_session = has_desk_session
        self.clock = clock

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("", 0))[0]
        key = None if address in NEVER_LIMITED else budget_key(address)
        if key is not None:
            cost = STATIC_COST if scope.get("path", "").startswith("/static/") else 1.0
            wait = self.buckets.take(key, self.clock(), cost)
            if wait > 0 and not await self._arbiter(scope):
                seconds = max(1, int(wait + 0.999))
                await _reply(
                    send,
                    429,
                    f"too many requests from this address: at most {self.total[1]} at "
                    f"once and {self.total[0]:g} a second; try again in {seconds} s",
                    [(b"retry-after", str(seconds).encode())],
                )
                return
        await self.app(scope, receive, send)

    async def _arbiter(self, scope) -> bool:
        if self.has_desk_session is None:
            return False
        cookies = _desk_cookies(scope)
        if not cookies:
            return False
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(self.has_desk_session, cookies)


def _desk_cookies(scope) -> dict[str, str]:
    """The desk session cookies of a request (at most three: each costs a lookup)."""
    from http.cookies import SimpleCookie

    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        if name != b"cookie":
            continue
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(value.decode("latin-1"))
        except Exception:  # a malformed header is no session
            continue
        for key, morsel in jar.items():
            if key.startswith("ball_desk_") and len(found) < 3:
                found[key] = morsel.value
    return found
