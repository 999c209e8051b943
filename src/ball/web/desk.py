"""The arbiter desk: one browser runs the whole event (issue 6).

Routes translate HTML forms into `ball.tournament.service.TournamentService` calls; pairing,
scoring and standings stay there, the match result is decided by `ball.match.result.decide`
(through the game plug-in), the start signals by `ball.tournament.signals` and the sanction
ladder by `ball.tournament.sanction_log`. Pages work without JavaScript; the scripts only
add the "as you type" result check (a JSON endpoint that runs `decide`) and the countdown.

Access (see `ball.web.security`): GET pages of an event need a desk session (else the PIN
page); every POST checks same origin, the session (401) and the CSRF token (403).

Saving a table is one call, `TournamentService.record_table_result`: the result, its steals
and its sanctions are checked first and written in one transaction with the table's version
(`ball.tournament.table_result`). The form carries the version it was loaded with; when
another save came first the answer is 409 with nothing written, unless the form is the very
submission stored (a retry after a lost answer), which is answered like the first save.

The time source is `app.state.clock_time` when set (tests), else the wall clock; the signal
gap is `app.state.desk_gap_seconds` when set, else the ruleset's.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from ball.match.result import SheetError, decide
from ball.match.sanctions import LADDER
from ball.storage import ids
from ball.tournament import sanction_log, signals, table_result
from ball.tournament.errors import TournamentError
from ball.tournament.models import Entrant, Event, Pairing, Round
from ball.tournament.names import check_name
from ball.tournament.service import SYSTEMS, TournamentService
from ball.tournament.table_result import ResultState
from ball.web import limits, security
from ball.web.i18n import gettext_for
from ball.web.openapi import SEE_OTHER, page_errors
from ball.web.templating import render

# Pages and forms answer HTML; refusals before the form is read (no session, bad CSRF token,
# no such event) are JSON `{"detail": ...}`; the two JSON endpoints say so themselves.
router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 409, 422, 429)},
)


def N_(message: str) -> str:
    """Marks a message id for extraction (pybabel) where it is translated later."""
    return message


# Words the templates translate from data (`_(event.system)`, `_(step)`, ...).
DATA_WORDS = (
    N_("round-robin"),
    N_("double-round-robin"),
    N_("swiss"),
    N_("knockout"),
    N_("warning"),
    N_("loss-of-turn"),
    N_("loss-of-possession"),
    N_("loss-of-match"),
    N_("continue"),
    N_("reset"),
    N_("arbiter"),
    N_("table"),
)

STEAL_ROWS = 4  # steal lines per half on the form
SANCTION_ROWS = 2
CSV_FIELDS = ("name", "club", "federation", "rating")
MAX_CSV_BYTES = 200_000


# --------------------------------------------------------------------------- plumbing


def now_of(request: Request) -> float:
    source: Callable[[], float] = getattr(request.app.state, "clock_time", None) or time.time
    return float(source())


def gap_of(request: Request) -> float:
    gap = getattr(request.app.state, "desk_gap_seconds", None)
    return float(gap) if gap is not None else signals.gap_seconds()


def service_for(app) -> TournamentService:
    """The tournament service on the app's own (already migrated) engine."""
    svc = getattr(app.state, "tournament", None)
    if svc is None:
        svc = TournamentService.from_sessions(app.state.engine, app.state.sessions)
        app.state.tournament = svc
    return svc


def hms(at: float | None) -> str:
    """Wall-clock time of day at the venue (the desk's local time)."""
    return "" if at is None else time.strftime("%H:%M:%S", time.localtime(at))


def mmss(seconds: float | None) -> str:
    if seconds is None:
        return ""
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"


def _t(request: Request) -> Callable[[str], str]:
    return gettext_for(getattr(request.state, "lang", "en"))


def _event_or_404(session, event_id: int) -> Event:
    event = session.get(Event, event_id) if ids.in_range(event_id) else None
    if event is None:
        raise HTTPException(404, f"no event {event_id}")
    return event


def _round_or_404(session, event_id: int, number: int) -> Round:
    if not ids.in_range(number):
        raise HTTPException(404, f"round {number} is not paired")
    rnd = session.scalar(select(Round).where(Round.event_id == event_id, Round.number == number))
    if rnd is None:
        raise HTTPException(404, f"round {number} is not paired")
    return rnd


def _pairing_or_404(rnd: Round, table: int) -> Pairing:
    for p in rnd.pairings:
        if p.table == table:
            if p.b_id is None:
                raise HTTPException(404, f"table {table} is a bye; it takes no result")
            return p
    raise HTTPException(404, f"round {rnd.number} has no table {table}")


