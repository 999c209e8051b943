"""The board a Xiangqi table's game is recorded on, as the desk asks it (`XiangqiGame
.table_board`): the board's link with the table's device key, how the recorded game ended
(the desk's form is offered pre-filled from it), and "Record the game", which makes the
hot-seat game on first use (Red is player A). The games themselves are `game_store`'s."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from ball.games.xiangqi.web.api import store
from ball.web.core.language import gettext_for


def link(request: Request, event: int, round_: int, table: int) -> str | None:
    return store(request).table_link(event, round_, table)


def ending(request: Request, event: int, round_: int, table: int) -> dict[str, Any] | None:
    return store(request).table_ending(event, round_, table)


async def open_for_table(request: Request, page: Any, number: int, table: int) -> str:
    """The link of the table's board, the game made first if need be (`page`: the desk's
    table page, its event and pairing)."""
    _ = gettext_for(getattr(request.state, "lang", "en"))
    title = _("%(event)s, round %(n)s, table %(t)s: %(a)s (Red) – %(b)s (Black)") % {
        "event": page.event.name,
        "n": number,
        "t": table,
        "a": page.pairing.a.name,
        "b": page.pairing.b.name,
    }
    games = store(request)
    games.for_table(page.event.id, number, table, title)
    # The link hands the board the table's device key in its fragment (never sent to a
    # server): the desk's browser, or the table's tablet it is passed to, writes the game.
    return games.table_link(page.event.id, number, table) or "/xiangqi"
