"""The arbiter desk: one browser runs the whole event (issue 6) — its routes only.

A route reads its form (`ball.web.desk_forms`), calls one use case of
`ball.tournament.service.TournamentService` (each one transaction; the desk's page reads are
`ball.tournament.desk_service`) and renders or redirects. Storage and access come as FastAPI
dependencies (`ball.web.deps`): no route opens a session or runs a query. Pairing, scoring,
standings, signals (`ball.tournament.signals`) and the sanction ladder
(`ball.tournament.sanction_log`) stay in `ball.tournament`; the match result is decided by
the event's game (`ball.games`; for BALL `ball.match.result.decide`), for
the "as you type" check as for the save. Pages work without JavaScript; the scripts only add
that check (a JSON endpoint) and the countdown. The first-half ends the table clocks report
are read by the service (`record_half_ends_from_clocks`).

Access (see `ball.web.security`): GET pages of an event need a desk session (else the PIN
page); every POST checks same origin, the session (401) and the CSRF token (403).

Saving a table is one call, `TournamentService.record_table_result`: the result, its steals
and its sanctions are checked first and written in one transaction with the table's version
(`ball.tournament.table_result`). The form carries the version it was loaded with; when
another save came first the answer is 409 with nothing written, unless the form is the very
submission stored (a retry after a lost answer), which is answered like the first save.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse

from ball.games import GAMES, game, runs_sessions
from ball.games.forms import form_int
from ball.games.protocol import Decided, DeskForm, Game
from ball.match.result import SheetError
from ball.tournament import table_result
from ball.tournament.errors import IllegalSheet, TournamentError
from ball.tournament.pairing_check import reference
from ball.tournament.service import SYSTEMS, TournamentService
from ball.tournament.signals import clock_round_label
from ball.web import ball_tables, field_errors, limits, security
from ball.web.deps import (
    desk_reader,
    desk_writer,
    gap_of,
    now_of,
    service_for,  # noqa: F401 - tests and other modules know it here
    tournament,
)
from ball.web.desk_demo import (  # noqa: F401 - `DEMO_SEEDERS` and tests name them here
    DEMO_EVENT,
    DEMO_PIN,
    seed_demo_event,
)
from ball.web.desk_forms import (
    MAX_CSV_BYTES,
    QUICK,
    SANCTION_ROWS,
    STEAL_ROWS,
    clock_time,
    document_form_values,
    form_values,
    parse_entrants_csv,
    read_form,
    result_args,
    result_kind,
    sanctions_from_form,
    sheet_from_form,
    sheet_values,
    steals_from_form,
    swapped_tables,
)
from ball.web.desk_groups import desk_group_tables, group_options
from ball.web.desk_lateness import ruled_preview
from ball.web.desk_pages import fail as _fail
from ball.web.desk_pages import found as _found
from ball.web.desk_pages import refused as _refused
from ball.web.desk_pages import see as _see
from ball.web.i18n import gettext_for
from ball.web.live_pages import broadcast_published
from ball.web.openapi import SEE_OTHER, page_errors
from ball.web.public import TIEBREAK_LABELS
from ball.web.templating import N_, render
from ball.web.timefmt import hms, mmss
from ball.web.xiangqi_api import store as xiangqi_store

# Pages and forms answer HTML; refusals before the form is read (no session, bad CSRF token,
# no such event) are JSON `{"detail": ...}`; the two JSON endpoints say so themselves.
router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 409, 422, 429)},
)

# Words the templates translate from data (`_(event.system)`, `_(step)`, ...).
DATA_WORDS = (
    N_("round-robin"),
    N_("double-round-robin"),
    N_("swiss"),
    N_("knockout"),
    N_("groups"),
    N_("warning"),
    N_("loss-of-turn"),
    N_("loss-of-possession"),
    N_("loss-of-match"),
    N_("continue"),
    N_("reset"),
    N_("arbiter"),
    N_("table"),
)

Service = TournamentService  # the type of the `Depends(tournament)` parameters


# --------------------------------------------------------------------------- plumbing


def _t(request: Request) -> Callable[[str], str]:
    return gettext_for(getattr(request.state, "lang", "en"))


# --------------------------------------------------------------------- events, login


@router.get("")
def desk_home(request: Request, svc: Service = Depends(tournament)):
    return render(request, "desk/index.html", _home_context(svc))


def _home_context(svc: Service, **extra: Any) -> dict[str, Any]:
    context = {"events": svc.desk.event_list(), "systems": SYSTEMS, "games": list(GAMES)}
    return context | {"values": {}, "fault": None, "error": ""} | extra


def _refused_form(
    request: Request, template: str, context: dict[str, Any], error: str, rules, form
) -> HTMLResponse:
    """A refused desk form again (400), as typed, its fault beside its field."""
    return _refused(request, template, context, error, rules, form)


def _format_options(form: dict[str, Any]) -> dict[str, Any]:
    """Issue 17's options of a new event, when the form sets them: a knockout's ties as
    mini-matches (games, extra games, lots or Armageddon) and a team event's boards."""
    options: dict[str, Any] = {}
    games = form_int(form, "games_per_tie", low=1, high=99)
    if games is not None:
        options["games_per_tie"] = games
        options["tie_extra_games"] = form_int(form, "extra_games", default=0, high=99)
        options["tie_break"] = form.get("tie_break") or "lots"
    boards = form_int(form, "teams", low=1, high=64)
    if boards is not None:
        options["teams"] = boards
        options["team_ranking"] = form.get("team_ranking") or "15.3"
    return options | group_options(form)


