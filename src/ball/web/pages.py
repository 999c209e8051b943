"""HTML pages of the simulator and the interactive rulebook (thin: data comes from the API)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ball.web.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def simulator(request: Request, game: str | None = None):
    return render(request, "simulator.html", {"game_id": game or ""})
