"""The public display of a Mahjong event (issue 18): seating per session with "find my
table" by name, standings by table points then score (with each session's figures), team
standings, and per-table results (seats with winds, session scores, table points, rulings).

Read-only and without a PIN, like `ball.web.public.display` (whose standings route hands a Mahjong
event to `standings_page`): large type, `?refresh=N`, one column on a phone. Every page is
kept in the page cache (`ball.web.page_cache`) under the event's revision token, which
every Mahjong write renews (seating, a sheet, a correction, a table closed at the desk).
Everything is read through `ball.games.mahjong.tournament.views.mahjong_board` (frozen data, no
session in a route). "Find my table" is a GET query (`?find=`), so it works without
script; the match ignores case and accents.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from ball.games.mahjong.engine.rulings import LOGGED_LABELS
from ball.games.mahjong.tournament.views import MahjongBoard, mahjong_board, points_text
from ball.tournament.service import TournamentService
from ball.tournament.views import EventView
from ball.web.api.openapi import json_errors
from ball.web.core.deps import service_for
from ball.web.core.templating import N_, render
from ball.web.page_cache import cached_page

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(404, 422)
)

GAME = "mahjong"
DEFAULT_REFRESH = 30
MAX_QUERY = 80  # a name search longer than any name is cut, not refused

# The winds of a seat at the start of the session (message ids).
WIND_NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}



def _refresh(value: int | None) -> int:
    if value is None:
        return DEFAULT_REFRESH
    return 0 if value <= 0 else max(5, min(value, 600))


def _board(svc: TournamentService, event_id: int) -> tuple[EventView, MahjongBoard]:
    event = svc.desk.event_page(event_id)
    if event.game != GAME:
        raise HTTPException(404, f"event {event_id} is not a Mahjong event")
    return event, mahjong_board(svc, event_id)


# The projector's columns after the table points: (short head, legend, cell class).
PROJECTOR_COLUMNS = [(N_("Team"), N_("Team"), "team"), (N_("Score"), N_("Score"), "num score")]


def projector_table(svc: TournamentService, event_id: int) -> dict[str, Any]:
    """The projector's rows of a Mahjong event (`ball.web.public.projector`): table points,
    then team and score, after the sessions entered."""
    board = _board(svc, event_id)[1]
    return {
        "unit": "session",
        "after": board.sessions_done,
        "points_head": N_("Table points"),
        "extra_heads": PROJECTOR_COLUMNS,
        "rows": [
            (
                r.rank,
                r.name,
                points_text(r.table_points),
                [(r.team, "team"), (r.score, "num score")],
            )
            for r in board.standings
        ],
        "legend": [],
    }


def _context(event: EventView, board: MahjongBoard, view: str, refresh: int | None) -> dict:
    return {
        "event": event,
        "board": board,
        "view": view,
        "refresh": _refresh(refresh),
        "winds": WIND_NAMES,
        "rulings": LOGGED_LABELS,
        "tp": points_text,
    }


def _session(board: MahjongBoard, number: int | None):
    chosen = board.session(number)
    if number is not None and chosen is None:
        raise HTTPException(404, f"session {number} is not seated")
    return chosen


def standings_page(
    request: Request, event: EventView, refresh: int | None, find: str, svc: TournamentService
) -> HTMLResponse:
    """`/public/{id}/standings` of a Mahjong event (called by `ball.web.public.display`), with
    "find my name" (`find`, already cut to `MAX_QUERY`) marking the rows found."""
    _, board = _board(svc, event.id)
    context = _context(event, board, "standings", refresh)
    hits = {player.name for player in board.find(find)}
    context.update(find=find, hits=hits, refresh=0 if find else context["refresh"])
    return render(request, "public/mahjong_standings.html", context)


@router.get("/{event_id}/seating")
async def public_seating(
    event_id: int,
    request: Request,
    session: int | None = Query(None, ge=1, le=1000),
    find: str = Query("", max_length=1000),
    refresh: int | None = Query(None),
):
    """A session's seating (default: the latest) and "find my table" (`?find=NAME`)."""
    svc = service_for(request.app)  # no dependency: a sync one would wait for a thread
    return await cached_page(
        request, svc, event_id, lambda: _seating(event_id, request, session, find, refresh, svc)
    )


def _seating(
    event_id: int,
    request: Request,
    session: int | None,
    find: str,
    refresh: int | None,
    svc: TournamentService,
) -> HTMLResponse:
    event, board = _board(svc, event_id)
    query = find.strip()[:MAX_QUERY]
    context = _context(event, board, "seating", refresh)
    # a search is read on a phone: no refresh pulling the answer away
    context.update(
        session=_session(board, session),
        find=query,
        found=board.find(query),
        refresh=0 if query else context["refresh"],
    )
    return render(request, "public/mahjong_seating.html", context)


@router.get("/{event_id}/tables")
async def public_tables(
    event_id: int,
    request: Request,
    session: int | None = Query(None, ge=1, le=1000),
    refresh: int | None = Query(None),
):
    """Per-table results of a session (default: the latest): seats, scores, rulings."""
    svc = service_for(request.app)
    return await cached_page(
        request, svc, event_id, lambda: _tables(event_id, request, session, refresh, svc)
    )


def _tables(
    event_id: int,
    request: Request,
    session: int | None,
    refresh: int | None,
    svc: TournamentService,
) -> HTMLResponse:
    event, board = _board(svc, event_id)
    context = _context(event, board, "tables", refresh)
    context.update(session=_session(board, session))
    return render(request, "public/mahjong_tables.html", context)
