"""The arbiter desk's Mahjong routes (issue 18): seat a session, the session page (tables,
the seating check, standings) and each table's score sheet entered hand by hand — routes
only. Forms are read by `ball.games.mahjong.web.forms`; every change is one call of
`TournamentService` (`ball.games.mahjong.tournament.desk`), which checks the sheet whole with
`ball.games.mahjong.engine` and stores it with the table's version: a change made over another one
is 409 with the sheet as it is stored, nothing overwritten.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from ball.games.forms import form_int
from ball.games.mahjong.engine.rulings import DESK_LOGGED_LABELS, KIND_LABELS, KINDS
from ball.games.mahjong.engine.winds import WINDS
from ball.games.mahjong.web import field_rules
from ball.games.mahjong.web.forms import (
    hand_from_form,
    ruling_from_form,
    time_from_form,
    waiver_from_form,
)
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.service import TournamentService
from ball.tournament.signals import clock_round_label
from ball.tournament.table_result import VersionConflict
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_reader, desk_writer, not_found, now_of, read_form, tournament
from ball.web.core.language import gettext_for
from ball.web.core.templating import N_, render
from ball.web.desk import field_errors
from ball.web.desk.forms import MAX_CSV_BYTES
from ball.web.desk.pages import fail as _fail
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import see as _see

router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 409, 422, 429)},
)
Service = TournamentService

# The words the sheet shows for data (`_(name)`): the ruling form's kinds and the log's rulings.
RULING_WORDS = KIND_LABELS | DESK_LOGGED_LABELS
EDITS = {"hand", "penalty", "time", "waive", "undo"}
# Where a refused change's fault is shown: the rules of its form (`ball.web.desk.field_errors`).
FORM_RULES: dict[str, Sequence[field_errors.Rule]] = {
    "hand": field_rules.HAND_RULES,
    "penalty": field_rules.RULING_RULES,
    "time": field_rules.TIME_RULES,
    "waive": field_rules.WAIVER_RULES,
}
# How a session was seated (`tournament.sessions`: "random (seed 3)", "by ranking", ...), shown
# as `_(method before " (")`, and the event system's name on the desk's event list.
METHOD_WORDS = (N_("random"), N_("template"), N_("by ranking"), N_("balanced"), N_("sessions"))
# The session page's line on how it was seated, in a user's words (issue 36 item 14: it
# said "random · seed 0"); the draw's number is only a detail under it.
SEATED_BY = {
    "random": N_("Seated by a random draw"),
    "template": N_("Seated from a seating template"),
    "by ranking": N_("Seated by the standings so far"),
    "balanced": N_("Seated to spread meetings evenly"),
}


def _t(request: Request) -> Callable[[str], str]:
    return gettext_for(getattr(request.state, "lang", "en"))


def _page_or_404(call: Callable[..., Any], *args: Any) -> Any:
    """A page of a session or table that does not exist (or of an event that is no
    Mahjong event) is a 404."""
    try:
        return _found(call, *args)
    except TournamentError as exc:
        raise not_found(NotFound(str(exc))) from None


def create_event(svc: TournamentService, form: dict[str, Any]) -> int:
    """A Mahjong event from the desk's new-event form (issue 18, `MahjongGame.new_event`):
    its rounds are sessions; hands per session default 16."""
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


@router.post("/{event_id}/sessions")
async def seat_session(
    event_id: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Seat the next session: random (the first), from a template CSV, by ranking or
    balanced (later ones)."""
    form = await read_form(request)
    back = f"/desk/{event_id}"
    method = form.get("method", "")
    template = (form.get("csv") or "").strip() or None
    upload = form["_files"].get("file")
    if upload is not None and getattr(upload, "filename", None):
        raw = await upload.read(MAX_CSV_BYTES + 1)
        if len(raw) > MAX_CSV_BYTES:
            return _fail(request, 400, f"CSV: the file is larger than {MAX_CSV_BYTES} bytes", back)
        try:
            template = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return _fail(request, 400, "CSV: the file is not UTF-8 text", back)
    try:
        seated = _found(
            svc.sessions.seat_session,
            method=method if method in ("ranking", "balanced") and template is None else None,
            template=template if method == "template" or template else None,
            event=event_id,
        )
    except TournamentError as exc:
        return _fail(request, 400, str(exc), back)
    return _see(f"/desk/{event_id}/sessions/{seated['session']}")


