"""The public display: read-only pairings, results and standings for a projector or a phone.

No PIN: anyone on the venue's network may look. Pages refresh themselves (`?refresh=N`
seconds, default 30, 0 = never), use large type that scales with the screen, and scroll
sideways on a phone. Standings come from `TournamentService.standings` with every tie-break
of the event's chain as a column.
"""

from __future__ import annotations

import json
import socket

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import select

from ball.storage import ids
from ball.tournament import signals
from ball.tournament.errors import TournamentError
from ball.tournament.games import game
from ball.tournament.models import Event, Round
from ball.tournament.standings import known_tiebreaks
from ball.web.desk import N_, decision_of, gap_of, hms, now_of, service_for
from ball.web.openapi import TEMPORARY_REDIRECT, json_errors
from ball.web.templating import render

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(404, 422)
)

DEFAULT_REFRESH = 30

# Column headings of the tie-breaks (message ids; unknown names are shown as they are).
TIEBREAK_LABELS = {
    "direct-encounter": N_("Direct encounter"),
    "buchholz": N_("Buchholz"),
    "buchholz-cut1": N_("Buchholz cut 1"),
    "buchholz-median": N_("Median Buchholz"),
    "sonneborn-berger": N_("Sonneborn-Berger"),
    "wins": N_("Wins"),
    "won": N_("Games won"),
    "progressive": N_("Progressive score"),
    "koya": N_("Koya"),
    "td-difference": N_("TD difference"),
    "total-sd": N_("Total SD"),
    "pbatk-per-td": N_("PBATK per TD"),
}


def lan_urls(host: str, port: int) -> list[str]:
    """The URLs to give players when the server listens beyond loopback."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return []
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}/public"]
    addresses: list[str] = []
    try:
        # The address the machine would use on its network (no packet is sent for UDP).
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            addresses.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127.") and address not in addresses:
                addresses.append(address)
    except OSError:
        pass
    return [f"http://{a}:{port}/public" for a in addresses]


def _refresh(value: int | None) -> int:
    if value is None:
        return DEFAULT_REFRESH
    return 0 if value <= 0 else max(5, min(value, 600))


def _event(session, event_id: int) -> Event:
    event = session.get(Event, event_id) if ids.in_range(event_id) else None
    if event is None:
        raise HTTPException(404, f"no event {event_id}")
    return event


def _figure(value: float | None) -> str:
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def _points(value: float) -> str:
    whole = int(value)
    return (str(whole) if whole else "") + "½" if value - whole == 0.5 else _figure(value)


def _context(request: Request, event: Event, view: str, refresh: int | None) -> dict:
    return {
        "event": event,
        "view": view,
        "refresh": _refresh(refresh),
        "rounds": [r.number for r in event.rounds_],
    }


@router.get("")
def public_home(request: Request, refresh: int | None = Query(None)):
    with request.app.state.sessions() as session:
        events = list(session.scalars(select(Event).order_by(Event.id.desc())))
        return render(
            request, "public/index.html", {"events": events, "refresh": _refresh(refresh)}
        )


@router.get(
    "/{event_id}",
    status_code=307,
    response_class=RedirectResponse,
    responses=TEMPORARY_REDIRECT,
)
def public_event(event_id: int):
    return RedirectResponse(f"/public/{event_id}/standings", status_code=307)


@router.get("/{event_id}/standings")
def public_standings(event_id: int, request: Request, refresh: int | None = Query(None)):
    with request.app.state.sessions() as session:
        event = _event(session, event_id)
        context = _context(request, event, "standings", refresh)
        descriptions = known_tiebreaks(game(event.game))
        empty = not event.entrants
    try:
        if empty:  # nothing to rank yet (the service's ranking expects entrants)
            table = {"tiebreaks": json.loads(event.tiebreaks), "standings": [], "rounds": 0}
            table["rules"] = ""
        else:
            table = service_for(request.app).standings(event=event_id)
    except TournamentError as exc:
        raise HTTPException(400, str(exc)) from None
    rows = [
        {
            "rank": s["rank"],
            "name": s["name"],
            "number": s["number"],
            "points": _points(s["points"]),
            "tiebreaks": [_figure(s["tiebreaks"].get(tb)) for tb in table["tiebreaks"]],
        }
        for s in table["standings"]
    ]
    context.update(
        rows=rows,
        tiebreaks=[
            (tb, TIEBREAK_LABELS.get(tb, tb), descriptions.get(tb, "")) for tb in table["tiebreaks"]
        ],
        after=table["rounds"],
        rules=table["rules"],
    )
    return render(request, "public/standings.html", context)


def _round(session, event: Event, number: int | None) -> Round | None:
    if number is None:
        return event.rounds_[-1] if event.rounds_ else None
    rnd = (
        session.scalar(select(Round).where(Round.event_id == event.id, Round.number == number))
        if ids.in_range(number)
        else None
    )
    if rnd is None:
        raise HTTPException(404, f"round {number} is not paired")
    return rnd


@router.get("/{event_id}/pairings")
def public_pairings(
    event_id: int, request: Request, round: int | None = Query(None), refresh: int | None = None
):  # noqa: A002 - the query parameter's public name
    with request.app.state.sessions() as session:
        event = _event(session, event_id)
        rnd = _round(session, event, round)
        context = _context(request, event, "pairings", refresh)
        tables = [{"p": p, "result": decision_of(p)} for p in rnd.pairings] if rnd else []
        control = (
            signals.round_control(session, event_id, rnd.number, now_of(request), gap_of(request))
            if rnd
            else None
        )
        context.update(round=rnd, tables=tables, control=control, hms=hms)
        return render(request, "public/pairings.html", context)


@router.get("/{event_id}/results")
def public_results(event_id: int, request: Request, refresh: int | None = Query(None)):
    with request.app.state.sessions() as session:
        event = _event(session, event_id)
        context = _context(request, event, "results", refresh)
        context["by_round"] = [
            (r, [{"p": p, "result": decision_of(p)} for p in r.pairings])
            for r in reversed(event.rounds_)
        ]
        return render(request, "public/results.html", context)
