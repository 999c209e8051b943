"""The arbiter desk's front page (`/desk`): the events of this database and the form
that creates one (its PIN, its game, its system and issue 17's format options)."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from ball.games import GAMES, load
from ball.games.forms import form_int
from ball.tournament.errors import TournamentError
from ball.tournament.service import SYSTEMS
from ball.web.core import limits, security
from ball.web.core.deps import now_of, read_form, tournament
from ball.web.core.templating import N_, render
from ball.web.desk import field_errors
from ball.web.desk.access import show_recovery_code
from ball.web.desk.groups import group_options
from ball.web.desk.pages import Service, desk_router
from ball.web.desk.pages import refused as _refused
from ball.web.desk.pages import see as _see

router = desk_router()

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
        chosen = GAMES.get(form.get("game", ""))
        if chosen is not None and chosen.new_event is not None:  # made its own way
            event_id = load(chosen.new_event)(svc, form)  # (Mahjong's sessions, no system)
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
    show_recovery_code(response, event_id, code)
    return response