@router.post("/events")
async def create_event(request: Request, svc: Service = Depends(tournament)):
    security.same_origin(request)
    limits.check_cap(request, "events")
    limits.check_creation_rate(request, "events")  # each creation costs a scrypt hash
    form = await read_form(request)
    try:
        pin = security.check_pin_text(form.get("pin", ""))
        if pin != form.get("pin2", pin):
            raise security.PinError("pin: the two PINs differ")
        if runs_sessions(form.get("game", "")):  # sessions of tables of four, not a system
            event_id = _create_mahjong(svc, form)
        else:
            event_id = svc.events.create_event(
                name=form.get("name", ""),
                system=form.get("system", ""),
                rounds=form_int(form, "rounds", low=1),
                place=form.get("place", "").strip(),
                arbiter=form.get("arbiter", "").strip(),
                game_name=form.get("game") or "ball",
                **_format_options(form),
            ).id
    except (TournamentError, security.PinError) as exc:
        rules = field_errors.NEW_EVENT_RULES
        return _refused_form(request, "desk/index.html", _home_context(svc), str(exc), rules, form)
    response = _see(f"/desk/{event_id}")
    pin_hash = await run_in_threadpool(security.hash_pin, pin)  # scrypt: off the event loop
    code = security.new_recovery_code()
    code_hash = await run_in_threadpool(security.hash_recovery, code)
    sessions = request.app.state.sessions
    security.open_desk(
        sessions, event_id, now_of(request), response, pin_hash=pin_hash, recovery_hash=code_hash
    )
    _show_recovery_code(response, event_id, code)
    return response


def _recovery_cookie(event_id: int) -> str:
    return f"ball_recovery_{event_id}"


def _show_recovery_code(response, event_id: int, code: str) -> None:
    """Hand a new recovery code to the desk browser that made it, for the desk's pages to
    show (and print) until the arbiter says it is noted or an hour passes: the server keeps
    only its hash, so this cookie is the one place the code is readable."""
    response.set_cookie(
        _recovery_cookie(event_id),
        code,
        max_age=RECOVERY_SHOWN_SECONDS,
        httponly=True,
        samesite="strict",
        path=f"/desk/{event_id}",
    )


RECOVERY_SHOWN_SECONDS = 3600


def _shown_recovery_code(request: Request, event_id: int) -> str:
    """The new recovery code this desk browser was handed, or "" (only ever shown on pages
    that need the desk session)."""
    return security.recovery_text(request.cookies.get(_recovery_cookie(event_id), "")) or ""


def _create_mahjong(svc: Service, form: dict[str, Any]) -> int:
    """A Mahjong event (issue 18): its rounds are sessions; hands per session default 16."""
    sessions = form_int(form, "rounds", low=1)
    if sessions is None:
        raise TournamentError("rounds: a Mahjong event needs its number of sessions")
    created = svc.sessions.create_mahjong_event(
        name=form.get("name", ""),
        sessions=sessions,
        hands_per_session=form_int(form, "hands", default=16, low=1) or 16,
        place=form.get("place", "").strip(),
        arbiter=form.get("arbiter", "").strip(),
    )
    return int(created["id"])


@router.get("/{event_id}/login")
def login_page(
    event_id: int,
    request: Request,
    next: str = "",  # noqa: A002
    svc: Service = Depends(tournament),
):
    event = _found(svc.desk.event_page, event_id)
    return render(request, "desk/login.html", {"event": event, "next": next, "error": ""})


@router.post("/{event_id}/login")
async def login(event_id: int, request: Request, svc: Service = Depends(tournament)):
    security.same_origin(request)
    form = await read_form(request)
    target = form.get("next", "")
    if not target.startswith(f"/desk/{event_id}"):
        target = f"/desk/{event_id}"
    response = _see(target)
    # Throttled per client address (`security.PinThrottle`): a guesser locks out itself,
    # never the arbiter at another desk.
    sessions = request.app.state.sessions
    throttle = security.PinThrottle(sessions, "desk")
    client = security.client_address(request)
    now = now_of(request)
    _found(svc.desk.require_event, event_id)

    def refuse(status: int, message: str, headers: dict[str, str] | None = None):
        context = {"event": _found(svc.desk.event_page, event_id), "next": target, "error": message}
        page = render(request, "desk/login.html", context, status_code=status)
        page.headers.update(headers or {})
        return page

    pin = form.get("pin", "")
    if security.recovery_text(pin) is not None:
        recovered = await _recover(request, event_id, pin, client, now)
        if recovered is not None:
            return recovered
    # Counted and decided in one transaction before the check (scrypt, in a worker thread:
    # a PIN check must not stop every other request).
    wait = await run_in_threadpool(throttle.take, event_id, client, now)
    if wait > 0:
        message = _t(request)(N_("Too many wrong PINs: try again in %(s)s seconds."))
        seconds = int(wait + 0.999)
        return refuse(429, message % {"s": seconds}, {"Retry-After": str(seconds)})
    if not await run_in_threadpool(security.event_pin_is, sessions, event_id, pin):
        return refuse(403, _t(request)(N_("Wrong PIN.")))
    await run_in_threadpool(lambda: throttle.succeeded(event_id, client, counted=True))
    security.open_desk(sessions, event_id, now, response)
    return response