@router.get("/{event_id}/sessions/{number}")
def session_page(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    page = _page_or_404(svc.mahjong_desk.mahjong_session, event_id, number)
    seed = re.search(r"\(seed (\d+)\)", page["method"])
    page["seed"] = int(seed.group(1)) if seed else None
    event = _found(svc.desk.event_page, event_id)
    return render(
        request,
        "desk/mahjong_session.html",
        {
            "event": event,
            "page": page,
            "csrf": arbiter.csrf,
            "winds": WINDS,
            "seated_by": SEATED_BY,
            # the seats' entries by their links (`ball.games.mahjong.web.entry`)
            "entries": svc.seat_links.seat_entries(event_id, number),
            "accepts_confirmed": svc.table_links.accepts_confirmed(event_id),
        },
    )


def _sheet_context(
    request: Request, svc: Service, event_id: int, number: int, table: int, csrf: str, **extra
) -> dict[str, Any]:
    sheet = _page_or_404(svc.mahjong_desk.mahjong_table, event_id, number, table)
    event = _found(svc.desk.event_page, event_id)
    return {
        "event": event,
        "clock_round": clock_round_label(event.name, number),
        "sheet": sheet,
        "csrf": csrf,
        "winds": WINDS,
        "rulings": KINDS,
        "words": RULING_WORDS,
        "error": "",
        "values": {},
        "fault": None,
        "typed": {},  # a refused ruling, time penalty or waiver as typed
        "refused": "",  # which form was refused: hand, penalty, time or waive
        **extra,
    }


@router.get("/{event_id}/sessions/{number}/tables/{table}")
def sheet_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    context = _sheet_context(request, svc, event_id, number, table, arbiter.csrf)
    return render(request, "desk/mahjong_sheet.html", context)


def _payload(what: str, form: dict[str, Any], now: float) -> dict[str, Any]:
    if what == "hand":
        return hand_from_form(form)
    if what == "penalty":
        return ruling_from_form(form, now)
    if what == "time":
        return time_from_form(form, now)
    if what == "waive":
        return waiver_from_form(form)
    return {}


@router.post("/{event_id}/sessions/{number}/tables/{table}/from-clock")
async def penalties_from_clock(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Take the time penalties the table's bound Mahjong clock charged onto the sheet."""
    form = await read_form(request)
    _page_or_404(svc.mahjong_desk.mahjong_table, event_id, number, table)
    try:
        version = form_int(form, "version", default=-1, low=-1)
        svc.mahjong_desk.mahjong_clock_penalties(
            event_id,
            number,
            table,
            expected_version=-1 if version is None else version,
            now=now_of(request),
        )
    except VersionConflict:
        return _again(request, svc, event_id, number, table, arbiter, 409, form)
    except TournamentError as exc:
        return _again(request, svc, event_id, number, table, arbiter, 400, form, str(exc))
    return _see(f"/desk/{event_id}/sessions/{number}/tables/{table}#log")


@router.post("/{event_id}/sessions/{number}/tables/{table}/close")
async def close_table(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Close the table's sheet (table points, standings); over a closed one, a correction
    with its reason."""
    form = await read_form(request)
    _page_or_404(svc.mahjong_desk.mahjong_table, event_id, number, table)
    try:
        svc.mahjong_desk.close_mahjong_table(
            event_id,
            number,
            table,
            expected_version=form_int(form, "version", default=-1, low=-1) or 0,  # -1: none
            reason=(form.get("reason") or "")[:10_000],
        )
    except VersionConflict:
        return _again(request, svc, event_id, number, table, arbiter, 409, form)
    except TournamentError as exc:
        return _again(request, svc, event_id, number, table, arbiter, 400, form, str(exc))
    return _see(f"/desk/{event_id}/sessions/{number}#table-{table}")


@router.post("/{event_id}/sessions/{number}/tables/{table}/{what}")
async def edit_sheet(
    event_id: int,
    number: int,
    table: int,
    what: str,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """One hand, ruling, time penalty, waiver or take-back, saved at once."""
    if what not in EDITS:
        raise not_found(NotFound(f"no such change: {what!r}"))
    form = await read_form(request)
    _page_or_404(svc.mahjong_desk.mahjong_table, event_id, number, table)
    try:
        version = form_int(form, "version", default=-1, low=-1)
        svc.mahjong_desk.edit_mahjong_table(
            event_id,
            number,
            table,
            what,
            _payload(what, form, now_of(request)),
            expected_version=-1 if version is None else version,
        )
    except VersionConflict:
        return _again(request, svc, event_id, number, table, arbiter, 409, form)
    except TournamentError as exc:
        rules = FORM_RULES.get(what, ())
        return _again(
            request, svc, event_id, number, table, arbiter, 400, form, str(exc), rules, what
        )
    return _see(f"/desk/{event_id}/sessions/{number}/tables/{table}#sheet")


def _again(
    request: Request,
    svc: Service,
    event_id: int,
    number: int,
    table: int,
    arbiter: security.Arbiter,
    status: int,
    form: dict[str, Any],
    error: str = "",
    rules: Sequence[field_errors.Rule] = (),
    what: str = "hand",
):
    """The sheet as stored now, the form as sent, and why it was not saved: beside the
    field it is about of the form `what` (hand, penalty, time, waive; `rules`), else at
    the top. Only the form `what` gets the typed values back."""
    if status == 409:
        error = _t(request)(
            N_(
                "Another change was saved to this sheet after you opened it. Nothing was "
                "overwritten: check the sheet shown and enter it again if needed."
            )
        )
    values = {k: v for k, v in form.items() if isinstance(v, str) and k != "csrf"}
    fault = field_errors.locate(error, rules, _t(request)) if error else None
    hand_values = values if what == "hand" else {}  # the hand form's fields as typed
    context = _sheet_context(
        request, svc, event_id, number, table, arbiter.csrf, error=error, values=hand_values
    )
    context["typed"] = values  # the refused form's fields as typed (`refused`)
    context["fault"] = fault
    context["refused"] = what
    return render(request, "desk/mahjong_sheet.html", context, status_code=status)
