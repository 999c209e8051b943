"""Table clocks on the web: a JSON API, the table clock page and the arbiter's desk.

The page shows what the server computed (`ball.clocks`), counting down between polls with
the browser's monotonic clock; flags, overruns and penalties are only ever shown when the
server reports them. Arbiter events (pause, resume, adjust, end of period, finish) need the
PIN given when the clock was created (stored hashed; 5 wrong PINs in a row from one client
address lock that address out for a minute, `ball.web.core.security.PinThrottle`), or, for a clock
of a tournament event, the event's desk session with its CSRF token (`X-CSRF-Token`), exactly
as the arbiter desk (`ball.web.core.security`). Every POST is
refused when a browser says it comes from another site.

A clock bound to an event takes its players' events (start, presses, next period) only from
the table device the desk handed its key to (header `X-Table-Key`, issue 30) or from the
desk itself; anyone may read its face. The desk gets each clock's key in the clock list it
reads with its session (`device_key`), and links the table page as `/clock/ID#key=KEY`: the
key stays in the fragment, which no browser sends to a server or in a Referer.

The time source is `app.state.clock_time` when set (tests), else the system's wall clock.
"""

from __future__ import annotations

import hmac
import time
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ball import device_key
from ball.clocks import ARBITER_KINDS, ClockRejected, builtin_controls
from ball.clocks.store import ClockNotFound, ClockStore, DeviceRefused, PinRefused
from ball.storage import ids
from ball.web.api.openapi import json_errors
from ball.web.core import limits, security

router = APIRouter(prefix="/clock", responses=json_errors(422))


