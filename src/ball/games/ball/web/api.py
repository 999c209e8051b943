"""The JSON API of the simulator (OpenAPI at /docs): games, legal actions, records.

Handlers only translate HTTP to the stored games of `ball.play`; every bad input becomes a 4xx whose
`detail` names the fault.

The game handlers are `async`: an action is a millisecond of work, and handing it to the
thread pool cost a third of the request (issue 15). Work that may take long, the computer's
reply, still runs in the pool (`_short_or_threaded`). `?since=N` asks for the log after ply
N only, so a response does not grow with the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ball.games.ball.engine import notation
from ball.games.ball.play import replies as sim_replies
from ball.games.ball.play.caches import known_mode
from ball.games.ball.play.replay import start_game
from ball.games.ball.play.store import GameStore
from ball.games.ball.web import story as sim_story
from ball.play import search_work
from ball.play.errors import ComputerThinking, GameError
from ball.play.write_locks import write_lock
from ball.web.api.computer_reply import THINKING, ComputerOut
from ball.web.api.game_quota import admit_game
from ball.web.api.json_answer import StateResponse
from ball.web.api.openapi import json_errors
from ball.web.api.table_writer import check_writer
from ball.web.core.language import COOKIE, gettext_for, pick_language
from ball.web.core.security import client_address

router = APIRouter(prefix="/api", tags=["simulator"], responses=json_errors(404, 409, 422, 429))


class NewGame(BaseModel):
    mode: Literal["free", "play", "computer"] = Field(
        "free", description="free: undo/redo and editor; play: no take-backs; computer: vs AI"
    )
    position: dict[str, Any] | None = Field(
        None, description="Spec 18.2 position document; omitted = standard formation, half 1"
    )
    computer_side: Literal["S", "N"] | None = Field(None, description="Side the computer plays")
    computer_level: Literal["greedy", "easy", "medium", "hard"] | None = Field(
        None,
        description="The computer's strength: greedy (one action ahead, the default) or a "
        "tree-search level easy, medium or hard",
    )
    ruleset: str | None = Field(
        None,
        max_length=100,
        description="Ruleset name, never a path (D-37): shipped (standard, pe, cards) or "
        "organiser-installed; omitted = the position's or standard",
        examples=["cards"],
    )
    title: str = Field("", max_length=200)
    action: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="The game's first action (spec 18.1): the game is stored with it "
        "played, so a page stores a game at its first action, not at the visit",
        examples=["G7-H8"],
    )


class ActionIn(BaseModel):
    action: str = Field(..., min_length=1, max_length=200, examples=["G7-H8"])
    version: int | None = Field(
        None, description="The game version the action was chosen on; 409 if it moved on"
    )


class PositionIn(BaseModel):
    position: dict[str, Any]


class RecordIn(BaseModel):
    bgn: str = Field(..., min_length=1, max_length=2_000_000, description="A `.bgn` record")


class LogEntryOut(BaseModel):
    ply: int
    half: int
    turn: int
    side: str
    phase: str
    action: str
    pb: int = Field(description="PB this action added (ball clock)")
    events: list[str]
    narration: list[Any] = Field([], description="The action in words: [message id, args]")
    text: str = Field("", description="The action in plain language, in the reader's language")


class DeckCard(BaseModel):
    name: str = Field(description="The card's name in notation (`card NAME`)")
    title: str
    pe: int = Field(description="PE the card costs")
    effect: str


class DeckOut(BaseModel):
    name: str
    provisional: bool = Field(description="D-15: the deck is a placeholder; say so when shown")
    short_range: int = Field(description="The ruleset's short-pass range before any card")
    cards: list[DeckCard]


class HalfTimerOut(BaseModel):
    cap: int = Field(description="Turns in a half: the half timer counted in full-length turns")
    turns_left: int = Field(description="Turns left before the half ends, the current one counted")
    final_drive: bool = Field(description="The timer has expired: the Final Drive runs (D-20)")
    over: bool = Field(description="The half ended on the timer, its Final Drive played")


class GameState(BaseModel):
    id: str
    title: str
    mode: str
    computer_side: str | None
    computer_level: str | None = None
    version: int
    position: dict[str, Any] = Field(description="Spec 18.2 position document")
    ruleset: str = Field(description="The game's ruleset name (standard, pe, cards, …)")
    deck: DeckOut | None = Field(None, description="The card deck in card mode, else null")
    uses_pe: bool = Field(True, description="PE are counted under these rules (PE or card mode)")
    actor: str = Field(description="Who answers now: the stealer during a steal decision")
    legal: list[str] = Field(description="Legal actions now (spec 18.1)")
    log: list[LogEntryOut] = Field(
        description="The action log; with `?since=N` only the entries after ply N"
    )
    log_start: int = Field(
        0,
        description="How many log entries come before `log` (0 = the whole log); a client "
        "holding the log keeps its first `log_start` entries and appends `log`",
    )
    can_undo: bool
    can_redo: bool
    over: bool
    half_timer: HalfTimerOut | None = Field(
        None,
        description="A match half's timer (hot seat and against the computer; spec 14, D-20) "
        "counted in turns; null in free play and after a touchdown",
    )
    first_half: str | None = Field(None, description="A second half's first half (game id)")
    announce: dict[str, Any] | None = Field(
        None, description="What the last action calls for: touchdown (+ half_time) or steal"
    )
    why: dict[str, Any] | None = Field(
        None,
        description="Why a tap does nothing, in words: {pieces: {square: text}, targets: "
        "{origin: {square: text}}} (ball.match.why_not)",
    )


class AppliedOut(GameState):
    applied: LogEntryOut


class LegalOut(BaseModel):
    piece: str | None
    actions: list[str]


def store(request: Request) -> GameStore:
    # the client's address names its queue for the computer's searches (ball.play.searches)
    return GameStore(request.app.state.sessions, client_address(request))


Since = Query(
    None,
    ge=0,
    description="The number of log entries the caller already holds: only the later ones "
    "are sent (see `log_start`)",
)
Version = Query(None, description="The version the caller saw; 409 if the game moved on")


async def _short_or_threaded(request: Request, game_id: str, work: Callable[[], Any]) -> Any:
    """Run `work` on the event loop when it is short (a game this process knows is not
    played against the computer) and the write lock is free, else in the thread pool, as a
    sync route would: the loop never waits on a computer reply holding the lock."""
    if known_mode(game_id) in ("free", "play"):
        lock = write_lock(request.app.state.sessions)
        if lock.acquire(blocking=False):  # re-entrant: the service takes it again
            try:
                return work()
            finally:
                lock.release()
    return await run_in_threadpool(work)


def _sent(state: dict[str, Any]) -> JSONResponse:
    """The state as JSON as it is: the service builds exactly the documented fields from
    plain values, and re-validating them through the response model cost more CPU than the
    action itself (issue 15). The route's `response_model` still documents the answer, and
    tests/web/test_openapi_live.py checks answers against that document. The bytes are
    `JSONResponse`'s, written by orjson (`ball.web.api.json_answer`)."""
    return StateResponse(state)


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except ComputerThinking:  # not an error: the route answers 202 (`_thinking`)
        raise
    except GameError as exc:
        raise HTTPException(exc.status, str(exc)) from exc


