"""The one answer to a tournament error that no route turned into a page: a use case that
refuses (`TournamentError`) is 400, one that finds no such event, round or table
(`NotFound`) is 404, each with the message as FastAPI's `{"detail": ...}`.

Routes whose refusal is a page (a form shown again with its fault, the desk's error page)
or another status (409 when the table moved on) still catch the error themselves; every
other route lets it rise to here instead of repeating `except TournamentError: raise
HTTPException(400, ...)`.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from ball.tournament.errors import NotFound, TournamentError


def status_of(exc: TournamentError) -> int:
    return 404 if isinstance(exc, NotFound) else 400


def install(app: FastAPI) -> None:
    """Answer every tournament error a route lets through (404 or 400)."""

    @app.exception_handler(TournamentError)
    async def refused(_request: Request, exc: TournamentError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=status_of(exc))