class CreateClock(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str = Field(min_length=1, max_length=80)
    control: str | dict[str, Any]
    pin: str | None = None
    players: list[str] | None = None
    round: str = Field(default="", max_length=80)
    event_id: int | None = None


class EventIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str
    data: dict[str, Any] = Field(default_factory=dict)
    pin: str | None = None


def _now_source(request: Request):
    return getattr(request.app.state, "clock_time", None) or time.time


def _store(request: Request) -> ClockStore:
    return ClockStore(request.app.state.sessions, _now_source(request))


def _desk_session(request: Request, event_id: int | None) -> security.Arbiter | None:
    if event_id is None:
        return None
    with request.app.state.sessions() as session:
        return security.current_arbiter(session, request, event_id, _now_source(request)())


def _desk_arbiter(request: Request, event_id: int | None) -> bool:
    """True when the request carries the event's desk session and its CSRF token."""
    arbiter = _desk_session(request, event_id)
    if arbiter is None:
        return False
    token = request.headers.get("x-csrf-token") or ""
    if not hmac.compare_digest(token.encode(), arbiter.csrf.encode()):
        raise HTTPException(403, "missing or wrong CSRF token; reload the page and try again")
    return True


def _throttle(request: Request) -> security.PinThrottle:
    # Per client address, as the desk's PIN page: a guesser locks out only itself.
    return security.PinThrottle(request.app.state.sessions, "clock")


def _refused(exc: Exception) -> HTTPException:
    if isinstance(exc, ClockNotFound):
        return HTTPException(404, str(exc))
    if isinstance(exc, (PinRefused, DeviceRefused)):
        return HTTPException(403, str(exc))
    message = str(exc)
    conflict = message.startswith(("not now", "busy", "by:", "at:"))
    return HTTPException(409 if conflict else 422, message)


# ----- JSON API --------------------------------------------------------------------------


@router.get("/api/controls")
def list_controls() -> list[dict[str, Any]]:
    return [c.to_json() for c in builtin_controls().values()]


@router.post("/api/clocks", status_code=201, responses=json_errors(401, 403))
def create_clock(body: CreateClock, request: Request) -> dict[str, Any]:
    security.same_origin(request)
    limits.check_cap(request, "clocks")
    limits.check_creation_rate(request, "clocks")  # a PIN clock costs a scrypt hash
    if body.event_id is not None:
        # Only the event's arbiter may hang a clock on the event (and so share its PIN).
        now = _now_source(request)()
        security.check_write(request.app.state.sessions, request, body.event_id, now, None)
    try:
        view = _store(request).create(
            body.table,
            body.control,
            body.pin,
            players=body.players,
            round=body.round,
            event_id=body.event_id,
        )
    except ClockRejected as exc:
        raise HTTPException(422, str(exc)) from exc
    made = view.to_json()
    if body.event_id is not None:  # the event's desk made it: it hands the key to the table
        made["device_key"] = _store(request).key_of(view.id)[1]
    return made


@router.get("/api/clocks")
def list_clocks(
    request: Request, round: str = Query("", max_length=80), event: int | None = None
) -> list[dict[str, Any]]:
    """The clocks of a round; for the event's desk session also each table's device key
    (`device_key`), which the desk hands to the table."""
    store = _store(request)
    listed = [v.to_json() for v in store.round_views(round, event)]
    if event is not None and ids.in_range(event) and _desk_session(request, event) is not None:
        keys = store.round_keys(round, event)
        for entry in listed:
            entry["device_key"] = keys.get(entry["id"], "")
    return listed


@router.get("/api/clocks/{clock_id}", responses=json_errors(404))
def get_clock(clock_id: int, request: Request) -> dict[str, Any]:
    try:
        return _store(request).view(clock_id).to_json()
    except ClockNotFound as exc:
        raise _refused(exc) from exc


@router.post("/api/clocks/{clock_id}/events", responses=json_errors(403, 404, 409))
def record_event(clock_id: int, body: EventIn, request: Request) -> dict[str, Any]:
    security.same_origin(request)
    store = _store(request)
    key = request.headers.get(device_key.HEADER) or None
    try:
        if body.kind not in ARBITER_KINDS:
            # A device with the key needs no desk check (the store checks the key); without
            # it, only the desk may press a clock bound to an event. A request carrying a
            # CSRF token is the desk's browser: it is checked as such even with a stale key.
            asks_desk = key is None or "x-csrf-token" in request.headers
            desk = asks_desk and _desk_arbiter(request, store.event_of(clock_id))
            return store.record(clock_id, body.kind, body.data, arbiter=desk, key=key).to_json()
        if _desk_arbiter(request, store.event_of(clock_id)):
            return store.record(clock_id, body.kind, body.data, arbiter=True).to_json()
        return _record_with_pin(request, store, clock_id, body)
    except (ClockRejected, ClockNotFound, PinRefused, DeviceRefused) as exc:
        raise _refused(exc) from exc


def _record_with_pin(
    request: Request, store: ClockStore, clock_id: int, body: EventIn
) -> dict[str, Any]:
    throttle, now = _throttle(request), _now_source(request)()
    client = security.client_address(request)
    wait = throttle.wait(clock_id, client, now)
    if wait > 0:
        seconds = int(wait + 0.999)
        raise HTTPException(
            429,
            f"too many wrong PINs: try again in {seconds} seconds",
            {"Retry-After": str(seconds)},
        )
    try:
        view = store.record(clock_id, body.kind, body.data, body.pin)
    except PinRefused:
        if body.pin:
            throttle.failed(clock_id, client, now)
        raise
    throttle.succeeded(clock_id, client)
    return view.to_json()


@router.get("/api/clocks/{clock_id}/history", responses=json_errors(404))
def clock_history(clock_id: int, request: Request) -> list[dict[str, Any]]:
    """Every logged event and every computed notice, in time order (the audit trail)."""
    try:
        return _store(request).view(clock_id).clock.timeline
    except ClockNotFound as exc:
        raise _refused(exc) from exc


def seed_demo_clocks(sessions) -> None:
    """`ball serve --demo`: a round "demo" with a BALL, a Xiangqi and a Mahjong clock
    (arbiter PIN 0000), once."""
    store = ClockStore(sessions)
    if store.round_views("demo"):
        return
    store.create("Table 1", "ball-standard", pin="0000", players=["Ana", "Boris"], round="demo")
    store.create("Table 2", "xiangqi-6.1", pin="0000", round="demo")
    store.create("Table 3", "mahjong-wmc", pin="0000", round="demo")


# ----- pages -----------------------------------------------------------------------------


@router.get("", response_class=HTMLResponse)
def clocks_index(
    request: Request, event: int | None = None, round: str = Query("", max_length=80)
):
    """The clock list and the creation form; opened from a round of the arbiter desk
    (`?event=ID&round=LABEL`) by a signed-in arbiter, the form makes clocks bound to the
    event (the only clocks whose first-half ends the desk takes)."""
    from ball.web.clocks.text import control_title
    from ball.web.core.templating import render, request_language

    store = _store(request)
    rounds = store.rounds()
    lang = request_language(request)
    desk = _desk_session(request, event) if event is not None and ids.in_range(event) else None
    context = {
        "rounds": rounds,
        "controls": [
            (c.name, control_title(lang, c.title)) for c in builtin_controls().values()
        ],
        "event": event if desk else None,
        "round": round,
        "desk_csrf": desk.csrf if desk else "",
    }
    return render(request, "clock/index.html", context)


@router.get("/desk", response_class=HTMLResponse)
def arbiter_desk(request: Request, round: str = Query("", max_length=80), event: int | None = None):
    from ball.web.clocks.text import clock_words
    from ball.web.core.templating import render, request_language

    words = clock_words(request_language(request))
    context = {"round": round, "event": event, "clock_words": words}
    return render(request, "clock/desk.html", context)


@router.get("/{clock_id}", response_class=HTMLResponse, responses=json_errors(404))
def table_clock(clock_id: int, request: Request):
    from ball.web.clocks.text import clock_words, control_title
    from ball.web.core.templating import render, request_language

    try:
        view = _store(request).view(clock_id)
    except ClockNotFound as exc:
        raise _refused(exc) from exc
    desk = _desk_session(request, view.event_id)
    context = {
        "clock": view.to_json(),
        "desk_csrf": desk.csrf if desk else "",
        "clock_words": clock_words(request_language(request)),
        "control_title": control_title(request_language(request), view.control.title),
        # the control's seats in play order ("east", "south", …): a wind seat's panel is
        # labelled with its wind and placed around the phone (clock.css)
        "seats": list(view.control.players),
    }
    return render(request, "clock/table.html", context)
