"""The JSON API of Xiangqi games (OpenAPI at /docs, tag "xiangqi").

Thin: handlers translate HTTP to `ball.games.xiangqi.web.game_store`; every bad input is a 4xx whose
`detail` names the fault (an illegal move 400, a bad FEN, mode or notation 422, no such game
404, a stale version or a move out of turn 409). A stored Xiangqi game counts against the
same quota and cap as a simulator game (`ball.web.api.game_quota`).

A game the desk opened for a table ("Record the game") is the desk's: a move, a computer
move or an ending is taken only with the event's desk session and its CSRF token
(`X-CSRF-Token`) or with the table's device key (`X-Table-Key`, `ball.device_key`), which
the desk's link to the board carries; anyone may still read it, and it is not in the list of
free games (issue 30).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ball.games.xiangqi.web import replies as xiangqi_replies
from ball.games.xiangqi.web.game_store import (
    GameCache,
    XiangqiStore,
    explain,
    replay_document,
    replay_pgn,
)
from ball.games.xiangqi.web.notation import STYLES
from ball.play import search_work
from ball.play.errors import ComputerThinking, GameError
from ball.web.api.computer_reply import THINKING, ComputerOut
from ball.web.api.game_quota import admit_game
from ball.web.api.openapi import json_errors
from ball.web.api.table_writer import require_writer
from ball.web.core.security import client_address

# The document lists the notations the server takes (issue 30 item 15); another value is
# still refused with a 422 naming it.
NOTATIONS: dict[str, Any] = {"enum": list(STYLES)}

router = APIRouter(
    prefix="/api/xiangqi", tags=["xiangqi"], responses=json_errors(404, 409, 422, 429)
)


class NewXiangqiGame(BaseModel):
    mode: Literal["hotseat", "computer"] = Field(
        "hotseat", description="hotseat: both sides at one screen; computer: vs ball.ai.xiangqi"
    )
    fen: str | None = Field(None, max_length=200, description="Start FEN; omitted = standard")
    computer: Literal["red", "black"] | None = Field(None, description="The computer's side")
    level: Literal["easy", "medium", "hard"] | None = Field(
        None, description="The computer's level"
    )
    title: str = Field("", max_length=200)
    move: str | None = Field(
        None,
        min_length=1,
        max_length=40,
        description="The game's first move: the game is stored with it played, so a page "
        "stores a game at its first move, not at the visit",
        examples=["h2e2"],
    )
    notation: str = Field("iccs", max_length=20, description="The first move's notation")


class MoveIn(BaseModel):
    move: str = Field(..., min_length=1, max_length=40, examples=["h2e2"])
    notation: str = Field(
        "iccs", max_length=20, description="iccs, wxf or chinese", json_schema_extra=NOTATIONS
    )
    version: int | None = Field(None, description="The version the move was chosen on")


class ComputerIn(BaseModel):
    level: Literal["easy", "medium", "hard"] | None = None
    version: int | None = None


class EndingIn(BaseModel):
    ending: Literal["resign-red", "resign-black", "agreement"]
    version: int | None = None


class ExplainIn(BaseModel):
    fen: str = Field(..., max_length=200, description="The position the tap was made in")
    # ICCS squares: file a-i, rank 0-9 (Red's back rank is 0)
    square: str = Field(..., pattern="^[a-i][0-9]$", examples=["b0"])
    to: str | None = Field(None, pattern="^[a-i][0-9]$", examples=["c2"])


class ReplayIn(BaseModel):
    document: dict[str, Any] | None = Field(None, description="A ball-xiangqi-game/1 document")
    pgn: str | None = Field(None, max_length=1_000_000, description="A Xiangqi PGN record")


def store(request: Request) -> XiangqiStore:
    cache = getattr(request.app.state, "xiangqi_cache", None)
    if cache is None:  # one cache per app: game ids are row numbers of its own database
        cache = request.app.state.xiangqi_cache = GameCache()
    return XiangqiStore(request.app.state.sessions, cache, client_address(request))


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except ComputerThinking:  # not an error: the route answers 202 with where to ask
        raise
    except GameError as exc:
        raise HTTPException(exc.status, str(exc)) from exc


def _table_writer(request: Request, game_id: str) -> None:
    """403 unless the request may write this game (`table_writer.require_writer`: a table's
    game with its device key or the event's desk session). The game's event and key never
    change after creation, so checking before the write is enough."""
    with _errors():
        access = store(request).table_access(game_id)
    require_writer(request, access, f"Xiangqi game {game_id}")


@router.get("/games", summary="List stored Xiangqi games, newest first")
def list_games(request: Request, limit: int = 50) -> list[dict[str, Any]]:
    return store(request).recent(max(1, min(limit, 500)))


@router.post(
    "/games",
    status_code=201,
    response_model=dict[str, Any],
    responses=THINKING,
    summary="Create a Xiangqi game",
)
def create_game(request: Request, body: NewXiangqiGame | None = None) -> Any:
    body = body or NewXiangqiGame()
    with _errors():  # checked before counting the game against anything
        store(request).preview(body.fen, body.mode, body.computer, body.level, body.title)
    owner = admit_game(request)  # one quota and cap for every stored game (ball.web.api.game_quota)
    try:
        with _errors():
            return store(request).create(
                body.fen,
                body.mode,
                body.computer,
                body.level,
                body.title,
                owner=owner,
                move=body.move,
                notation=body.notation,
            )
    except ComputerThinking as exc:
        return JSONResponse(exc.view, status_code=202)


@router.post("/games/preview", summary="A new game's state, not stored (its id is null)")
def preview_game(request: Request, body: NewXiangqiGame | None = None) -> dict[str, Any]:
    body = body or NewXiangqiGame()
    with _errors():
        return store(request).preview(body.fen, body.mode, body.computer, body.level, body.title)


@router.get("/games/{game_id}", summary="A Xiangqi game's state with its legal moves")
def get_game(
    request: Request,
    game_id: str,
    notation: Annotated[str, Query(json_schema_extra=NOTATIONS)] = "iccs",
) -> dict[str, Any]:
    with _errors():
        return store(request).state(game_id, notation)


@router.post(
    "/games/{game_id}/moves",
    response_model=dict[str, Any],
    responses={**json_errors(403), **THINKING},
    summary="Play a move (the computer answers in its mode)",
)
def play_move(request: Request, game_id: str, body: MoveIn) -> Any:
    _table_writer(request, game_id)
    try:
        with _errors():
            return store(request).play(game_id, body.move, body.notation, body.version)
    except ComputerThinking as exc:
        return JSONResponse(exc.view, status_code=202)


@router.get(
    "/games/{game_id}/computer",
    response_model=ComputerOut,
    summary="Is the computer's move ready: asked of any server process",
)
def computer_reply(request: Request, game_id: str):
    """The search of the computer's move in a game against it, read from the database's
    queue (as `GET /api/games/{game_id}/computer` for the simulator): a search nobody runs
    is run by this process before it answers, one another process runs is waited for a
    moment."""
    with _errors():
        return xiangqi_replies.reply(store(request), game_id, search_work.QUICK_WAIT)


@router.post(
    "/games/{game_id}/computer",
    responses=json_errors(403),
    summary="The computer plays the side to move",
)
def computer_move(request: Request, game_id: str, body: ComputerIn | None = None):
    _table_writer(request, game_id)
    body = body or ComputerIn()
    with _errors():
        return store(request).computer_move(game_id, body.level, body.version)


@router.post(
    "/games/{game_id}/ending",
    responses=json_errors(403),
    summary="Resignation (4.1.9) or agreed draw (4.2.2)",
)
def declare_ending(request: Request, game_id: str, body: EndingIn) -> dict[str, Any]:
    _table_writer(request, game_id)
    with _errors():
        return store(request).declare(game_id, body.ending, body.version)


@router.get("/games/{game_id}/document", summary="The game document (ball-xiangqi-game/1)")
def game_document(request: Request, game_id: str, download: bool = False):
    with _errors():
        doc = store(request).document(game_id)
    name = f"xiangqi-{int(game_id)}.json"  # digits only: the store accepted the id
    headers = {"Content-Disposition": f'attachment; filename="{name}"'} if download else {}
    return JSONResponse(doc, headers=headers)


@router.get("/games/{game_id}/replay", summary="Every position of a game, for the replay view")
def replay_game(request: Request, game_id: str) -> dict[str, Any]:
    with _errors():
        return store(request).replay(game_id)


@router.post("/explain", summary="Why a piece cannot move, or cannot move there (one line)")
def explain_tap(body: ExplainIn) -> dict[str, Any]:
    """`refusal` is null when the move is legal, else `{code, piece, text}`: `code` names
    the rule (`ball.xiangqi.explain.REASONS`), `text` says it in English."""
    with _errors():
        return {"refusal": explain(body.fen, body.square, body.to)}


@router.post("/replay", summary="Read a game document or a Xiangqi PGN for replay")
def replay(body: ReplayIn) -> dict[str, Any]:
    with _errors():
        if body.document is not None:
            return replay_document(body.document)
        if body.pgn is not None:
            return replay_pgn(body.pgn)
    raise HTTPException(422, "give 'document' (a ball-xiangqi-game/1 object) or 'pgn'")
