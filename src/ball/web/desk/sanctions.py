"""The desk's sanctions page (`/desk/{id}/sanctions`): each entrant's sanctions on the
event's ladder, and the form that gives one."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request

from ball.games import game
from ball.games.forms import form_int
from ball.tournament.errors import TournamentError
from ball.web.core import security
from ball.web.core.deps import desk_reader, desk_writer, now_of, read_form, tournament
from ball.web.core.templating import render
from ball.web.desk import field_errors
from ball.web.desk.pages import Service, desk_router
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import refused as _refused
from ball.web.desk.pages import see as _see

router = desk_router()


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
