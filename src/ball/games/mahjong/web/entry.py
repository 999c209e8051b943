"""The players of a Mahjong table enter its session by their seats' links (issue 35 §1):
the phone page of a seat's `/t/TOKEN` (the routes are `ball.web.desk.table_entry`'s, which
throttle a stranger's tokens and refuse cross-site posts for both kinds of table, and hand a
seat's token to this module, `MahjongGame.own_links`), and the desk's approval of a sheet
two seats agreed on.

The form is the table's hands, one row each as the desk's sheet takes a hand in its
simplest complete form (a draw; or the winner, won on a discard and from whom or
self-drawn, and the fan), each row read by the desk's own `mahjong_forms.hand_from_form`,
and the four seats' totals the table wrote down, a check (`ball.games.mahjong.engine.sheet`: they
must sum to zero and equal the hands'). The service checks the sheet whole as the desk's close
does (`ball.games.mahjong.tournament.seat_links`).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from ball.games.mahjong.engine.winds import WINDS
from ball.games.mahjong.tournament import seat_links as mahjong_links
from ball.games.mahjong.web.forms import hand_from_form
from ball.tournament import table_links
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_writer, now_of, tournament
from ball.web.core.language import gettext_for
from ball.web.core.templating import N_, render
from ball.web.desk.link_states import CLOSED, STATES
from ball.web.desk.pages import found, see

router = APIRouter(
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(401, 403, 404, 409)},
)

# The fields a seat's form may hold (stored with the entry, to show it again).
FIELDS = re.compile(r"^(h[0-9]{1,2}_(outcome|winner|discarder|fan)|t_[ESWN])$")
HAND_FIELDS = ("outcome", "winner", "discarder", "fan")
_TOTAL = re.compile(r"^[+-]?[0-9]{1,7}$")
_HAND = re.compile(r"hands\[([0-9]+)\]")
# Why a seat's link is dead, in a Mahjong player's words (a session, four players).
SEAT_CLOSED = {
    **CLOSED,
    table_links.ROUND_CLOSED: N_("its session is closed"),
    table_links.AGREED: N_("two players of the table agreed on the result"),
}


def hands_from_form(form: dict[str, str], count: int) -> tuple[list[dict[str, Any]], Any]:
    """The hands of rows 1..`count` (empty rows after the last one filled are left out;
    an empty row before it is refused) and the totals (None when all four are empty)."""
    rows = [{k: (form.get(f"h{i}_{k}") or "").strip() for k in HAND_FIELDS}
            for i in range(1, count + 1)]  # fmt: skip
    filled = [i for i, row in enumerate(rows, 1) if any(row.values())]
    hands = []
    for i in range(1, (filled[-1] if filled else 0) + 1):
        if i not in filled:
            raise TournamentError(f"hand {i}: empty, but a later hand is entered")
        try:
            hands.append(hand_from_form(rows[i - 1]))
        except TournamentError as exc:
            raise TournamentError(f"hand {i}: {exc}") from None
    raw = {w: (form.get(f"t_{w}") or "").strip() for w in WINDS}
    if not any(raw.values()):
        return hands, None
    for w, value in raw.items():
        if not _TOTAL.match(value):
            raise TournamentError(f"totals.{w}: a whole number (a loss with a minus sign)")
    return hands, {w: int(v) for w, v in raw.items()}


def is_token(token: str) -> bool:
    """Whether `token` has a seat link's shape (the table links' differs)."""
    return mahjong_links.is_seat_token(token)


def open_link(svc: TournamentService, token: str) -> mahjong_links.LinkedSeat:
    """The seat the token opens; `table_links.BadLink` when it opens none."""
    return svc.seat_links.open_seat_link(token)


def page(
    request: Request,
    token: str,
    linked: mahjong_links.LinkedSeat,
    *,
    status: int = 200,
    values: dict[str, str] | None = None,
    error: str = "",
) -> HTMLResponse:
    _ = gettext_for(getattr(request.state, "lang", "en"))
    entry = linked.entry
    mine = entry is not None and entry.side == linked.seat
    if values is None:
        values = dict(entry.document.get("form", {})) if entry is not None and mine else {}
    context = {
        "token": token,
        "t": linked,
        "winds": WINDS,
        "entry": entry,
        "mine": mine,
        "entry_hands": entry.document["sheet"]["hands"] if entry else [],
        "state": STATES.get(entry.state if entry else table_links.WAITING, ""),
        "values": values,
        "error": error,
        "closed": _(SEAT_CLOSED[linked.closed]) if linked.closed else "",
    }
    if linked.closed and status == 200:
        status = 409
    return render(request, "table/mahjong_entry.html", context, status_code=status)


def enter(
    request: Request,
    svc: TournamentService,
    token: str,
    linked: mahjong_links.LinkedSeat,
    form: dict[str, Any],
) -> Response:
    """A seat enters its table's hands (`/t/TOKEN`'s POST for a Mahjong seat)."""
    form = {k: v for k, v in form.items() if FIELDS.match(k) and isinstance(v, str)}
    if linked.closed:
        return page(request, token, linked)
    try:
        hands, totals = hands_from_form(form, linked.hands)
        svc.seat_links.enter_by_seat_link(token, hands, totals, form, now_of(request))
    except table_links.LinkClosed:
        return page(request, token, svc.seat_links.open_seat_link(token))
    except TournamentError as exc:
        # the sheet's `hands[2].fan` is the form's third row: "hand 3.fan"
        error = _HAND.sub(lambda m: f"hand {int(m.group(1)) + 1}", str(exc))
        return page(request, token, linked, status=400, values=form, error=error)
    return see(f"/t/{token}")


def answer(
    request: Request,
    svc: TournamentService,
    token: str,
    linked: mahjong_links.LinkedSeat,
    agree: bool,
) -> Response:
    """Another seat confirms or disputes the entry it is shown."""
    try:
        svc.seat_links.answer_by_seat_link(token, agree, now_of(request))
    except table_links.LinkClosed:
        return page(request, token, svc.seat_links.open_seat_link(token))
    except TournamentError as exc:
        return page(request, token, linked, status=409, error=str(exc))
    return see(f"/t/{token}")


@router.post("/desk/{event_id}/sessions/{number}/entries/{table}/approve")
async def approve(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: TournamentService = Depends(tournament),
):
    """The desk stores the sheet two seats of the table agreed on (the desk's own close)."""
    try:
        found(svc.seat_links.approve_seat_entry, event_id, number, table, now_of(request))
    except TournamentError as exc:
        raise HTTPException(409, str(exc)) from None
    return see(f"/desk/{event_id}/sessions/{number}#table-entries")
