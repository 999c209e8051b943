"""Who may write a stored simulator game: a game linked to a table of an event (its
`desk_event` and `device_key`, set by the desk's "Record the game" and kept by its
half 2) is written only with the table's device key (`X-Table-Key`) or the event's desk
session with its CSRF token; any other game stays open to anyone. `check_writer` runs
before every write route of the simulator API (`ball.games.ball.web.api`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from fastapi import HTTPException, Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ball import device_key
from ball.play.models import WebGame
from ball.web.core import security
from ball.web.core.deps import now_of

ACCESS_ENTRIES = 4096


class _Access:
    """game id -> (event, key) or None, per database: a game's link never changes after it
    is made, so the apply route asks the database once per game, not once per action."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, tuple[int, str] | None] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, sessions: sessionmaker[Session], game_id: str) -> tuple[int, str] | None:
        with self._lock:
            if game_id in self._items:
                self._items.move_to_end(game_id)
                return self._items[game_id]
        with sessions() as session:
            found = session.execute(
                select(WebGame.desk_event, WebGame.device_key).where(WebGame.id == game_id)
            ).first()
        if found is None:  # no such game: not cached, the route says 404 itself
            return None
        access = None if found[0] is None else (int(found[0]), str(found[1]))
        with self._lock:
            self._items[game_id] = access
            while len(self._items) > ACCESS_ENTRIES:
                self._items.popitem(last=False)
        return access


def check_writer(request: Request, game_id: str) -> None:
    """403 unless the request may write game `game_id`: any game not of a table; a table's
    game with its device key, or with the event's desk session and CSRF token."""
    app = request.app
    cache = getattr(app.state, "ball_table_access", None)
    if cache is None:
        cache = app.state.ball_table_access = _Access()
    require_writer(request, cache.get(app.state.sessions, game_id), f"game {game_id}")


def require_writer(request: Request, access: tuple[int, str] | None, what: str) -> None:
    """403 unless the request may write a game whose `access` is (event id, device key), or
    None for a game of no table (open to anyone); `what` names the game in the refusal. The
    same check guards every recorded table game, whatever its game (Xiangqi's too)."""
    if access is None:
        return
    security.same_origin(request)
    event_id, key = access
    if device_key.matches(request.headers.get(device_key.HEADER), key):
        return
    arbiter = security.arbiter_of(request.app.state.sessions, request, event_id, now_of(request))
    token = request.headers.get("x-csrf-token") or ""
    if arbiter is not None and device_key.matches(token, arbiter.csrf):
        return
    raise HTTPException(
        403,
        f"key: {what} records a table of an event; only the desk or the table's "
        "device may write it (the key is missing or wrong)",
    )