def _thinking(exc: ComputerThinking) -> JSONResponse:
    return JSONResponse(exc.view, status_code=202)


def _settings(body: NewGame) -> dict[str, Any]:
    """A new game's settings as `GameStore.create` and `preview` take them."""
    return {
        "position": body.position,
        "mode": body.mode,
        "computer_side": body.computer_side,
        "title": body.title,
        "ruleset": body.ruleset,
        "computer_level": body.computer_level,
    }


@router.get("/games", summary="List stored games, newest first")
def list_games(request: Request, limit: int = 50) -> list[dict[str, Any]]:
    return store(request).recent(max(1, min(limit, 500)))


@router.post(
    "/games",
    status_code=201,
    response_model=GameState,
    responses=THINKING,
    summary="Create a game",
)
def create_game(request: Request, body: NewGame | None = None):
    body = body or NewGame()
    with _errors():
        # checked before counting the game against anything: a bad body stores nothing
        store(request).preview(**_settings(body))
    # anyone may create games: each address has its quota, the database stays bounded
    owner = admit_game(request)
    try:
        with _errors():
            state = store(request).create(**_settings(body), owner=owner, action=body.action)
    except ComputerThinking as exc:
        return _thinking(exc)
    return _told(request, state)


@router.post(
    "/games/preview",
    response_model=GameState,
    summary="The state a new game would have, without storing it (its id is empty)",
)
def preview_game(request: Request, body: NewGame | None = None):
    """What the simulator shows on a visit: store the game with its first action by
    `POST /games` with `action`."""
    body = body or NewGame()
    with _errors():
        state = store(request).preview(**_settings(body))
    return _told(request, state)


