"""Live boards on the public pages (issue 35 §5), and the desk's switch that publishes them.

Routes only; the service is `ball.web.public.live_boards`, the event streams
`ball.web.public.live_stream`.

- `POST /desk/{id}/rounds/{n}/broadcast` (desk session and CSRF token, as every desk form):
  `publish=1` makes the round's recorded games public, `publish=0` hides them again.
- `/public/{id}/live/{n}`: the broadcast page, the round's tables with a link to each
  recorded game (refreshes itself as the other public pages do, so a game the desk starts
  recording appears).
- `/public/{id}/live/{n}/{table}`: the live board (board and moves), which follows
  `.../stream`, a `text/event-stream` of the game's snapshots, and offers `.../record`,
  the game's record (Xiangqi PGN, BALL `.bgn`) as a download.

Everything public answers 404 until the desk has published the round.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from ball.games import game, pairs_players
from ball.tournament.service import TournamentService
from ball.tournament.views import PairingView, RoundView
from ball.web.api.openapi import SEE_OTHER, json_errors, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_writer, read_form, tournament
from ball.web.core.templating import render
from ball.web.public.display import refresh_seconds
from ball.web.public.live_boards import GameRef, LiveBoards, NotBroadcast
from ball.web.public.live_stream import STREAM_SECONDS, hub_of

router = APIRouter(default_response_class=HTMLResponse)

PUBLIC_ERRORS = json_errors(404, 422)
STREAM_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events: `board` (the game's snapshot, JSON) at once and "
        "after every change, `end` when the round is no longer broadcast",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    },
    **json_errors(404, 422, 429, 503),
}
RECORD_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The game's record (Xiangqi PGN, or BALL `.bgn`), as a file",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    },
    **PUBLIC_ERRORS,
}


def boards_of(request: Request) -> LiveBoards:
    return hub_of(request.app).boards


def broadcast_published(request: Request, event_id: int, number: int) -> bool:
    """Whether the desk published round `number` (the desk's round page shows it)."""
    return boards_of(request).published(event_id, number)


def _pairing(rnd: RoundView, table: int) -> PairingView:
    found = next((p for p in rnd.pairings if p.table == table and p.b is not None), None)
    if found is None:
        raise HTTPException(404, f"round {rnd.number} has no table {table} with two players")
    return found


async def _games(request: Request, event_id: int, number: int) -> dict[int, GameRef]:
    try:
        return await run_in_threadpool(boards_of(request).round_games, event_id, number)
    except NotBroadcast as exc:
        raise HTTPException(404, str(exc)) from None


# -- the desk's switch -------------------------------------------------------------------


@router.post(
    "/desk/{event_id}/rounds/{number}/broadcast",
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 422, 429)},
    summary="Publish (publish=1) or hide (publish=0) the round's live boards",
)
async def publish_broadcast(
    event_id: int,
    number: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: TournamentService = Depends(tournament),
):
    form = await read_form(request)
    choice = form.get("publish")
    if choice not in ("0", "1"):
        raise HTTPException(400, "publish: give 1 (publish the live boards) or 0 (hide them)")
    event = svc.desk.event_head(event_id)
    if not pairs_players(event.game):
        raise HTTPException(404, f"a {event.game} event has no live boards")
    svc.desk.round_view(event_id, number)  # no such round: 404
    await run_in_threadpool(boards_of(request).publish, event_id, number, choice == "1")
    return RedirectResponse(f"/desk/{event_id}/rounds/{number}#broadcast", status_code=303)


# -- the public pages ---------------------------------------------------------------------


@router.get("/public/{event_id}/live/{number}", responses=PUBLIC_ERRORS)
async def broadcast_page(
    event_id: int,
    number: int,
    request: Request,
    refresh: int | None = Query(None),
    svc: TournamentService = Depends(tournament),
):
    """The round's tables, each recorded game linked to its live board."""
    games = await _games(request, event_id, number)
    event = await run_in_threadpool(svc.desk.event_head, event_id)
    rnd = await run_in_threadpool(svc.desk.round_view, event_id, number)
    tables = [{"p": p, "live": p.table in games} for p in rnd.pairings if p.b is not None]
    context = {
        "event": event,
        "view": "live",
        "round": rnd,
        "tables": tables,
        "refresh": refresh_seconds(refresh),
    }
    return render(request, "public/live_round.html", context)


@router.get("/public/{event_id}/live/{number}/{table}", responses=PUBLIC_ERRORS)
async def live_board_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    svc: TournamentService = Depends(tournament),
):
    """One table's game, board and moves, updated as they are recorded."""
    games = await _games(request, event_id, number)
    event = await run_in_threadpool(svc.desk.event_head, event_id)
    pairing = _pairing(await run_in_threadpool(svc.desk.round_view, event_id, number), table)
    if table not in games:
        raise HTTPException(404, f"table {table} of round {number} has no recorded game")
    base = f"/public/{event_id}/live/{number}/{table}"
    context = {
        "event": event,
        "view": "live",
        "number": number,
        "pairing": pairing,
        "ref": games[table],
        "stream": f"{base}/stream",
        "record": f"{base}/record",
    }
    return render(request, "public/live_board.html", context)


class _Stream(StreamingResponse):
    """A stream that gives its place back (`release`) however it ends, even when the
    client left before its first byte (its generator then never starts)."""

    def __init__(self, content: Any, release: Any) -> None:
        super().__init__(
            content,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


@router.get(
    "/public/{event_id}/live/{number}/{table}/stream",
    response_class=StreamingResponse,
    responses=STREAM_ANSWERS,
    summary="Follow a live board: server-sent events of the game's snapshots",
)
async def live_board_stream(event_id: int, number: int, table: int, request: Request):
    games = await _games(request, event_id, number)
    ref = games.get(table)
    if ref is None:
        raise HTTPException(404, f"table {table} of round {number} has no recorded game")
    hub = hub_of(request.app)
    key = hub.admit(security.client_address(request))
    seconds = float(getattr(request.app.state, "live_stream_seconds", STREAM_SECONDS))
    return _Stream(hub.stream(event_id, number, ref, seconds), lambda: hub.release(key))


@router.get(
    "/public/{event_id}/live/{number}/{table}/record",
    response_class=PlainTextResponse,
    responses=RECORD_ANSWERS,
    summary="Download a live board's game record (Xiangqi PGN or BALL .bgn)",
)
def live_board_record(
    event_id: int,
    number: int,
    table: int,
    svc: TournamentService = Depends(tournament),
    boards: LiveBoards = Depends(boards_of),
):
    try:
        ref = boards.game_of(event_id, number, table)
    except NotBroadcast as exc:
        raise HTTPException(404, str(exc)) from None
    event = svc.desk.event_head(event_id)
    pairing = _pairing(svc.desk.round_view(event_id, number), table)
    b = pairing.b.name if pairing.b is not None else ""  # `_pairing` finds two players
    tags = {"Event": event.name, "Round": str(number)}
    live = game(event.game).live_board
    if live is not None:  # a recorded game's own tags (its players, docs/record-format.md)
        tags.update(live.tags(table, pairing.a.name, b))
    extension, text = boards.record(ref, tags)
    name = f"event{event_id}-round{number}-table{table}.{extension}"
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )
