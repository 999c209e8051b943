"""A BALL table's match recorded on the simulator board (issue 35 §5), as the desk's "Record
the game" opens it: a `play`-mode game (both coaches at one board, the half timer and
`next-half` as in any simulator match) linked to its event, round and table, with a table
device key (`ball.device_key`).

Owns the link and who may write such a game. Half 1 carries the unique (event, round,
table) triple; half 2, made by `next-half`, carries the event and the same key, so the
table's device keeps recording after half-time. A write of a table's game needs that key
(`X-Table-Key`) or the event's desk session with its CSRF token, checked by `check_writer`
before every write route of the simulator API (the apply fast path included); any other
game stays open to anyone, as before.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from typing import Any

from fastapi import HTTPException, Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from ball import device_key
from ball.play.models import WebGame
from ball.play.replay import start_game
from ball.web.core import security
from ball.web.core.language import gettext_for

MODE = "play"  # no take-backs, the half timer: a match as the table plays it
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


def _table_row(session: Session, event: int, round_: int, table: int) -> WebGame | None:
    return session.scalars(
        select(WebGame).where(
            WebGame.desk_event == event, WebGame.desk_round == round_, WebGame.desk_table == table
        )
    ).first()


def for_table(sessions: sessionmaker[Session], event: int, round_: int, table: int, title: str):
    """(game id, key) of the match recorded for an event's table, made on first use from
    the standard formation (coach A is S, the attacker of half 1)."""
    with sessions() as session:
        row = _table_row(session, event, round_, table)
        if row is None:
            row = WebGame(
                id=uuid.uuid4().hex[:12],
                title=title[:200],
                mode=MODE,
                initial=json.dumps(start_game(None).to_json()),
                actions="[]",
                redo="[]",
                version=0,
                desk_event=event,
                desk_round=round_,
                desk_table=table,
                device_key=device_key.new_key(),
            )
            session.add(row)
            session.commit()
        return row.id, row.device_key


def table_link(sessions: sessionmaker[Session], event: int, round_: int, table: int) -> str | None:
    """The board's link with the key, for the desk to hand the table's tablet; None before
    "Record the game" made the game."""
    with sessions() as session:
        row = _table_row(session, event, round_, table)
        return None if row is None else f"/?game={row.id}#key={row.device_key}"


def check_writer(request: Request, game_id: str) -> None:
    """403 unless the request may write game `game_id`: any game not of a table; a table's
    game with its device key, or with the event's desk session and CSRF token."""
    app = request.app
    cache = getattr(app.state, "ball_table_access", None)
    if cache is None:
        cache = app.state.ball_table_access = _Access()
    access = cache.get(app.state.sessions, game_id)
    if access is None:
        return
    security.same_origin(request)
    event_id, key = access
    if device_key.matches(request.headers.get(device_key.HEADER), key):
        return
    from ball.web.core.deps import now_of

    arbiter = security.arbiter_of(app.state.sessions, request, event_id, now_of(request))
    token = request.headers.get("x-csrf-token") or ""
    if arbiter is not None and device_key.matches(token, arbiter.csrf):
        return
    raise HTTPException(
        403,
        f"key: game {game_id} records a table of an event; only the desk or the table's "
        "device may write it (the key is missing or wrong)",
    )


# -- the desk's questions about a table's board (`BallGame.table_board`) -------------------


def link(request: Request, event: int, round_: int, table: int) -> str | None:
    return table_link(request.app.state.sessions, event, round_, table)


def ending(request: Request, event: int, round_: int, table: int) -> dict[str, Any] | None:
    return None  # a match's result is its score sheet: the desk offers no ending to check


async def open_for_table(request: Request, page: Any, number: int, table: int) -> str:
    """The link of the table's match on the simulator board, both coaches at it (issue 35
    §5), made first if need be (`page`: the desk's table page, its event and pairing)."""
    _ = gettext_for(getattr(request.state, "lang", "en"))
    title = _("%(event)s, round %(n)s, table %(t)s: %(a)s (A) – %(b)s (B)") % {
        "event": page.event.name,
        "n": number,
        "t": table,
        "a": page.pairing.a.name,
        "b": page.pairing.b.name,
    }
    sessions = request.app.state.sessions
    await run_in_threadpool(for_table, sessions, page.event.id, number, table, title)
    return table_link(sessions, page.event.id, number, table) or "/"
