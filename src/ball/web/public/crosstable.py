"""The public crosstable: `/public/{id}/crosstable`, every entrant's games in rank order.

The chess reader's table: one line per entrant in the order of the standings, and in each
round's cell the opponent's rank (a link to that line), the side the entrant had (named
first or second at the table) and how the game ended. It counts the rounds the standings
count (`standings.after_round`) and pages like them. Tables of four (Mahjong) have no
opponent to name: their tables page is their crosstable.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ball.games import pairs_players
from ball.tournament.outcomes import CrossCell, Crosstable
from ball.tournament.service import TournamentService
from ball.web.api.openapi import json_errors
from ball.web.core.deps import service_for
from ball.web.core.templating import N_, render
from ball.web.page_cache import cached_page, shared
from ball.web.public.display import ROWS_PER_PAGE, event_head, half_points, page_context, page_count

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(400, 404, 422)
)

# How a cell says the result (TRF codes, `ball.tournament.crosstable`): message ids.
RESULT_WORDS = {
    "1": N_("won"),
    "=": N_("drawn"),
    "0": N_("lost"),
    "+": N_("won by forfeit"),
    "-": N_("lost by forfeit"),
    "U": N_("bye (pairing-allocated)"),
    "H": N_("half-point bye"),
    "F": N_("full-point bye"),
    "Z": N_("zero-point bye"),
    " ": N_("not paired"),
}
# The short marks inside the cell; the words above are its title.
RESULT_MARKS = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−"}


@router.get("/{event_id}/crosstable")
async def public_crosstable(
    event_id: int,
    request: Request,
    refresh: int | None = Query(None),
    page: int | None = Query(None, ge=1, le=10_000),
):
    """Every entrant's games after the rounds the standings count, in rank order."""
    svc = service_for(request.app)
    return await cached_page(
        request, svc, event_id, lambda: _crosstable(event_id, request, refresh, page, svc)
    )


def _crosstable(
    event_id: int,
    request: Request,
    refresh: int | None,
    page: int | None,
    svc: TournamentService,
) -> HTMLResponse:
    event = event_head(svc, event_id, request)
    if not pairs_players(event.game):
        raise HTTPException(404, f"event {event_id}: tables of four have no crosstable")
    table = _table(svc, event_id, request)
    pages = page_count(len(table.rows), ROWS_PER_PAGE)
    page = min(page or 1, pages)
    shown = table.rows[(page - 1) * ROWS_PER_PAGE : page * ROWS_PER_PAGE]
    query = f"&refresh={refresh}" if refresh is not None else ""
    context = page_context(request, event, "crosstable", refresh)
    context.update(
        after=table.rounds,
        round_numbers=list(range(1, table.rounds + 1)),
        rows=[
            {
                "rank": r.rank,
                "name": r.name,
                "points": half_points(r.points),
                "cells": [_cell(c, ROWS_PER_PAGE, event_id, query) for c in r.rounds],
            }
            for r in shown
        ],
        page=page,
        pages=pages,
        page_url=f"/public/{event_id}/crosstable?page={{n}}" + query,
        find="",
    )
    return render(request, "public/crosstable.html", context)


def _table(svc: TournamentService, event_id: int, request: Request) -> Crosstable:
    """The crosstable, read once per event revision for every page of it."""
    return shared(request, event_id, "crosstable", lambda: svc.ranking.cross_table(event=event_id))


def _cell(c: CrossCell, per_page: int, event_id: int, query: str) -> dict:
    """A round's cell: the opponent's rank with a link to their line (on its page), the
    side letter, the result mark, and the words for its title."""
    link = None
    if c.opponent is not None:
        on_page = (c.opponent - 1) // per_page + 1
        link = f"/public/{event_id}/crosstable?page={on_page}{query}#rank-{c.opponent}"
    return {
        "opponent": c.opponent,
        "link": link,
        "side": {"w": "A", "b": "B"}.get(c.colour, ""),
        "mark": RESULT_MARKS.get(c.code, half_points(c.points)),
        "words": RESULT_WORDS.get(c.code, RESULT_WORDS[" "]),
    }
