"""The desk's event page (`/desk/{id}`): its entrants, added one by one or from a CSV,
and withdrawn; a refused form comes back as typed, its fault beside its field."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse

from ball.games.forms import form_int
from ball.tournament.errors import TournamentError
from ball.web.core import security
from ball.web.core.deps import desk_reader, desk_writer, read_form, tournament
from ball.web.core.templating import render
from ball.web.desk import field_errors
from ball.web.desk.access import shown_recovery_code
from ball.web.desk.forms import MAX_CSV_BYTES, parse_entrants_csv
from ball.web.desk.groups import desk_group_tables
from ball.web.desk.pages import Service, desk_router
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import refused as _refused
from ball.web.desk.pages import see as _see

router = desk_router()


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
        "recovery_code": shown_recovery_code(request, event_id),
        "values": {},
        "fault": None,
        "error": "",
        "refused": "",  # which of the entrant forms was refused: "add" or "import"
        **desk_group_tables(svc, event),
    }


def refused_entrants(
    request: Request, svc: Service, event_id: int, arbiter, which: str, error: str, form
) -> HTMLResponse:
    """The event page again with the refused form as typed, its fault beside the field
    (`which`: the "add" or the "import" entrant form) or at the top of the form ("pair")."""
    context = _event_context(request, svc, event_id, arbiter) | {"refused": which}
    rules = field_errors.ENTRANT_RULES
    return _refused(request, "desk/event.html", context, error, rules, form)


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
        return refused_entrants(request, svc, event_id, arbiter, "add", str(exc), form)
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
            return refused_entrants(request, svc, event_id, arbiter, "import", too_big, form)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            not_text = "CSV: the file is not UTF-8 text"
            return refused_entrants(request, svc, event_id, arbiter, "import", not_text, form)
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
        return refused_entrants(request, svc, event_id, arbiter, "import", str(exc), form)
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