async def _form(request: Request) -> dict[str, Any]:
    form = await request.form()
    return {k: v for k, v in form.multi_items() if isinstance(v, str)} | {
        "_files": {k: v for k, v in form.multi_items() if not isinstance(v, str)}
    }


def _fail(request: Request, status: int, message: str, back: str):
    return render(
        request, "desk/error.html", {"message": message, "back": back}, status_code=status
    )


def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _page_arbiter(request: Request, session, event_id: int):
    return security.current_arbiter(session, request, event_id, now_of(request))


def _desk_page(request: Request, session, event_id: int) -> tuple[Event, security.Arbiter]:
    """The event of a desk page and its signed-in arbiter: 404 when there is no such event,
    a 303 to the PIN page (coming back here afterwards) when nobody is signed in."""
    event = _event_or_404(session, event_id)
    arbiter = _page_arbiter(request, session, event_id)
    if arbiter is None:
        login = f"/desk/{event_id}/login?next={quote(request.url.path)}"
        raise HTTPException(303, "the arbiter desk needs the event PIN", {"Location": login})
    return event, arbiter


def _write(request: Request, session, event_id: int, form: dict[str, Any]) -> security.Arbiter:
    return security.require_write(session, request, event_id, now_of(request), form.get("csrf"))


def _int(
    form: dict[str, Any],
    key: str,
    *,
    default: int | None = None,
    low: int = 0,
    high: int = 1_000_000_000,
) -> int | None:
    raw = (form.get(key) or "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise TournamentError(f"{key}: {raw!r} is not a whole number") from None
    if value < low:
        raise TournamentError(f"{key}: must be at least {low}, got {value}")
    if value > high:
        raise TournamentError(f"{key}: must be at most {high}, got {raw}")
    return value


# --------------------------------------------------------------------- events, login


@router.get("")
def desk_home(request: Request):
    with request.app.state.sessions() as session:
        events = list(session.scalars(select(Event).order_by(Event.id.desc())))
        return render(request, "desk/index.html", {"events": events, "systems": SYSTEMS})


@router.post("/events")
async def create_event(request: Request):
    security.same_origin(request)
    limits.check_cap(request, "events")
    limits.check_creation_rate(request, "events")  # each creation costs a scrypt hash
    form = await _form(request)
    try:
        pin = security.check_pin_text(form.get("pin", ""))
        if pin != form.get("pin2", pin):
            raise security.PinError("pin: the two PINs differ")
        summary = service_for(request.app).create_event(
            name=form.get("name", ""),
            system=form.get("system", ""),
            rounds=_int(form, "rounds", low=1),
            place=form.get("place", "").strip(),
            arbiter=form.get("arbiter", "").strip(),
        )
    except (TournamentError, security.PinError) as exc:
        return _fail(request, 400, str(exc), "/desk")
    event_id = summary["id"]
    response = _see(f"/desk/{event_id}")
    pin_hash = await run_in_threadpool(security.hash_pin, pin)  # scrypt: off the event loop
    with request.app.state.sessions() as session:
        security.set_pin_hash(session, event_id, pin_hash, now_of(request))
        security.start_session(session, event_id, now_of(request), response)
        session.commit()
    return response


@router.get("/{event_id}/login")
def login_page(event_id: int, request: Request, next: str = ""):  # noqa: A002
    with request.app.state.sessions() as session:
        event = _event_or_404(session, event_id)
        return render(request, "desk/login.html", {"event": event, "next": next, "error": ""})


@router.post("/{event_id}/login")
async def login(event_id: int, request: Request):
    security.same_origin(request)
    form = await _form(request)
    target = form.get("next", "")
    if not target.startswith(f"/desk/{event_id}"):
        target = f"/desk/{event_id}"
    response = _see(target)
    # Throttled per client address (`security.PinThrottle`): a guesser locks out itself,
    # never the arbiter at another desk.
    throttle = security.PinThrottle(request.app.state.sessions, "desk")
    client = security.client_address(request)
    now = now_of(request)
    with request.app.state.sessions() as session:
        _event_or_404(session, event_id)

    def refuse(status: int, message: str, headers: dict[str, str] | None = None):
        with request.app.state.sessions() as session:
            context = {"event": _event_or_404(session, event_id), "next": target, "error": message}
            page = render(request, "desk/login.html", context, status_code=status)
        page.headers.update(headers or {})
        return page

    wait = throttle.wait(event_id, client, now)
    if wait > 0:
        message = _t(request)(N_("Too many wrong PINs: try again in %(s)s seconds."))
        seconds = int(wait + 0.999)
        return refuse(429, message % {"s": seconds}, {"Retry-After": str(seconds)})
    pin = form.get("pin", "")
    # scrypt in a worker thread: a PIN check must not stop every other request.
    sessions = request.app.state.sessions
    if not await run_in_threadpool(security.event_pin_is, sessions, event_id, pin):
        throttle.failed(event_id, client, now)
        return refuse(403, _t(request)(N_("Wrong PIN.")))
    throttle.succeeded(event_id, client)
    with request.app.state.sessions() as session:
        security.start_session(session, event_id, now, response)
        session.commit()
    return response


@router.post("/{event_id}/logout")
async def logout(event_id: int, request: Request):
    form = await _form(request)
    response = _see("/desk")
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        security.close_session(session, request, event_id, response)
        session.commit()
    return response


# ---------------------------------------------------------------- the event page


@router.get("/{event_id}")
def event_page(event_id: int, request: Request):
    with request.app.state.sessions() as session:
        event, arbiter = _desk_page(request, session, event_id)
        entrants = sorted(event.entrants, key=lambda e: e.number)
        rounds = list(event.rounds_)
        return render(
            request,
            "desk/event.html",
            {
                "event": event,
                "entrants": entrants,
                "rounds": rounds,
                "csrf": arbiter.csrf,
                "next_round": len(rounds) + 1,
                "can_pair": event.rounds is None or len(rounds) < event.rounds,
            },
        )


@router.post("/{event_id}/entrants")
async def add_entrant(event_id: int, request: Request):
    form = await _form(request)
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
    back = f"/desk/{event_id}"
    try:
        service_for(request.app).add_player(
            form.get("name", ""),
            rating=_int(form, "rating"),
            club=form.get("club", "").strip(),
            federation=form.get("federation", "").strip(),
            event=event_id,
        )
    except TournamentError as exc:
        return _fail(request, 400, str(exc), back)
    return _see(back + "#entrants")


def parse_entrants_csv(text: str) -> list[dict[str, Any]]:
    """Rows of an entrants CSV (header: name[,club,federation,rating]); faults name the line."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if "name" not in header:
        raise TournamentError("CSV line 1: the header must have a 'name' column")
    unknown = [h for h in header if h not in CSV_FIELDS]
    if unknown:
        raise TournamentError(
            f"CSV line 1: unknown column(s) {', '.join(unknown)}; known: {', '.join(CSV_FIELDS)}"
        )
    reader.fieldnames = header
    rows, seen = [], set()
    for line, raw in enumerate(reader, start=2):
        row = {k: (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        if not row.get("name"):
            raise TournamentError(f"CSV line {line}: the name is empty")
        for key in ("name", "club", "federation"):  # refused before anyone is added
            try:
                check_name(row.get(key, ""), key)
            except TournamentError as exc:
                raise TournamentError(f"CSV line {line}: {exc}") from None
        if row["name"] in seen:
            raise TournamentError(f"CSV line {line}: {row['name']!r} appears twice")
        seen.add(row["name"])
        rating = row.get("rating", "")
        if rating and not ids.is_digits(rating):  # isdigit() takes "²", which int() refuses
            raise TournamentError(f"CSV line {line}: rating {rating!r} is not a whole number")
        rows.append(
            {
                "name": row["name"],
                "club": row.get("club", ""),
                "federation": row.get("federation", ""),
                "rating": int(rating) if rating else None,
            }
        )
    if not rows:
        raise TournamentError("CSV: no entrant in the file")
    return rows


@router.post("/{event_id}/entrants/import")
async def import_entrants(event_id: int, request: Request):
    form = await _form(request)
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        existing = {e.name for e in _event_or_404(session, event_id).entrants}
    back = f"/desk/{event_id}"
    upload = form["_files"].get("file")
    text = form.get("csv", "")
    if upload is not None and getattr(upload, "filename", ""):
        raw = await upload.read(MAX_CSV_BYTES + 1)
        if len(raw) > MAX_CSV_BYTES:
            return _fail(request, 400, f"CSV: the file is larger than {MAX_CSV_BYTES} bytes", back)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return _fail(request, 400, "CSV: the file is not UTF-8 text", back)
    try:
        rows = parse_entrants_csv(text)
        clash = [r["name"] for r in rows if r["name"] in existing]
        if clash:
            raise TournamentError(f"CSV: already registered: {', '.join(clash)}")
        svc = service_for(request.app)
        for row in rows:
            svc.add_player(
                row["name"],
                rating=row["rating"],
                club=row["club"],
                federation=row["federation"],
                event=event_id,
            )
    except TournamentError as exc:
        return _fail(request, 400, str(exc), back)
    return _see(back + "#entrants")


@router.post("/{event_id}/entrants/{entrant_id}/withdraw")
async def withdraw(event_id: int, entrant_id: int, request: Request):
    form = await _form(request)
    back = f"/desk/{event_id}"
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        entrant = session.get(Entrant, entrant_id) if ids.in_range(entrant_id) else None
        if entrant is None or entrant.event_id != event_id:
            raise HTTPException(404, f"no entrant {entrant_id} in event {event_id}")
        name = entrant.name
    if form.get("confirm") != "yes":
        return _fail(request, 400, "withdrawal: tick the confirmation box", back)
    try:
        service_for(request.app).withdraw(
            name, event=event_id, reason=form.get("reason", "").strip()
        )
    except TournamentError as exc:
        return _fail(request, 400, str(exc), back)
    return _see(back + "#entrants")


# --------------------------------------------------------------------------- rounds


@router.post("/{event_id}/rounds")
async def pair_round(event_id: int, request: Request):
    form = await _form(request)
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        number = len(_event_or_404(session, event_id).rounds_) + 1
    try:
        service_for(request.app).pair_next_round(event=event_id)
    except TournamentError as exc:
        return _fail(request, 400, str(exc), f"/desk/{event_id}")
    return _see(f"/desk/{event_id}/rounds/{number}")


def decision_of(pairing: Pairing) -> dict[str, Any] | None:
    result = pairing.result
    if result is None:
        return None
    data = json.loads(result.decision) if result.decision else {}
    return {
        "kind": result.kind,
        "forfeit_by": result.forfeit_by,
        "outcome": result.outcome,
        "decision": data.get("decision"),
    }


@router.get("/{event_id}/rounds/{number}")
def round_page(event_id: int, number: int, request: Request):
    with request.app.state.sessions() as session:
        event, arbiter = _desk_page(request, session, event_id)
        rnd = _round_or_404(session, event_id, number)
        control = signals.round_control(session, event_id, number, now_of(request), gap_of(request))
        tables = [{"p": p, "result": decision_of(p)} for p in rnd.pairings]
        latest = number == len(event.rounds_)
        editable = latest and not any(
            p.result is not None and p.b_id is not None for p in rnd.pairings
        )
        players = sorted(
            [p.a for p in rnd.pairings] + [p.b for p in rnd.pairings if p.b is not None],
            key=lambda e: e.number,
        )
        return render(
            request,
            "desk/round.html",
            {
                "event": event,
                "round": rnd,
                "tables": tables,
                "csrf": arbiter.csrf,
                "control": control,
                "control_json": control.as_dict(),
                "editable": editable,
                "players": players,
                "clock_round": clock_round_label(event.name, number),
                "hms": hms,
                "mmss": mmss,
            },
        )


@router.get("/{event_id}/rounds/{number}/control.json", response_class=JSONResponse)
def round_control_json(event_id: int, number: int, request: Request):
    with request.app.state.sessions() as session:
        if _page_arbiter(request, session, event_id) is None:
            raise HTTPException(401, "the arbiter desk needs the event PIN")
        _round_or_404(session, event_id, number)
        control = signals.round_control(session, event_id, number, now_of(request), gap_of(request))
        return control.as_dict()


def swapped_tables(rnd: Round, x: str, y: str) -> list[tuple[str, str | None]]:
    """The round's tables (coach A, coach B) by name with entrants `x` and `y` exchanged."""
    names = [(p.a.name, p.b.name if p.b is not None else None) for p in rnd.pairings]
    flat = [n for pair in names for n in pair if n is not None]
    for who in (x, y):
        if who not in flat:
            raise TournamentError(f"swap: {who!r} is not paired in round {rnd.number}")
    if x == y:
        raise TournamentError("swap: choose two different entrants")

    def other(n: str | None) -> str | None:
        return y if n == x else x if n == y else n

    return [(other(a), other(b)) for a, b in names]  # type: ignore[misc]


@router.post("/{event_id}/rounds/{number}/swap")
async def swap(event_id: int, number: int, request: Request):
    form = await _form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    with request.app.state.sessions() as session:
        arbiter = _write(request, session, event_id, form)
        event = _event_or_404(session, event_id)
        rnd = _round_or_404(session, event_id, number)
        try:
            tables = swapped_tables(rnd, form.get("x", ""), form.get("y", ""))
        except TournamentError as exc:
            return _fail(request, 400, str(exc), back)
        byes = {p.a.name: p.bye for p in rnd.pairings if p.b_id is None and p.bye}
        if form.get("confirm") != "yes":
            # Show what the round would become; nothing changes until confirmed.
            return render(
                request,
                "desk/swap_confirm.html",
                {
                    "event": event,
                    "round": rnd,
                    "tables": tables,
                    "x": form.get("x", ""),
                    "y": form.get("y", ""),
                    "reason": form.get("reason", ""),
                    "csrf": arbiter.csrf,
                },
            )
    x, y = form["x"], form["y"]
    byes = {(y if a == x else x if a == y else a): kind for a, kind in byes.items()}
    reason = form.get("reason", "").strip() or f"swap {x} <-> {y}"
    try:
        service_for(request.app).set_pairing(
            number, tables, byes=byes, reason=reason, event=event_id
        )
    except TournamentError as exc:
        return _fail(request, 400, str(exc), back)
    return _see(back)


# ---------------------------------------------------------------------- signals


@router.post("/{event_id}/rounds/{number}/signals/{which}")
async def give_signal(event_id: int, number: int, which: int, request: Request):
    form = await _form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        _round_or_404(session, event_id, number)
    try:
        service_for(request.app).give_signal(
            number, which, at=now_of(request), gap=gap_of(request), event=event_id
        )
    except TournamentError as exc:
        return _fail(request, 409, str(exc), back)
    return _see(back + "#control")


def _clock_time(form: dict[str, Any], now: float) -> float:
    """`at` = HH:MM or HH:MM:SS today (local time of the desk) or, when blank, now."""
    raw = (form.get("at") or "").strip()
    if not raw:
        return now
    parts = raw.split(":")
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        h, m, s = (int(p) for p in parts + ["0"] * (3 - len(parts)))
        if not (0 <= h < 24 and 0 <= m < 60 and 0 <= s < 60):
            raise ValueError
    except ValueError:
        raise TournamentError(f"time: {raw!r} is not HH:MM or HH:MM:SS") from None
    day = time.localtime(now)
    return time.mktime((day.tm_year, day.tm_mon, day.tm_mday, h, m, s, 0, 0, -1))


@router.post("/{event_id}/rounds/{number}/tables/{table}/half-end")
async def half_end(event_id: int, number: int, table: int, request: Request):
    form = await _form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        _round_or_404(session, event_id, number)
        now = now_of(request)
        try:
            at = _clock_time(form, now)
            if at > now:
                raise TournamentError(f"table {table}: a first half cannot end in the future")
            source = form.get("source", "arbiter")
            signals.record_half_end(session, event_id, number, table, at, source)
        except TournamentError as exc:
            return _fail(request, 400, str(exc), back)
        session.commit()
    return _see(back + "#control")


def clock_round_label(event_name: str, number: int) -> str:
    """The round label under which the desk looks for this round's table clocks."""
    return f"{event_name} R{number}"


def clock_half_ends(request: Request, label: str, event_id: int) -> dict[int, float]:
    """When each table clock of round `label` ended its first period (the first half), by
    table number (a clock's table label is the number, optionally after a word: "Table 3").

    Only clocks bound to `event_id` count: the clock API binds a clock to an event only for
    a request with that event's desk session and CSRF token, so a clock anyone on the LAN
    made with the same round label cannot feed the round's signals."""
    from ball.clocks.store import ClockStore

    store = ClockStore(request.app.state.sessions, lambda: now_of(request))
    found: dict[int, float] = {}
    for view in store.round_views(label, event_id):
        if view.event_id != event_id:  # round_views filters; this keeps the rule local
            continue
        match = re.fullmatch(r"\D*(\d+)", view.table.strip())
        if match is None:
            continue
        for notice in view.clock.timeline:
            if (
                notice["source"] == "clock"
                and notice["kind"] == "period_end"
                and notice["data"].get("period") == 1
            ):
                found.setdefault(int(match.group(1)), notice["at"])
                break
    return found


@router.post("/{event_id}/rounds/{number}/half-ends/from-clocks")
async def half_ends_from_clocks(event_id: int, number: int, request: Request):
    """Take the first-half ends the table clocks of this round reported (source "table")."""
    form = await _form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        event = _event_or_404(session, event_id)
        _round_or_404(session, event_id, number)
        label = clock_round_label(event.name, number)
        control = signals.round_control(session, event_id, number, now_of(request), 0.0)
    reported = clock_half_ends(request, label, event_id)
    with request.app.state.sessions() as session:
        try:
            for t in control.tables:
                if t.playing and t.table in reported:
                    signals.record_half_end(
                        session, event_id, number, t.table, reported[t.table], "table"
                    )
        except TournamentError as exc:
            return _fail(request, 400, str(exc), back)
        session.commit()
    return _see(back + "#control")


# ---------------------------------------------------------------------- results


def sheet_from_form(form: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The score sheet (`ball.match.result` format) of the result form's fields.

    Coach A is ATK first in half 1, coach B in half 2 (the tournament's convention)."""
    coaches = {"A": a, "B": b}
    halves = []
    for half, atk in ((1, "A"), (2, "B")):
        pb = {}
        for side in ("A", "B"):
            counters = {}
            for name in ("atk", "def"):
                key = f"h{half}_{side}_{name}"
                raw = (form.get(key) or "").strip()
                if raw == "":
                    raise SheetError(f"half {half}: PB{name.upper()} of {coaches[side]} is empty")
                try:
                    counters[name] = int(raw)
                except ValueError:
                    raise SheetError(
                        f"half {half}: PB{name.upper()} of {coaches[side]}: {raw!r} is not a "
                        "whole number"
                    ) from None
            pb[coaches[side]] = counters
        td = form.get(f"h{half}_td") or ""
        if td not in ("", "A", "B"):
            raise SheetError(f"half {half}: touchdown by {td!r}, choose A, B or nobody")
        halves.append({"atk_first": coaches[atk], "td": coaches.get(td), "pb": pb})
    return {"coaches": [a, b], "halves": halves}


def steals_from_form(form: dict[str, Any]) -> list[dict[str, Any]]:
    """The steal lines filled in, as `{"half", "side", "choice"}` (checked by the service)."""
    steals = []
    for half in (1, 2):
        for row in range(STEAL_ROWS):
            side = form.get(f"h{half}_steal{row}_by") or ""
            if side:
                choice = form.get(f"h{half}_steal{row}_choice") or ""
                steals.append({"half": half, "side": side, "choice": choice})
    return steals


def sanctions_from_form(form: dict[str, Any]) -> list[dict[str, str]]:
    """The sanction lines filled in, as `{"side", "step", "reason"}` (checked by the service)."""
    out = []
    for row in range(SANCTION_ROWS):
        side = form.get(f"sanction{row}_side") or ""
        if side:
            out.append(
                {
                    "side": side,
                    "step": form.get(f"sanction{row}_step") or "",
                    "reason": form.get(f"sanction{row}_reason") or "",
                }
            )
    return out


def _kind(form: dict[str, Any]) -> str:
    kind = form.get("kind") or "sheet"
    if kind not in ("sheet", "forfeit-A", "forfeit-B", "double-forfeit"):
        raise TournamentError(f"kind: {kind!r} is not a kind of result")
    return kind


def _reason_text(request: Request, reason: str) -> str:
    _ = _t(request)
    return {
        "touchdowns": _("touchdowns"),
        "attack-efficiency": _("attack efficiency"),
        "defensive-superiority": _("defensive superiority"),
        "draw": _("draw"),
        "forfeit": _("forfeit"),
    }.get(reason, reason)


def preview(request: Request, form: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """What saving this form would decide, or the first fault: `decide` runs here."""
    _ = _t(request)
    try:
        kind = _kind(form)
        table_result.check_steals(steals_from_form(form), {"A": a, "B": b})
        table_result.check_sanctions(sanctions_from_form(form), kind, {"A": a, "B": b})
        if kind == "double-forfeit":
            return {"ok": True, "kind": kind, "text": _("Double forfeit: both coaches lose 0-2.")}
        if kind.startswith("forfeit-"):
            loser = a if kind.endswith("A") else b
            winner = b if loser == a else a
            decision = decide({"coaches": [a, b], "halves": [], "forfeit": loser})
        else:
            decision = decide(sheet_from_form(form, a, b))
            winner = decision.winner
    except (SheetError, TournamentError) as exc:
        return {"ok": False, "error": str(exc)}
    td = f"{decision.td[a]}–{decision.td[b]}"
    reason = _reason_text(request, decision.reason)
    if winner is None:
        text = _("Draw %(td)s (%(reason)s)") % {"td": td, "reason": reason}
    else:
        text = _("%(winner)s wins %(td)s by %(reason)s") % {
            "winner": winner,
            "td": td,
            "reason": reason,
        }
    return {
        "ok": True,
        "kind": kind,
        "winner": winner,
        "reason": decision.reason,
        "td": decision.td,
        "sd": decision.sd,
        "pbatk_scoring_half": decision.pbatk_scoring_half,
        "text": text,
    }


def _state(session, pairing_id: int) -> ResultState:
    state = session.get(ResultState, pairing_id)
    if state is None:
        table_result.ensure_state(sessionmaker(session.get_bind()), pairing_id)
        state = session.get(ResultState, pairing_id)
    return state


def _form_values(pairing: Pairing, state: ResultState) -> dict[str, str]:
    """The result form filled from the stored result (for a correction)."""
    values: dict[str, str] = {"kind": "sheet"}
    result = pairing.result
    if result is None:
        return values
    side = {pairing.a.name: "A", pairing.b.name: "B"}
    if result.kind == "double-forfeit":
        values["kind"] = "double-forfeit"
    elif result.kind == "forfeit":
        values["kind"] = f"forfeit-{result.forfeit_by}"
    if result.sheet:
        sheet = json.loads(result.sheet)
        for half, data in enumerate(sheet.get("halves") or [], start=1):
            if not data:
                continue
            values[f"h{half}_td"] = side.get(data.get("td"), "")
            for coach, counters in data["pb"].items():
                for name in ("atk", "def"):
                    values[f"h{half}_{side[coach]}_{name}"] = str(counters[name])
    rows = {1: 0, 2: 0}
    for steal in json.loads(state.steals or "[]"):
        row = rows[steal["half"]]
        if row < STEAL_ROWS:
            values[f"h{steal['half']}_steal{row}_by"] = side.get(steal["by"], "")
            values[f"h{steal['half']}_steal{row}_choice"] = steal["choice"]
            rows[steal["half"]] += 1
    return values


def _result_context(request, session, event, rnd, pairing, arbiter, **extra) -> dict[str, Any]:
    state = _state(session, pairing.id)
    session.commit()
    suggest = {
        side: sanction_log.suggest(session, event.id, entrant.id).name
        for side, entrant in (("A", pairing.a), ("B", pairing.b))
    }
    return {
        "event": event,
        "round": rnd,
        "pairing": pairing,
        "current": decision_of(pairing),
        "version": state.version,
        "values": _form_values(pairing, state),
        "csrf": arbiter.csrf,
        "ladder": LADDER.names,
        "suggest": suggest,
        "steal_rows": range(STEAL_ROWS),
        "sanction_rows": range(SANCTION_ROWS),
        "preview": None,
        "error": "",
        **extra,
    }


@router.get("/{event_id}/rounds/{number}/tables/{table}")
def result_page(event_id: int, number: int, table: int, request: Request):
    with request.app.state.sessions() as session:
        event, arbiter = _desk_page(request, session, event_id)
        rnd = _round_or_404(session, event_id, number)
        pairing = _pairing_or_404(rnd, table)
        return render(
            request,
            "desk/result.html",
            _result_context(request, session, event, rnd, pairing, arbiter),
        )


@router.post("/{event_id}/rounds/{number}/tables/{table}/check", response_class=JSONResponse)
async def check_result(event_id: int, number: int, table: int, request: Request):
    """The "as you type" check: the decision `decide` gives for the form as it stands."""
    form = await _form(request)
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
        pairing = _pairing_or_404(_round_or_404(session, event_id, number), table)
        return JSONResponse(preview(request, form, pairing.a.name, pairing.b.name))


@router.post("/{event_id}/rounds/{number}/tables/{table}")
async def save_result(event_id: int, number: int, table: int, request: Request):
    """Save the form: result, steals and sanctions in one service call (one transaction).
    The same form sent again (a retry after a lost answer) is answered like the first."""
    form = await _form(request)
    _ = _t(request)
    with request.app.state.sessions() as session:
        arbiter = _write(request, session, event_id, form)
        event = _event_or_404(session, event_id)
        rnd = _round_or_404(session, event_id, number)
        pairing = _pairing_or_404(rnd, table)
        a, b = pairing.a.name, pairing.b.name
        checked = preview(request, form, a, b)

        def again(status: int, **extra):
            session.expire_all()  # show what is stored now, not what was loaded
            context = _result_context(request, session, event, rnd, pairing, arbiter, **extra)
            context["values"] = {k: v for k, v in form.items() if isinstance(v, str)}
            return render(request, "desk/result.html", context, status_code=status)

        if not checked["ok"]:
            return again(400, error=checked["error"])
        if form.get("action") == "check":
            return again(200, preview=checked)
        try:
            loaded = _int(form, "version", default=-1, low=-1)
            service_for(request.app).record_table_result(
                number,
                table,
                **_result_args(checked["kind"], form, a, b),
                steals=steals_from_form(form),
                sanctions=sanctions_from_form(form),
                reason=form.get("reason") or "",
                expected_version=loaded,
                at=now_of(request),
                event=event_id,
            )
        except table_result.VersionConflict:
            conflict = N_(
                "Another arbiter saved this table after you opened it. Nothing was "
                "overwritten: check the result shown and enter it again if needed."
            )
            return again(409, error=_(conflict))
        except table_result.CorrectionWithoutReason:
            return again(400, error=_(N_("A correction needs a reason.")), preview=checked)
        except TournamentError as exc:
            return again(400, error=str(exc))
    return _see(f"/desk/{event_id}/rounds/{number}#table-{table}")


def _result_args(kind: str, form: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The result part of a service call from the form's kind (sheet, forfeit, double)."""
    if kind == "double-forfeit":
        return {"double_forfeit": True}
    if kind.startswith("forfeit-"):
        return {"forfeit": kind[-1]}
    return {"sheet": sheet_from_form(form, a, b)}


# -------------------------------------------------------------------- sanctions


@router.get("/{event_id}/sanctions")
def sanctions_page(event_id: int, request: Request):
    with request.app.state.sessions() as session:
        event, arbiter = _desk_page(request, session, event_id)
        rows = []
        for entrant in sorted(event.entrants, key=lambda e: e.number):
            rows.append(
                {
                    "entrant": entrant,
                    "history": sanction_log.history(session, event_id, entrant.id),
                    "suggest": sanction_log.suggest(session, event_id, entrant.id).name,
                }
            )
        return render(
            request,
            "desk/sanctions.html",
            {
                "event": event,
                "rows": rows,
                "ladder": LADDER.names,
                "csrf": arbiter.csrf,
                "rounds": len(event.rounds_),
            },
        )


@router.post("/{event_id}/sanctions")
async def give_sanction(event_id: int, request: Request):
    form = await _form(request)
    back = f"/desk/{event_id}/sanctions"
    with request.app.state.sessions() as session:
        _write(request, session, event_id, form)
    try:
        entrant_id = _int(form, "entrant", low=1)
        if entrant_id is None:
            raise TournamentError("entrant: choose who is sanctioned")
        service_for(request.app).give_sanction(
            form.get("step", ""),
            form.get("reason", ""),
            entrant_id=entrant_id,
            round_number=_int(form, "round", low=1),
            table=_int(form, "table", low=1),
            at=now_of(request),
            event=event_id,
        )
    except TournamentError as exc:
        return _fail(request, 400, str(exc), back)
    return _see(back + f"#entrant-{entrant_id}")


# ------------------------------------------------------------------------ demo data

DEMO_EVENT = "BALL Demo Open"
DEMO_PIN = "1234"
DEMO_PLAYERS = (
    ("Ana Petrova", "Sofia", "BUL", 1850),
    ("Kim Min-jun", "Seoul", "KOR", 1790),
    ("Georgi Ivanov", "Plovdiv", "BUL", 1720),
    ("Lee Seo-yeon", "Busan", "KOR", 1700),
)


def _demo_sheet(a: str, b: str, td1: str | None, td2: str | None, pb: list[int]) -> dict:
    # pb = [A atk, B atk] of half 1 then [B atk, A atk] of half 2; dual entry mirrors them.
    h1 = {a: {"atk": pb[0], "def": pb[1]}, b: {"atk": pb[1], "def": pb[0]}}
    h2 = {b: {"atk": pb[2], "def": pb[3]}, a: {"atk": pb[3], "def": pb[2]}}
    return {
        "coaches": [a, b],
        "halves": [
            {"atk_first": a, "td": td1, "pb": h1},
            {"atk_first": b, "td": td2, "pb": h2},
        ],
    }


def seed_demo_event(sessions) -> int:
    """A 4-player round robin for `ball serve --demo`: round 1 decided, round 2 under way
    (signal 1 given, one table finished its first half). PIN 1234. Idempotent."""
    from ball.tournament.names import name_key

    with sessions() as session:
        for event_id, name in session.execute(select(Event.id, Event.name)):
            if name_key(name) == name_key(DEMO_EVENT):  # its name is taken: that is the demo
                return event_id
    svc = TournamentService.from_sessions(sessions.kw["bind"], sessions)
    event_id = svc.create_event(
        name=DEMO_EVENT, system="round-robin", arbiter="demo", place="Demo hall"
    )["id"]
    for name, club, fed, rating in DEMO_PLAYERS:
        svc.add_player(name, club=club, federation=fed, rating=rating, event=event_id)
    tables = svc.pair_next_round(event=event_id)
    first = tables[0]
    svc.enter_result(
        1,
        1,
        sheet=_demo_sheet(first["a"], first["b"], first["a"], None, [3, 0, 0, 2]),
        event=event_id,
    )
    svc.enter_result(1, 2, forfeit="B", event=event_id)
    svc.pair_next_round(event=event_id)
    now = time.time()
    with sessions() as session:
        security.set_pin(session, event_id, DEMO_PIN, now)
        signals.give_signal(session, event_id, 2, 1, now - 24 * 60, signals.gap_seconds())
        signals.record_half_end(session, event_id, 2, 1, now - 3 * 60, "arbiter")
        session.commit()
    return event_id
