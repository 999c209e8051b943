"""The public display's pages for issue 17's formats: a knockout's bracket (rounds as
columns, ties with their game scores, the bye holder, each round's drawing of lots with
its seed) and a team event's standings with every team match card, board by board
(match points 2/1/0 and game points, 14.2; colours by board, 13.2/13.3).

Read-only and without a PIN, in the style of `ball.web.public` (same refresh parameter,
same layout, plain GET routes), so the public pages' caching wraps them alike. The data
come from `TournamentService.bracket` and `teams_page` (`ball.tournament.format_pages`).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from ball.tournament.format_pages import published_bracket
from ball.tournament.service import TournamentService
from ball.web.deps import tournament
from ball.web.desk_formats import PHASE_WORDS, TIE_WORDS
from ball.web.openapi import json_errors
from ball.web.public import refresh_seconds
from ball.web.templating import render

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(404, 422)
)


def _context(event, view: str, refresh: int | None, formats) -> dict:
    return {
        "event": event,
        "view": view,
        "refresh": refresh_seconds(refresh),
        "rounds": [r.number for r in event.rounds_],
        "formats": formats,
        "tie_words": TIE_WORDS,
        "phase_words": PHASE_WORDS,
    }


@router.get("/{event_id}/bracket")
def public_bracket(
    event_id: int,
    request: Request,
    refresh: int | None = Query(None),
    svc: TournamentService = Depends(tournament),
):
    bracket = published_bracket(svc.formats.bracket(event_id))
    formats = svc.formats.event_formats(event_id)
    context = _context(bracket.event, "bracket", refresh, formats)
    context["bracket"] = bracket
    return render(request, "public/bracket.html", context)


@router.get("/{event_id}/teams")
def public_teams(
    event_id: int,
    request: Request,
    refresh: int | None = Query(None),
    svc: TournamentService = Depends(tournament),
):
    page = svc.formats.teams_page(event_id)
    formats = svc.formats.event_formats(event_id)
    context = _context(page.event, "teams", refresh, formats)
    context["page"] = page
    return render(request, "public/teams.html", context)
