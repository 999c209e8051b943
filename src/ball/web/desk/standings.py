"""The arbiter desk's standings page (`/desk/{id}/standings`) — a route only, like
the desk's other pages: one `TournamentService.standings` call, the same ranking as the CLI, the
public page, the printed standings and the TRF (`standings.after_round`: after the last
round with every result in), the whole table on one page with the round being played named.

Access is the desk's (`desk_reader`: PIN session).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from ball.games import game
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_reader, tournament
from ball.web.core.templating import render
from ball.web.desk.pages import fail, found
from ball.web.public.display import standing_row, tiebreak_columns

# documented as the desk's other pages: 303 to the PIN page, the errors as pages
router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 422, 429)},
)


@router.get("/{event_id}/standings")
def desk_standings(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: TournamentService = Depends(tournament),
):
    event = found(svc.desk.event_head, event_id)
    try:
        table = svc.ranking.standings(event=event_id)
    except TournamentError as exc:  # a Mahjong event ranks on its session pages
        return fail(request, 400, str(exc), f"/desk/{event_id}")
    return render(
        request,
        "desk/standings.html",
        {
            "event": event,
            "csrf": arbiter.csrf,
            "rows": [standing_row(s, table.tiebreaks) for s in table.standings],
            "tiebreaks": tiebreak_columns(table.tiebreaks, game(event.game)),
            "after": table.rounds,
            "in_progress": table.in_progress,
            "rules": table.rules,
        },
    )
