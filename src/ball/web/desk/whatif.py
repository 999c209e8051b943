"""The arbiter desk's what-if preview (`/desk/{id}/rounds/{n}/tables/{t}/what-if`): the
standings as if table `t` of round `n` had the result chosen (1-0, ½-½, 0-1, a forfeit),
beside the standings as stored — for an appeal, or before a result is entered. A route
only: one `TournamentService.what_if_standings` call (the same computation as `ball
standings --what-if`), which writes nothing; the page is a GET with no form to submit.

Access is the desk's (`desk_reader`: PIN session).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from ball.games import game
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.tournament.whatif import Hypothesis
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_reader, tournament
from ball.web.core.templating import render
from ball.web.desk.pages import fail, found
from ball.web.public.display import standing_row, tiebreak_columns

router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 422, 429)},
)

# The results the page offers, in the order shown (`whatif.SHORT` keys).
OFFERED = ("1-0", "1/2", "0-1", "+-", "-+")


@router.get("/{event_id}/rounds/{number}/tables/{table}/what-if")
def desk_what_if(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    # any text is the right shape; one not offered is refused below with the choices
    result: str = Query("1-0", description="1-0, 1/2, 0-1, +- or -+"),
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: TournamentService = Depends(tournament),
):
    event = found(svc.desk.event_head, event_id)
    back = f"/desk/{event_id}/rounds/{number}"
    if result not in OFFERED:
        return fail(request, 400, f"result: give one of {', '.join(OFFERED)}", back)
    try:
        now = svc.ranking.standings(event=event_id)
        table_if, assumed = svc.what_if.what_if_standings(
            [Hypothesis(number, table, short=result)], event=event_id
        )
    except TournamentError as exc:  # no such round or table, a bye, a Mahjong event
        return fail(request, 400, str(exc), back)
    rank_now = {s.name: s.rank for s in now.standings}
    rows = []
    for s in table_if.standings:
        row = standing_row(s, table_if.tiebreaks)
        row["now"] = rank_now.get(s.name)
        rows.append(row)
    return render(
        request,
        "desk/whatif.html",
        {
            "event": event,
            "csrf": arbiter.csrf,
            "assumed": assumed[0],
            "result": result,
            "offered": OFFERED,
            "number": number,
            "table": table,
            "rows": rows,
            "tiebreaks": tiebreak_columns(table_if.tiebreaks, game(event.game)),
            "after": table_if.rounds,
            "after_now": now.rounds,
            "in_progress": table_if.in_progress,
        },
    )
