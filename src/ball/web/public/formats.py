"""The public display's pages for issue 17's formats: a knockout's bracket (rounds as
columns, ties with their game scores, the bye holder, each round's drawing of lots with
its seed) and a team event's standings with every team match card, board by board
(match points 2/1/0 and game points, 14.2; colours by board, 13.2/13.3).

Read-only and without a PIN, in the style of `ball.web.public.display` (same refresh parameter,
same layout, plain GET routes), so the public pages' caching wraps them alike. The data
come from `TournamentService.bracket` and `teams_page` (`ball.tournament.format_pages`).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from ball.tournament.format_pages import published_bracket
from ball.tournament.service import TournamentService
from ball.web.api.openapi import json_errors
from ball.web.core.deps import tournament
from ball.web.core.templating import N_, render
from ball.web.public.display import refresh_seconds

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(404, 422)
)

# How a tie was decided (`minimatch.TieState.how`) and its phases, as the pages (the
# desk's and the public ones) say them.
TIE_WORDS = {
    "games": N_("by its games"),
    "extra games": N_("by extra games"),
    "lots": N_("by drawing of lots"),
    "armageddon": N_("by an Armageddon game"),
    "double forfeit": N_("double forfeit: nobody goes through"),
    "game": N_("by its game"),
    "bye": N_("bye"),
}
PHASE_WORDS = {
    "games": N_("mini-match in play"),  # the tie page: its regular games are under way
    "extra": N_("extra games"),
    "armageddon": N_("Armageddon game"),
    "lots": N_("a drawing of lots is due"),
    "decided": N_("decided"),
}


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
