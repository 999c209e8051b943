"""The Xiangqi pages: the board (`/xiangqi`, `/xiangqi/{id}`) to play hot-seat, against the
computer or to record a game move by move, and the replay view (`/xiangqi/replay`).

Thin: the templates carry data attributes; the script (the game's `static/js/xiangqi.js`)
asks the JSON API (`ball.games.xiangqi.web.api`) for everything, so no rule is decided in the page.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from ball.storage.ids import in_range, parse_id
from ball.web.core.templating import render

router = APIRouter(include_in_schema=False)


def _checked_id(text: str | None) -> str:
    if not text:
        return ""
    value = parse_id(text)
    if value is None or not in_range(value):
        raise HTTPException(404, f"Xiangqi game {text!r} does not exist")
    return str(value)


@router.get("/xiangqi", response_class=HTMLResponse)
def board(request: Request):
    return render(request, "xiangqi/board.html", {"game_id": ""})


@router.get("/xiangqi/replay", response_class=HTMLResponse)
def replay(request: Request, game: str | None = None):
    return render(request, "xiangqi/replay.html", {"game_id": _checked_id(game)})


@router.get("/xiangqi/{game_id}", response_class=HTMLResponse)
def board_of(request: Request, game_id: str):
    return render(request, "xiangqi/board.html", {"game_id": _checked_id(game_id)})
