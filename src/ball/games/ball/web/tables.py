"""A BALL table's match recorded on the simulator board (issue 35 §5), as the desk's "Record
the game" opens it: a `play`-mode game (both coaches at one board, the half timer and
`next-half` as in any simulator match) linked to its event, round and table, with a table
device key (`ball.device_key`).

Owns the link and who may write such a game. Half 1 carries the unique (event, round,
table) triple; half 2, made by `next-half`, carries the event and the same key, so the
table's device keeps recording after half-time. Who may write such a game (that key, or
the event's desk session) is the simulator API's question (`ball.web.api.table_writer`).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from ball import device_key
from ball.games.ball.play.replay import start_game
from ball.play.models import WebGame
from ball.web.core.language import gettext_for

MODE = "play"  # no take-backs, the half timer: a match as the table plays it


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
