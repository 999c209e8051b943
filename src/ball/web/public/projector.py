"""The projector view of the public standings (issue 36 item 13): `/public/{id}/projector`.

A full screen for the venue's projector: no site navigation, type sized from the screen's
height so that `rows` rows (default `PROJECTOR_ROWS`) always fit a landscape screen,
1920x1080 and 1366x768 alike (`static/css/projector.css`), and paging through the
standings by itself: each refresh shows the next page, and after the last the first again.
The standings page of phones and laptops (`ball.web.public.display`) stays on its reader's page.
Every game has it: a tie-break chain (`ranking`) or the game's own rows (`Game.public_standings`).
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ball.games import game, load
from ball.tournament.service import TournamentService
from ball.web.api.openapi import json_errors
from ball.web.core.deps import service_for
from ball.web.core.templating import N_, render
from ball.web.page_cache import cached_page
from ball.web.public.display import (
    event_head,
    page_count,
    ranking,
    refresh_seconds,
    standing_row,
    tiebreak_columns,
)

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(404, 422)
)

PROJECTOR_ROWS = 20  # rows a screen shows unless `?rows=` says otherwise
ROWS_LIMITS = (5, 60)
PROJECTOR_SECONDS = 15  # each page's time on the screen unless `?refresh=` says otherwise

# Mahjong's columns after rank, name and table points: (heading, title, cell class), the
# headings message ids. The tie-break games' are the event's chain, in short.


@router.get("/{event_id}/projector")
async def public_projector(
    event_id: int,
    request: Request,
    page: int = Query(1, ge=1, le=10_000),
    rows: int = Query(PROJECTOR_ROWS, ge=ROWS_LIMITS[0], le=ROWS_LIMITS[1]),
    refresh: int | None = Query(None),
):
    """The standings on a projector, `rows` to a screen, the next page every `refresh`
    seconds (default `PROJECTOR_SECONDS`; 0 stays on the page)."""
    svc = service_for(request.app)
    return await cached_page(
        request, svc, event_id, lambda: _projector(event_id, request, page, rows, refresh, svc)
    )


def _projector(
    event_id: int,
    request: Request,
    page: int,
    rows: int,
    refresh: int | None,
    svc: TournamentService,
) -> HTMLResponse:
    event = event_head(svc, event_id, request)
    # two players a table: points and the tie-break chain; else the game's own rows
    own = game(event.game).public_standings
    if own is None:
        table = _chain_table(svc, event_id, event.game, request)
    else:
        table = load(own).projector_table(svc, event_id)
    pages = page_count(len(table["rows"]), rows)
    page = min(page, pages)
    seconds = PROJECTOR_SECONDS if refresh is None else refresh_seconds(refresh)
    query = f"&rows={rows}" + (f"&refresh={refresh}" if refresh is not None else "")
    context = {
        "event": event,
        "view": "projector",
        "refresh": seconds,
        "page": page,
        "pages": pages,
        "rows_per_screen": rows,
        "next_page": f"/public/{event_id}/projector?page={page % pages + 1}{query}"
        if pages > 1
        else "",
        **table,
        "rows": table["rows"][(page - 1) * rows : page * rows],
    }
    return render(request, "public/projector.html", context)


def _chain_table(svc: TournamentService, event_id: int, game_name: str, request: Request) -> dict:
    ranked = ranking(svc, event_id, request)
    columns = tiebreak_columns(ranked.tiebreaks, game(game_name))
    return {
        "unit": "round",
        "after": ranked.rounds,
        "points_head": N_("Points"),
        "extra_heads": [(short, label, "num tb") for _, label, _, short in columns],
        "rows": [
            (r["rank"], r["name"], r["points"], [(v, "num tb") for v in r["tiebreaks"]])
            for r in (standing_row(s, ranked.tiebreaks) for s in ranked.standings)
        ],
        "legend": [(short, label) for _, label, _, short in columns],
    }