@router.get("/games/{game_id}", response_model=GameState, summary="A game's state")
async def get_game(request: Request, game_id: str, since: int | None = Since):
    with _errors():
        state = await _short_or_threaded(
            request, game_id, lambda: store(request).state(game_id, since)
        )
    return _sent(_told(request, state))


@router.get("/games/{game_id}/legal", response_model=LegalOut, summary="Legal actions")
def legal_actions(request: Request, game_id: str, piece: str | None = None):
    """All legal actions now, or only those of the piece (or stack) on square `piece` (an
    empty `piece=`, as a form with no square chosen sends it, means all)."""
    piece = (piece or "").strip() or None
    if piece is not None and not notation.is_square(piece):
        raise HTTPException(422, f"piece: {piece!r} is not a square like G7")
    with _errors():
        actions = store(request).legal(game_id, piece)
    return {"piece": piece.strip().upper() if piece else None, "actions": actions}


@router.post(
    "/games/{game_id}/actions",
    response_model=AppliedOut,
    responses={**THINKING, **json_errors(403)},
    summary="Apply an action",
)
async def apply_action(request: Request, game_id: str, body: ActionIn, since: int | None = Since):
    return await answer_action(request, game_id, body.action, body.version, since)


async def answer_action(
    request: Request, game_id: str, action: str, version: int | None, since: int | None
) -> JSONResponse:
    """The answer to an action, from checked parameters (the route above)."""
    games = store(request)
    check_writer(request, game_id)  # a desk table's match: its device or desk
    try:
        with _errors():
            state, entry = await _short_or_threaded(
                request, game_id, lambda: games.apply(game_id, action, version, since)
            )
    except ComputerThinking as exc:
        return _thinking(exc)
    told = _told(request, state)
    return _sent({**told, "applied": told["log"][-1] if told["log"] else entry.__dict__})


@router.post(
    "/games/{game_id}/next-half",
    status_code=201,
    response_model=GameState,
    responses={**THINKING, **json_errors(403)},
    summary="Start the second half (a new game) once the first is over; asked again, the same game",
)
def next_half(request: Request, game_id: str):
    games = store(request)
    check_writer(request, game_id)
    try:
        with _errors():
            # asking again answers the game already made; only a new game counts against
            # the asker's quota (issue 30 item 8), so a stranger cannot store copies by
            # repeating it
            owner = None if games.second_half_made(game_id) else admit_game(request)
            return _told(request, games.next_half(game_id, owner=owner))
    except ComputerThinking as exc:
        return _thinking(exc)


@router.get(
    "/games/{game_id}/computer",
    response_model=ComputerOut,
    summary="Is the computer's move ready: asked of any server process",
)
def computer_move(request: Request, game_id: str):
    """The search of the computer's move in the game's current position, read from the
    database's queue. A search nobody runs (queued, or its server process was killed) is
    run by this process before it answers; one another process runs is waited for a
    moment. 429 when the asker's searches are at their limit."""
    with _errors():
        return sim_replies.computer(store(request), game_id, search_work.QUICK_WAIT)


