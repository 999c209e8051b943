"""FastAPI dependencies of the desk and the public display: storage, time and desk access.

Routes receive what they need as parameters (`svc: TournamentService = Depends(tournament)`,
`arbiter: Arbiter = Depends(desk_writer)`) and never open a session themselves: the
tournament's use cases run in `TournamentService` (one transaction each) and the desk's
access rows are `ball.web.core.security`'s.

The time source is `app.state.clock_time` when set (tests), else the wall clock; the signal
gap is `app.state.desk_gap_seconds` when set, else the one the event's game sets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import HTTPException, Request
from sqlalchemy.orm import sessionmaker

from ball.tournament import signals
from ball.tournament.errors import NotFound
from ball.tournament.service import TournamentService
from ball.web.core import security


async def read_form(request: Request) -> dict[str, Any]:
    """The form's text fields, and its uploads under "_files" (Starlette caches the parse,
    so the access check and the route read the same form)."""
    form = await request.form()
    return {k: v for k, v in form.multi_items() if isinstance(v, str)} | {
        "_files": {k: v for k, v in form.multi_items() if not isinstance(v, str)}
    }


def now_of(request: Request) -> float:
    source: Callable[[], float] = getattr(request.app.state, "clock_time", None) or time.time
    return float(source())


def desk_gap(request: Request) -> float | None:
    """The app's own signal gap in seconds (`app.state.desk_gap_seconds`: tests), or None."""
    gap = getattr(request.app.state, "desk_gap_seconds", None)
    return float(gap) if gap is not None else None


def gap_of(request: Request, game: str | None = None) -> float:
    """The rest before signal 2 in seconds: the app's own (`desk_gap`), else the one the game
    named `game` sets (`signals.gap_seconds`; None: the shared figure)."""
    gap = desk_gap(request)
    return gap if gap is not None else signals.gap_seconds(game)


def service_for(app) -> TournamentService:
    """The tournament service on the app's own (already migrated) engine."""
    svc = getattr(app.state, "tournament", None)
    if svc is None:
        svc = TournamentService.from_sessions(app.state.engine, app.state.sessions)
        app.state.tournament = svc
    return svc


async def tournament(request: Request) -> TournamentService:
    """Dependency: the tournament service of the app's database. `async` because it does no
    I/O (the service object is made once per app, without a query): FastAPI then calls it
    on the event loop, where a plain `def` costs each request a hop to the thread pool and
    back (~40 of the desk's and public display's routes ask for it)."""
    return service_for(request.app)


def sessions(request: Request) -> sessionmaker:
    """Dependency: the app's session factory (for `security`'s own tables)."""
    return request.app.state.sessions


def not_found(exc: NotFound) -> HTTPException:
    return HTTPException(404, str(exc))


def desk_reader(event_id: int, request: Request) -> security.Arbiter:
    """Dependency of a desk page: 404 when there is no such event, a 303 to the PIN page
    (coming back here afterwards) when nobody is signed in."""
    service_for(request.app).desk.require_event(event_id)  # NotFound: 404 (tournament_errors)
    arbiter = security.arbiter_of(request.app.state.sessions, request, event_id, now_of(request))
    if arbiter is None:
        login = f"/desk/{event_id}/login?next={quote(request.url.path)}"
        raise HTTPException(303, "the arbiter desk needs the event PIN", {"Location": login})
    return arbiter


async def desk_writer(event_id: int, request: Request) -> security.Arbiter:
    """Dependency of every state-changing desk request: same origin, the event's desk
    session (401) and its CSRF token from the form or the header (403)."""
    form = await read_form(request)
    return security.check_write(
        request.app.state.sessions, request, event_id, now_of(request), form.get("csrf")
    )