async def _recover(request: Request, event_id: int, typed: str, client: str, now: float):
    """Sign in with the recovery code (issue 30 item 4): accepted even from an address that
    wrong PINs locked, it lifts that lock and is spent, and the desk shows its successor.
    None when `typed` is not the code (the caller then checks it as a PIN). Wrong codes are
    slowed per address only, so a stranger cannot use up the arbiter's tries."""
    sessions = request.app.state.sessions
    codes = security.PinThrottle(sessions, security.RECOVERY_SCOPE, event_cap=False)
    if await run_in_threadpool(codes.take, event_id, client, now) > 0:
        return None
    if not await run_in_threadpool(security.recovery_code_is, sessions, event_id, typed):
        return None
    await run_in_threadpool(lambda: codes.succeeded(event_id, client, counted=True))
    await run_in_threadpool(security.PinThrottle(sessions, "desk").reset, event_id, client)
    code = security.new_recovery_code()
    code_hash = await run_in_threadpool(security.hash_recovery, code)
    response = _see(f"/desk/{event_id}/recovery")
    security.open_desk(sessions, event_id, now, response, recovery_hash=code_hash)
    _show_recovery_code(response, event_id, code)
    return response


@router.get("/{event_id}/recovery")
def recovery_sheet(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    """The arbiter's recovery sheet: the new code while this desk browser holds it, ready to
    print; without it, the form that makes a new one (the old one then stops working)."""
    event = _found(svc.desk.event_page, event_id)
    code = _shown_recovery_code(request, event_id)
    context = {"event": event, "csrf": arbiter.csrf, "code": code}
    return render(request, "desk/recovery.html", context)


@router.post("/{event_id}/recovery")
async def new_recovery_code(
    event_id: int, request: Request, _w: security.Arbiter = Depends(desk_writer)
):
    """Replace the event's recovery code (a lost or seen sheet) and show the new one once."""
    code = security.new_recovery_code()
    code_hash = await run_in_threadpool(security.hash_recovery, code)
    security.store_recovery_hash(request.app.state.sessions, event_id, code_hash, now_of(request))
    response = _see(f"/desk/{event_id}/recovery")
    _show_recovery_code(response, event_id, code)
    return response


@router.post("/{event_id}/recovery/noted")
async def recovery_code_noted(
    event_id: int, request: Request, _w: security.Arbiter = Depends(desk_writer)
):
    """The arbiter has the code on paper: this browser stops showing it."""
    response = _see(f"/desk/{event_id}")
    response.delete_cookie(_recovery_cookie(event_id), path=f"/desk/{event_id}")
    return response


@router.post("/{event_id}/logout")
async def logout(event_id: int, request: Request, _w: security.Arbiter = Depends(desk_writer)):
    response = _see("/desk")
    security.end_desk(request.app.state.sessions, request, event_id, response)
    return response


# ---------------------------------------------------------------- the event page


@router.get("/{event_id}")
def event_page(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(request, "desk/event.html", _event_context(request, svc, event_id, arbiter))


def _event_context(
    request: Request, svc: Service, event_id: int, arbiter: security.Arbiter
) -> dict[str, Any]:
    event = _found(svc.desk.event_page, event_id)
    rounds = event.rounds_
    return {
        "event": event,
        "entrants": event.entrants,
        "rounds": rounds,
        "csrf": arbiter.csrf,
        "next_round": len(rounds) + 1,
        "can_pair": event.rounds is None or len(rounds) < event.rounds,
        "formats": svc.formats.event_formats(event_id),
        "recovery_code": _shown_recovery_code(request, event_id),
        "values": {},
        "fault": None,
        "error": "",
        "refused": "",  # which of the entrant forms was refused: "add" or "import"
        **desk_group_tables(svc, event),
    }


def _refused_entrants(
    request: Request, svc: Service, event_id: int, arbiter, which: str, error: str, form
) -> HTMLResponse:
    """The event page again with the refused form as typed, its fault beside the field
    (`which`: the "add" or the "import" entrant form) or at the top of the form ("pair")."""
    context = _event_context(request, svc, event_id, arbiter) | {"refused": which}
    rules = field_errors.ENTRANT_RULES
    return _refused_form(request, "desk/event.html", context, error, rules, form)


@router.post("/{event_id}/entrants")
async def add_entrant(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}"
    try:
        svc.entrants.add_player(
            form.get("name", ""),
            rating=form_int(form, "rating"),
            club=form.get("club", "").strip(),
            federation=form.get("federation", "").strip(),
            event=event_id,
        )
    except TournamentError as exc:
        return _refused_entrants(request, svc, event_id, arbiter, "add", str(exc), form)
    return _see(back + "#entrants")


@router.post("/{event_id}/entrants/import")
async def import_entrants(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    existing = {e.name for e in _found(svc.desk.event_page, event_id).entrants}
    back = f"/desk/{event_id}"
    upload = form["_files"].get("file")
    text = form.get("csv", "")
    if upload is not None and getattr(upload, "filename", None):  # None or "": no file
        raw = await upload.read(MAX_CSV_BYTES + 1)
        if len(raw) > MAX_CSV_BYTES:
            too_big = f"CSV: the file is larger than {MAX_CSV_BYTES} bytes"
            return _refused_entrants(request, svc, event_id, arbiter, "import", too_big, form)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            not_text = "CSV: the file is not UTF-8 text"
            return _refused_entrants(request, svc, event_id, arbiter, "import", not_text, form)
    try:
        rows = parse_entrants_csv(text)
        clash = [r["name"] for r in rows if r["name"] in existing]
        if clash:
            raise TournamentError(f"CSV: already registered: {', '.join(clash)}")
        for row in rows:
            svc.entrants.add_player(
                row["name"],
                rating=row["rating"],
                club=row["club"],
                federation=row["federation"],
                event=event_id,
            )
    except TournamentError as exc:
        return _refused_entrants(request, svc, event_id, arbiter, "import", str(exc), form)
    return _see(back + "#entrants")


@router.post("/{event_id}/entrants/{entrant_id}/withdraw")
async def withdraw(
    event_id: int,
    entrant_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}"
    name = _found(svc.desk.entrant, event_id, entrant_id).name
    try:
        if form.get("confirm") != "yes":
            raise TournamentError("withdrawal: tick the confirmation box")
        svc.entrants.withdraw(name, event=event_id, reason=form.get("reason", "").strip())
    except TournamentError as exc:  # the event page again, this entrant's form opened
        context = _event_context(request, svc, event_id, arbiter)
        context |= {"refused": "withdraw", "refused_id": entrant_id}
        rules = field_errors.WITHDRAW_RULES
        return _refused(request, "desk/event.html", context, str(exc), rules, form)
    return _see(back + "#entrants")


# --------------------------------------------------------------------------- rounds


@router.post("/{event_id}/rounds")
async def pair_round(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    number = len(_found(svc.desk.event_page, event_id).rounds_) + 1
    try:
        # Off the event loop: a Swiss round of a few hundred entrants takes seconds inside
        # the pairing engine, and the same loop answers the table clocks and public pages.
        await run_in_threadpool(svc.rounds.pair_next_round, event=event_id)
    except TournamentError as exc:  # about no field: at the top of the event page's pair form
        form = await read_form(request)
        return _refused_entrants(request, svc, event_id, arbiter, "pair", str(exc), form)
    return _see(f"/desk/{event_id}/rounds/{number}")


def _pair_next(svc: Service, event_id: int, rnd) -> int | None:
    """The round to pair from this round's page: the next one, once this round is the latest
    and every table that takes a result has one (as the event page's *Pair round N*)."""
    event = _found(svc.desk.event_page, event_id)
    latest = event.rounds_[-1].number if event.rounds_ else None
    if rnd.number != latest or any(p.b is not None and p.result is None for p in rnd.pairings):
        return None
    if event.rounds is not None and latest >= event.rounds:
        return None
    return latest + 1


@router.get("/{event_id}/rounds/{number}")
def round_page(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(
        request, "desk/round.html", _round_context(request, svc, event_id, number, arbiter)
    )


def _round_context(
    request: Request, svc: Service, event_id: int, number: int, arbiter
) -> dict[str, Any]:
    page = _found(svc.desk.round_page, event_id, number, now_of(request), gap_of(request))
    return {
        "quick": game(page.event.game).quick_form,
        "pair_next": _pair_next(svc, event_id, page.round),
        "event": page.event,
        "round": page.round,
        "tables": [{"p": p, "result": p.result} for p in page.round.pairings],
        "csrf": arbiter.csrf,
        "control": page.control,
        "control_json": page.control.as_dict(),
        "editable": page.editable,
        "players": page.players,
        "clock_round": clock_round_label(page.event.name, number),
        "hms": hms,
        "mmss": mmss,
        "formats": svc.formats.event_formats(event_id),
        "broadcast": broadcast_published(request, event_id, number),  # live boards public
        # one-game knockout matches of this round waiting for their drawing of lots
        "lots_due": {
            d["table"]: d["sides"]
            for d in svc.knockout.lots_due(event=event_id)
            if d["round"] == number
        },
        **desk_group_tables(svc, page.event),
        # the players' entries by their table links (`ball.web.table_entry`)
        "entries": svc.table_links.player_entries(event_id, number),
        "accepts_confirmed": svc.table_links.accepts_confirmed(event_id),
        "values": {},
        "fault": None,
        "error": "",
        "refused": "",  # which form of the page was refused: "swap", "control" or "lots"
        "refused_table": None,  # the table whose half-end or lots form was refused
        "checked": svc.checks.round_verdict(number, event=event_id),  # the pairing check (issue 35)
        "reference": reference,
    }


round_context = _round_context  # the round page's context, for `desk_check`'s refusals


@router.get("/{event_id}/rounds/{number}/control.json", response_class=JSONResponse)
def round_control_json(
    event_id: int, number: int, request: Request, svc: Service = Depends(tournament)
):
    sessions = request.app.state.sessions
    if security.arbiter_of(sessions, request, event_id, now_of(request)) is None:
        raise HTTPException(401, "the arbiter desk needs the event PIN")
    control = _found(svc.desk.round_control, event_id, number, now_of(request), gap_of(request))
    return control.as_dict()


@router.post("/{event_id}/rounds/{number}/swap")
async def swap(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.desk.require_event, event_id)
    rnd = _found(svc.desk.round_view, event_id, number)
    try:
        tables = swapped_tables(rnd, form.get("x", ""), form.get("y", ""))
    except TournamentError as exc:
        return _refused_swap(request, svc, event_id, number, arbiter, str(exc), form)
    byes = {p.a.name: p.bye for p in rnd.pairings if p.b_id is None and p.bye}
    if form.get("confirm") != "yes":
        # Show what the round would become; nothing changes until confirmed.
        return render(
            request,
            "desk/swap_confirm.html",
            {
                "event": _found(svc.desk.event_page, event_id),
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
        svc.rounds.set_pairing(number, tables, byes=byes, reason=reason, event=event_id)
    except TournamentError as exc:
        return _refused_swap(request, svc, event_id, number, arbiter, str(exc), form)
    return _see(back)


def _refused_swap(
    request: Request, svc: Service, event_id: int, number: int, arbiter, error: str, form
) -> HTMLResponse:
    """The round page again with the swap form opened as typed and its fault beside the
    entrant it is about (`x` or `y`), else at the top of the form."""
    context = _round_context(request, svc, event_id, number, arbiter) | {"refused": "swap"}
    sides = {form.get("y", ""): "y", form.get("x", ""): "x"}  # x wins when both are one name
    rules = field_errors.SWAP_RULES
    return _refused(request, "desk/round.html", context, error, rules, form, sides=sides)


def refused_control(
    request: Request,
    svc: Service,
    event_id: int,
    number: int,
    error: str,
    form,
    status: int = 400,
    table: int | None = None,
    which: str = "control",
) -> HTMLResponse:
    """The round page again with a refused round-control action (a signal, a half end) at
    the top of the round control, or beside the end time of `table`'s half-end form; or
    (`which="lots"`) a refused drawing of lots of `table`, at the top of its lots forms."""
    arbiter = security.arbiter_of(request.app.state.sessions, request, event_id, now_of(request))
    context = _round_context(request, svc, event_id, number, arbiter)
    context |= {"refused": which, "refused_table": table}
    rules = field_errors.HALF_END_RULES if which == "control" else field_errors.LOTS_RULES
    return _refused(request, "desk/round.html", context, error, rules, form, status)


# ---------------------------------------------------------------------- signals


@router.post("/{event_id}/rounds/{number}/signals/{which}")
async def give_signal(
    event_id: int,
    number: int,
    which: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.desk.round_view, event_id, number)
    try:
        svc.arbiter.give_signal(
            number, which, at=now_of(request), gap=gap_of(request), event=event_id
        )
    except TournamentError as exc:
        return refused_control(request, svc, event_id, number, str(exc), {}, 409)
    return _see(back + "#control")


@router.post("/{event_id}/rounds/{number}/tables/{table}/half-end")
async def half_end(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.desk.round_view, event_id, number)
    now = now_of(request)
    try:
        at = clock_time(form, now)
        source = form.get("source", "arbiter")
        svc.desk.record_half_end_by(event_id, number, table, at=at, now=now, source=source)
    except TournamentError as exc:
        return refused_control(request, svc, event_id, number, str(exc), form, table=table)
    return _see(back + "#control")


@router.post("/{event_id}/rounds/{number}/half-ends/from-clocks")
async def half_ends_from_clocks(
    event_id: int,
    number: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Take the first-half ends the table clocks of this round reported (source "table")."""
    back = f"/desk/{event_id}/rounds/{number}"
    try:
        _found(svc.desk.record_half_ends_from_clocks, event_id, number, now_of(request))
    except TournamentError as exc:
        return refused_control(request, svc, event_id, number, str(exc), {})
    return _see(back + "#control")


@router.post("/{event_id}/rounds/{number}/clocks")
async def round_clocks(
    event_id: int,
    number: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Create the table clocks of this round in one action (issue 13): one BALL clock per
    table with two coaches, labelled with the table number, bound to the event, its players
    in pairing order so coach A attacks first (D-U1). Tables that already have a clock of
    this round are left as they are, so pressing twice makes no second clock."""
    from ball.clocks.store import ClockStore

    back = f"/desk/{event_id}/rounds/{number}"
    event = _found(svc.desk.event_page, event_id)
    rnd = _found(svc.desk.round_view, event_id, number)
    control = game(event.game).clock_control
    if control is None:
        return _fail(
            request, 400, _t(request)(N_("Table clocks from the pairing: BALL events only.")), back
        )
    label = clock_round_label(event.name, number)
    store = ClockStore(request.app.state.sessions, lambda: now_of(request))
    have = {view.table for view in store.round_views(label, event_id)}
    for p in rnd.pairings:
        if p.b is None or str(p.table) in have:
            continue
        store.create(str(p.table), control, None, [p.a.name, p.b.name], label, event_id)
    return _see(f"/clock/desk?round={quote(label)}&event={event_id}")


# ---------------------------------------------------------------------- results


def _reason_text(request: Request, reason: str) -> str:
    _ = _t(request)
    return {
        "touchdowns": _("touchdowns"),
        "attack-efficiency": _("attack efficiency"),
        "defensive-superiority": _("defensive superiority"),
        "draw": _("draw"),
        "forfeit": _("forfeit"),
    }.get(reason, reason)


# How a Xiangqi game ends (`xiangqi_game.REASONS`, seed 4.1/4.2/21.4), as the form names them.
XIANGQI_REASONS = {
    "checkmate": N_("checkmate"),
    "facing-generals": N_("facing generals"),
    "no-legal-move": N_("no legal move"),
    "time": N_("time"),
    "illegal-move": N_("illegal move"),
    "forbidden-move": N_("forbidden move"),
    "three-fouls": N_("three fouls"),
    "resignation": N_("resignation"),
    "refusal": N_("refusal"),
    "forfeit": N_("forfeit"),
    "insufficient-material": N_("insufficient material"),
    "agreement": N_("agreement"),
    "repetition": N_("repetition"),
    "natural-move-limit": N_("natural move limit"),
    "arbiter": N_("arbiter's ruling"),
}
# The Xiangqi ladder's steps (xiangqi_sanctions.toml), which the form shows as `_(step)`.
XIANGQI_STEPS = (N_("warning"), N_("disqualification"))


def _document_preview(
    request: Request, form: dict[str, Any], a: str, b: str, plugin: Game, desk_form: DeskForm
) -> dict[str, Any]:
    """A form of the game's own (`Game.desk_form`: Xiangqi's arbiter's document, ...) read
    into its result document and decided by the game (the rules live there)."""
    _ = _t(request)
    try:
        kind = result_kind(form)
        table_result.check_sanctions(
            sanctions_from_form(form), kind, {"A": a, "B": b}, plugin.ladder
        )
        if kind == "double-forfeit":
            return {"ok": True, "kind": kind, "text": _("Double forfeit: both players lose.")}
        if kind.startswith("forfeit-"):
            winner = b if kind.endswith("A") else a
            return {"ok": True, "kind": kind, "winner": winner,
                    "text": _("%(winner)s wins by forfeit (+/-)") % {"winner": winner}}  # fmt: skip
        decided = plugin.decide(desk_form.read(form, a, b))
    except TournamentError as exc:
        return {"ok": False, "error": str(exc)}
    d = decided.decision
    reason = _(XIANGQI_REASONS.get(d["reason"], d["reason"]))
    if d["winner"] is None:
        text = _("Draw (%(reason)s, %(article)s)") % {"reason": reason, "article": d["article"]}
    else:
        text = _("%(winner)s wins (%(reason)s, %(article)s)") % {
            "winner": d["winner"],
            "reason": reason,
            "article": d["article"],
        }
    return {"ok": True, "kind": kind, "winner": d["winner"], "reason": d["reason"], "text": text}


def _score(decision: dict[str, Any], a: str, b: str) -> str:
    """The score a decision states: BALL's touchdowns "1–0", else the game's own `result`."""
    td = decision.get("td")
    if isinstance(td, dict) and a in td and b in td:
        return f"{td[a]}–{td[b]}"
    return str(decision.get("result", ""))


def _forfeit(plugin: Game, a: str, b: str, loser: str) -> Decided:
    """A forfeit as the save records it: the game's forfeit figures, no document to check
    (`record_table_result` asks `plugin.forfeit` alone). A game whose result document can
    state a forfeit (BALL, R-forfeit: `forfeit` names the loser) gives its full decision."""
    names = {"A": a, "B": b}
    winner = "B" if loser == "A" else "A"
    decision: dict[str, Any] = {"winner": names[winner], "reason": "forfeit"}
    document = {"coaches": [a, b], "halves": [], "forfeit": names[loser]}
    with suppress(TournamentError):  # a document without that form: the forfeit needs none
        decision = plugin.decide(document).decision
    return Decided(winner, plugin.forfeit(winner), decision)


def preview(
    request: Request,
    form: dict[str, Any],
    a: str,
    b: str,
    plugin: Game,
    *,
    pb_required: bool = True,
) -> dict[str, Any]:
    """What saving this form would decide, or the first fault. The event's game decides
    (`plugin.decide`, as `record_table_result` does), so an event of another game previews
    with its own rules; its decision's fields are passed on as they are. `pb_required`:
    a quick result must give the PB (the event's tie-breaks read them)."""
    if plugin.desk_form is not None:  # its own form: the game's result document
        return _document_preview(request, form, a, b, plugin, plugin.desk_form)
    _ = _t(request)
    try:
        kind = result_kind(form)
        table_result.check_steals(steals_from_form(form), {"A": a, "B": b})
        table_result.check_sanctions(sanctions_from_form(form), kind, {"A": a, "B": b})
        if kind == "double-forfeit":
            return {"ok": True, "kind": kind, "text": _("Double forfeit: both coaches lose 0-2.")}
        if kind.startswith("forfeit-"):
            decided = _forfeit(plugin, a, b, kind[-1])
        else:
            decided = plugin.decide(sheet_from_form(form, a, b, pb_required=pb_required))
    except IllegalSheet as exc:
        return {"ok": False, "error": exc.fault}  # the form is the sheet: no "illegal sheet"
    except (SheetError, TournamentError) as exc:
        return {"ok": False, "error": str(exc)}
    decision = decided.decision
    winner = {"A": a, "B": b}.get(decided.outcome)
    score = _score(decision, a, b)
    reason = _reason_text(request, str(decision.get("reason", "")))
    if winner is None:
        text = _("Draw %(td)s (%(reason)s)") % {"td": score, "reason": reason}
    else:
        text = _("%(winner)s wins %(td)s by %(reason)s") % {
            "winner": winner,
            "td": score,
            "reason": reason,
        }
    text = " ".join(text.split())  # a game without a score leaves a gap
    return {"ok": True, "kind": kind, **decision, "winner": winner, "text": text}


def _recorded(request: Request, page) -> dict[str, Any] | None:
    """How the game recorded on the board for this table ended, if it has (else None)."""
    if game(page.event.game).record_kind != RECORDED_ENDINGS:
        return None
    return xiangqi_store(request).table_ending(page.event.id, page.round.number, page.pairing.table)


# The boards a table's game is recorded on, by the record kind of the game (`Game.record_kind`):
# the Xiangqi boards (PGN, which keep how the game ended) and the simulator's (BALL's .bgn).
RECORDED_ENDINGS = "pgn"
SIMULATOR_BOARDS = "bgn"


def _table_link(request: Request, plugin: Game, event_id: int, number: int, table: int):
    """The recorded game's board with the table's device key: for the table's tablet."""
    if plugin.record_kind == RECORDED_ENDINGS:
        return xiangqi_store(request).table_link(event_id, number, table)
    if plugin.record_kind == SIMULATOR_BOARDS:
        return ball_tables.table_link(request.app.state.sessions, event_id, number, table)
    return None


def _offered(values: dict[str, str], recorded: dict[str, Any] | None) -> dict[str, str]:
    """The empty form pre-filled from the recorded game: the arbiter still checks and saves."""
    if recorded is None or values.get("xq_result"):
        return values
    return {
        **values,
        "kind": "sheet",
        "xq_result": recorded["result"],
        "xq_reason": recorded["reason"],
        "xq_moves": str(recorded["moves"]),
        "xq_article": recorded["article"] if recorded["reason"] == "arbiter" else "",
    }


def _players_entry(request: Request, page, values: dict[str, str]) -> tuple[Any, dict[str, str]]:
    """The players' entry of a table without a result (issue 35 §1, `table_entry`), and the
    form filled from it: the arbiter checks it and saves, or enters another result."""
    if page.pairing.result is not None or page.pairing.b is None:
        return None, values
    entries = service_for(request.app).table_links.player_entries(page.event.id, page.round.number)
    entry = entries.get(page.pairing.table)
    if entry is None:
        return None, values
    desk_form = game(page.event.game).desk_form
    if desk_form is not None:
        typed = {k: v for k, v in entry.document.get("form", {}).items() if k in desk_form.fields}
        return entry, {**values, "kind": "sheet", **typed}
    side = {page.pairing.a.name: "A", page.pairing.b.name: "B"}
    return entry, {**values, "kind": "sheet", **sheet_values(entry.document["sheet"], side)}


def _result_context(request: Request, page, arbiter: security.Arbiter, **extra) -> dict[str, Any]:
    plugin = game(page.event.game)
    recorded = _recorded(request, page)
    entry, values = _players_entry(
        request,
        page,
        _offered(document_form_values(page.pairing, plugin.desk_form), recorded)
        if plugin.desk_form is not None
        else form_values(page.pairing, page.steals),
    )
    return {
        "players_entry": entry,
        "recorded": recorded,
        "table_link": _table_link(
            request, plugin, page.event.id, page.round.number, page.pairing.table
        ),
        "event": page.event,
        "round": page.round,
        "pairing": page.pairing,
        "current": page.pairing.result,
        "version": page.version,
        "values": values,
        "csrf": arbiter.csrf,
        "ladder": game(page.event.game).ladder.names,
        "xq_reasons": XIANGQI_REASONS,
        "suggest": page.suggest,
        "steal_rows": range(STEAL_ROWS),
        "sanction_rows": range(SANCTION_ROWS),
        "preview": None,
        "error": "",
        "fault": None,
        **extra,
    }


# Which form's fields a refusal is located in (`ball.web.field_errors`), by template.
FIELD_RULES = {
    "desk/result.html": field_errors.BALL_SHEET_RULES,
    "desk/result_quick.html": field_errors.BALL_SHEET_RULES,
    "desk/result_xiangqi.html": field_errors.XIANGQI_RULES,
}
# The same for the "as you type" check, by the event's game.
def game_field_rules(plugin: Game) -> tuple[Any, ...]:
    """The field rules of the game's result form (a table of four takes no such form)."""
    return tuple(FIELD_RULES.get(form_template(plugin), ())) if plugin.seats == 2 else ()


def _fault(request: Request, template: str, error: str, page) -> field_errors.Fault | None:
    """The refusal `error` as the form `template` shows it: beside its field, in words."""
    if not error:
        return None
    sides = {page.pairing.a.name: "A", page.pairing.b.name: "B"}
    return field_errors.locate(error, FIELD_RULES.get(template, ()), _t(request), sides)


def _quick_context(request: Request, svc: Service, event_id: int) -> dict[str, Any]:
    """What the quick result form asks besides the touchdowns: the PB always when the
    event's tie-breaks read them (named, so the form can say why)."""
    _ = _t(request)
    names = [_(TIEBREAK_LABELS.get(tb, tb)) for tb in svc.desk.pb_tiebreaks(event_id)]
    return {"pb_tiebreaks": ", ".join(names)}


@router.get("/{event_id}/rounds/{number}/tables/{table}")
def result_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    page = _found(svc.desk.table_page, event_id, number, table)
    return render(request, _result_template(page), _result_context(request, page, arbiter))


@router.get("/{event_id}/rounds/{number}/tables/{table}/quick")
def quick_result_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    """The quick result form (issue 36 item 11): who scored in which half, and the PB only
    when they decide or the event's tie-breaks read them. It posts to the same save as
    the full sheet, which stays one link away."""
    page = _found(svc.desk.table_page, event_id, number, table)
    template = game(page.event.game).quick_form
    if template is None:
        raise HTTPException(404, f"a {page.event.game} event has no quick result form")
    context = _result_context(request, page, arbiter, **_quick_context(request, svc, event_id))
    return render(request, template, context)


@router.post("/{event_id}/rounds/{number}/tables/{table}/record")
async def record_game(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Open the board for this table's game: created hot-seat on first use, the same game
    after (Red is player A). Only a Xiangqi table with two players has one."""
    page = _found(svc.desk.table_page, event_id, number, table)
    kind = game(page.event.game).record_kind
    if kind is None or page.pairing.b is None:
        raise HTTPException(404, f"table {table} of round {number} has no game to record")
    _ = _t(request)
    if kind == SIMULATOR_BOARDS:  # the simulator board, both coaches at it (issue 35 §5)
        title = _("%(event)s, round %(n)s, table %(t)s: %(a)s (A) – %(b)s (B)") % {
            "event": page.event.name,
            "n": number,
            "t": table,
            "a": page.pairing.a.name,
            "b": page.pairing.b.name,
        }
        sessions = request.app.state.sessions
        await run_in_threadpool(ball_tables.for_table, sessions, event_id, number, table, title)
        return _see(ball_tables.table_link(sessions, event_id, number, table) or "/")
    title = _("%(event)s, round %(n)s, table %(t)s: %(a)s (Red) – %(b)s (Black)") % {
        "event": page.event.name,
        "n": number,
        "t": table,
        "a": page.pairing.a.name,
        "b": page.pairing.b.name,
    }
    games = xiangqi_store(request)
    games.for_table(event_id, number, table, title)
    # The link hands the board the table's device key in its fragment (never sent to a
    # server): the desk's browser, or the table's tablet it is passed to, writes the game.
    return _see(games.table_link(event_id, number, table) or "/xiangqi")


def form_template(plugin: Game) -> str:
    """The game's result form: its own (Xiangqi's arbiter's document, ...), else BALL's
    half sheet."""
    return "desk/result.html" if plugin.desk_form is None else plugin.desk_form.template


def _result_template(page) -> str:
    return form_template(game(page.event.game))


@router.post("/{event_id}/rounds/{number}/tables/{table}/check", response_class=JSONResponse)
async def check_result(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """The "as you type" check: the decision `decide` gives for the form as it stands; a
    fault also says which field it is about and in the arbiter's words (`field`,
    `message`)."""
    form = await read_form(request)
    plugin = _found(svc.desk.game_of, event_id)
    pairing = _found(svc.desk.table, event_id, number, table)
    assert pairing.b is not None  # `table` answers only tables that take a result
    a, b = pairing.a.name, pairing.b.name
    pb_required = form.get("entry") != QUICK or bool(svc.desk.pb_tiebreaks(event_id))
    checked, _late = ruled_preview(
        svc,
        event_id,
        form,
        {"A": a, "B": b},
        _t(request),
        lambda: preview(request, form, a, b, plugin, pb_required=pb_required),
    )
    if not checked["ok"]:
        rules = game_field_rules(plugin)
        located = field_errors.locate(checked["error"], rules, _t(request), {a: "A", b: "B"})
        checked |= located.as_dict()
    return JSONResponse(checked)


@router.post("/{event_id}/rounds/{number}/tables/{table}")
async def save_result(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Save the form: result, steals and sanctions in one service call (one transaction).
    The same form sent again (a retry after a lost answer) is answered like the first."""
    form = await read_form(request)
    _ = _t(request)
    plugin = _found(svc.desk.game_of, event_id)
    pairing = _found(svc.desk.table, event_id, number, table)
    assert pairing.b is not None
    a, b = pairing.a.name, pairing.b.name
    quick = form.get("entry") == QUICK and plugin.quick_form is not None
    pb_required = not quick or bool(svc.desk.pb_tiebreaks(event_id))
    checked, late = ruled_preview(
        svc,
        event_id,
        form,
        {"A": a, "B": b},
        _,
        lambda: preview(request, form, a, b, plugin, pb_required=pb_required),
    )

    def again(status: int, **extra):
        """The form again, as typed, with why it was not saved beside its field."""
        page = _found(svc.desk.table_page, event_id, number, table)  # what is stored now
        template = (plugin.quick_form or "") if quick else _result_template(page)
        if quick:
            extra |= _quick_context(request, svc, event_id)
        context = _result_context(request, page, arbiter, **extra)
        context["values"] = {k: v for k, v in form.items() if isinstance(v, str)}
        context["fault"] = _fault(request, template, context["error"], page)
        return render(request, template, context, status_code=status)

    if not checked["ok"]:
        return again(400, error=checked["error"])
    if form.get("action") == "check":
        return again(200, preview=checked)
    try:
        loaded = form_int(form, "version", default=-1, low=-1)
        svc.results.record_table_result(
            number,
            table,
            **(
                {"sheet": plugin.desk_form.read(form, a, b)}
                if plugin.desk_form is not None and checked["kind"] == "sheet"
                else {}  # the lateness ruling decides the forfeit (21.1, 21.3)
                if checked["kind"] == "lateness"
                else result_args(checked["kind"], form, a, b, pb_required=pb_required)
            ),
            late=late or None,
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
        return again(400, error=f"reason: {_(N_('A correction needs a reason.'))}", preview=checked)
    except TournamentError as exc:
        return again(400, error=str(exc))
    return _see(f"/desk/{event_id}/rounds/{number}#table-{table}")


# -------------------------------------------------------------------- sanctions


@router.get("/{event_id}/sanctions")
def sanctions_page(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(request, "desk/sanctions.html", _sanctions_context(svc, event_id, arbiter))


def _sanctions_context(svc: Service, event_id: int, arbiter) -> dict[str, Any]:
    event, rows = _found(svc.desk.sanctions_page, event_id)
    return {
        "event": event,
        "rows": rows,
        "ladder": game(event.game).ladder.names,
        "csrf": arbiter.csrf,
        "rounds": len(event.rounds_),
        "values": {},
        "fault": None,
        "error": "",
        "refused_id": None,  # the entrant whose form was refused
    }


@router.post("/{event_id}/sanctions")
async def give_sanction(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}/sanctions"
    entrant_id: int | None = None
    try:
        entrant_id = form_int(form, "entrant", low=1)
        if entrant_id is None:
            raise TournamentError("entrant: choose who is sanctioned")
        svc.arbiter.give_sanction(
            form.get("step", ""),
            form.get("reason", ""),
            entrant_id=entrant_id,
            round_number=form_int(form, "round", low=1),
            table=form_int(form, "table", low=1),
            at=now_of(request),
            event=event_id,
        )
    except TournamentError as exc:  # the page again, this entrant's form as typed
        context = _sanctions_context(svc, event_id, arbiter)
        if any(row.entrant.id == entrant_id for row in context["rows"]):
            context["refused_id"] = entrant_id  # else no row's form: at the page's top
        rules = field_errors.SANCTION_RULES
        return _refused(request, "desk/sanctions.html", context, str(exc), rules, form)
    return _see(back + f"#entrant-{entrant_id}")