@router.get(
    "/games/{game_id}/result",
    summary="The match result of a finished second half and its first half",
)
def match_result(
    request: Request,
    game_id: str,
    first: str | None = Query(
        None,
        max_length=32,
        description="The first half's game id; omitted: the first half on record (the "
        "game `next-half` made this one from)",
    ),
) -> dict[str, Any]:
    """Decided by `ball.match.result.decide` on the sheet of the two halves (spec 13)."""
    with _errors():
        half1, half2, computer = store(request).match_halves(first, game_id)
    return sim_story.result(half1, half2, computer, _gettext(request))


def _gettext(request: Request) -> Callable[[str], str]:
    # `ball.web.core.language.Language` chose from the same three inputs for this request: its
    # choice saves parsing the query and cookies again on every action (issue 15).
    chosen = request.scope.get("state", {}).get("lang")
    if chosen is not None:
        return gettext_for(chosen)
    lang = pick_language(
        request.query_params.get("lang"),
        request.cookies.get(COOKIE),
        request.headers.get("accept-language"),
    )
    return gettext_for(lang)


def _told(request: Request, state: dict[str, Any]) -> dict[str, Any]:
    """The state with the log in plain language and the announcement (ball.games.ball.web.story)."""
    return sim_story.with_texts(state, _gettext(request))


async def _stepped(request: Request, game_id: str, step: Callable[[], Any]) -> JSONResponse:
    """A take-back or its redo (`step`, a store call): by the game's writer only, answered
    with the state told in plain language."""
    check_writer(request, game_id)
    with _errors():
        state = await _short_or_threaded(request, game_id, step)
    return _sent(_told(request, state))


@router.post(
    "/games/{game_id}/undo",
    response_model=GameState,
    summary="Undo (free play)",
    responses=json_errors(403),
)
async def undo(
    request: Request, game_id: str, since: int | None = Since, version: int | None = Version
):
    return await _stepped(request, game_id, lambda: store(request).undo(game_id, version, since))


@router.post(
    "/games/{game_id}/redo",
    response_model=GameState,
    summary="Redo (free play)",
    responses=json_errors(403),
)
async def redo(
    request: Request, game_id: str, since: int | None = Since, version: int | None = Version
):
    return await _stepped(request, game_id, lambda: store(request).redo(game_id, version, since))


@router.get("/games/{game_id}/position", summary="Export the position (spec 18.2)")
def export_position(request: Request, game_id: str, download: bool = False):
    with _errors():
        doc = store(request).position(game_id)
    headers = (
        {"Content-Disposition": f'attachment; filename="ball-{game_id}.json"'} if download else {}
    )
    return JSONResponse(doc, headers=headers)


@router.get(
    "/games/{game_id}/record",
    response_class=PlainTextResponse,
    summary="Export the game record (.bgn)",
)
def export_record(request: Request, game_id: str):
    from ball.games.ball.play.records import record_text

    with _errors():
        initial, actions, headers = store(request).history(game_id)
        text = record_text(initial, actions, headers)
    return PlainTextResponse(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="ball-{game_id}.bgn"'},
    )


@router.get("/games/{game_id}/replay", summary="Every position of a game, for the replay viewer")
def replay_game(request: Request, game_id: str):
    from ball.games.ball.play.records import replay_actions

    with _errors():
        initial, actions, headers = store(request).history(game_id)
        half = replay_actions(initial, actions, half=int(initial.get("half", 1)))
        half.pop("game")
        return {"tags": headers, "halves": [half]}


@router.post("/records/replay", summary="Read a .bgn record into positions for the viewer")
def replay_record(body: RecordIn):
    from ball.games.ball.play.records import replay_record_text

    with _errors():
        return replay_record_text(body.bgn)


@router.post("/positions/check", summary="Validate a position document; returns it normalised")
def check_position(body: PositionIn):
    with _errors():
        return start_game(body.position).to_json()
