"""Players enter their own table's result by the link on their score sheet (issue 35 §1):
the phone page `/t/TOKEN`, and the desk's side of it (approve, the event's setting).

A link opens one side of one table of one round (`ball.tournament.table_links`: the
token's model, its states, why a link is dead). No account: the token is the key.

- The page shows the table's pairing and the players' result form of the event's game
  (`Game.players_form`: BALL's quick sheet, who scored in each half and each coach's
  PBATK per half), read by the game's desk form (`DeskForm`, as a quick entry) and
  checked by the desk's own `preview` (the event's game decides, as for the desk's save);
  refusals are shown beside their field (`field_errors`). Once one side entered, the
  other side's page shows that result with *Confirm* and *Not right*, and the form to
  enter its own.
- A stranger's token: every request with a token that opens nothing is counted against the
  client address (`security.PinThrottle`, scope `table-link`, stored): after
  `security.MAX_FAILURES` in a row the address gets 429 for `security.LOCK_SECONDS`, and
  while locked no token of it is even looked at. The request budget of `ball.web.core.limits`
  applies as everywhere.
- Writes: a POST must not be cross-site (`security.same_origin`, 403). There is no session
  to carry a CSRF token; the unguessable token in the path is what a forged request cannot
  know, so it plays that part.
- A dead link (round closed, result in, both sides agreed) answers 409 with the page
  saying why; the desk's entry always wins (`record_table_result` settles the players'
  entry).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from ball.games import GAMES, game, load
from ball.games.forms import QUICK
from ball.storage.ids import is_digits
from ball.tournament import table_links
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_writer, now_of, read_form, tournament
from ball.web.core.language import gettext_for
from ball.web.core.templating import render
from ball.web.desk import field_errors
from ball.web.desk.forms import read_result
from ball.web.desk.link_states import CLOSED, STATES
from ball.web.desk.pages import found, see
from ball.web.desk.preview import desk_form_of, preview, reasons_of

router = APIRouter(
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 403, 404, 409, 429)},
)

SCOPE = "table-link"  # the throttle's scope (`desk_pin_throttle`)
TARGET = 0  # one count per address, whatever table a guess aimed at


def _throttle(request: Request) -> security.PinThrottle:
    return security.PinThrottle(request.app.state.sessions, SCOPE, event_cap=False)


def _own_links(token: str) -> Any:
    """The module of the game whose own links have the token's shape (`Game.own_links`: a
    Mahjong seat's), or None for a table link."""
    for entry in GAMES.values():
        if entry.own_links is not None:
            links = load(entry.own_links)
            if links.is_token(token):
                return links
    return None


def _open(request: Request, svc: TournamentService, token: str) -> tuple[Any, Any]:
    """(what the token opens, the game's own links module or None): a `LinkedTable`, or
    what a game's own links open (a Mahjong seat's `LinkedSeat`, with Mahjong's module);
    429 while the address is locked, 404 (counted) for a token that opens nothing."""
    client, now = security.client_address(request), now_of(request)
    throttle = _throttle(request)
    locked = throttle.wait(TARGET, client, now)
    if locked > 0:
        raise HTTPException(
            429,
            "too many wrong table links: try again later",
            {"Retry-After": str(int(locked) + 1)},
        )
    try:
        own = _own_links(token)
        if own is not None:
            return own.open_link(svc, token), own
        return svc.table_links.open_table_link(token), None
    except table_links.BadLink:
        throttle.failed(TARGET, client, now)
        raise HTTPException(404, "no table has this link") from None


def _text(
    request: Request,
    svc: TournamentService,
    linked: table_links.LinkedTable,
    form: dict[str, Any],
) -> str:
    """An entry's result in the reader's words (the desk's own preview of its form)."""
    plugin = found(svc.desk.game_of, linked.event_id)
    checked = preview(request, form, linked.a, linked.b, plugin, figures_required=False)
    return str(checked.get("text") or checked.get("error") or "")


def _page(
    request: Request,
    svc: TournamentService,
    token: str,
    linked: table_links.LinkedTable,
    *,
    status: int = 200,
    values: dict[str, str] | None = None,
    error: str = "",
) -> HTMLResponse:
    _ = gettext_for(getattr(request.state, "lang", "en"))
    entry = linked.entry
    mine = entry is not None and entry.side == linked.side
    sides = {linked.a: "A", linked.b: "B"}
    rules = field_errors.game_rules(game(linked.game))
    fault = field_errors.locate(error, rules, _, sides) if error else None
    if values is None:
        values = dict(entry.document.get("form", {})) if entry is not None and mine else {}
    players_form = game(linked.game).players_form
    choices = players_form.choices if players_form is not None else frozenset()
    context = {
        "token": token,
        "t": linked,
        "me": linked.a if linked.side == "A" else linked.b,
        "entry": entry,
        "mine": mine,
        "entry_text": _text(request, svc, linked, entry.document.get("form", {})) if entry else "",
        "state": STATES.get(entry.state if entry else table_links.WAITING, ""),
        "values": values,
        "fault": fault,
        "error": error,
        "pb_tiebreaks": bool(svc.desk.pb_tiebreaks(linked.event_id)),
        "players_form": players_form,
        # the ways a game ends that the players may give (the game's `choices`)
        "reasons": {k: v for k, v in reasons_of(game(linked.game)).items() if k in choices},
        "closed": _(CLOSED[linked.closed]) if linked.closed else "",
    }
    if linked.closed and status == 200:
        status = 409
    return render(request, "table/entry.html", context, status_code=status)


@router.get("/t/{token}")
def table_page(token: str, request: Request, svc: TournamentService = Depends(tournament)):
    """The table's page on a player's phone: the pairing, the result form, the other
    side's entry to confirm. 409 once the link is dead (the page says why)."""
    linked, own = _open(request, svc, token)
    if own is not None:
        return own.page(request, token, linked)
    return _page(request, svc, token, linked)


@router.post("/t/{token}")
async def enter_result(token: str, request: Request, svc: TournamentService = Depends(tournament)):
    """One side enters its table's result (a played game's sheet; a Mahjong seat its
    table's hands, `mahjong_entry`)."""
    # (The docstring is the route's OpenAPI description, kept word for word: a game's own
    # link, `Game.own_links`, is answered by its own module, Mahjong's `web/entry.py`.)
    security.same_origin(request)
    linked, own = _open(request, svc, token)
    if own is not None:
        return own.enter(request, svc, token, linked, await read_form(request))
    if linked.closed:
        return _page(request, svc, token, linked)
    players_form = game(linked.game).players_form
    if players_form is None:
        raise HTTPException(400, f"a {linked.game} table's result is entered at the desk")
    # The fields a player's form may hold (stored with the entry, to show it again).
    posted = await read_form(request)
    form = {k: v for k, v in posted.items() if k in players_form.fields}
    form |= {"entry": QUICK, "kind": "sheet"}
    refusal = players_form.refuse(form)
    if refusal is not None:
        error = gettext_for(getattr(request.state, "lang", "en"))(refusal)
        return _page(request, svc, token, linked, status=400, values=form, error=error)
    plugin = found(svc.desk.game_of, linked.event_id)
    required = bool(svc.desk.pb_tiebreaks(linked.event_id))
    checked = preview(request, form, linked.a, linked.b, plugin, figures_required=required)
    if not checked["ok"]:
        return _page(request, svc, token, linked, status=400, values=form, error=checked["error"])
    try:
        sheet = read_result(
            desk_form_of(plugin), form, linked.a, linked.b, figures_required=required
        )
        svc.table_links.enter_by_link(token, sheet, form, now_of(request))
    except table_links.LinkClosed:
        return _page(request, svc, token, svc.table_links.open_table_link(token))
    except TournamentError as exc:
        return _page(request, svc, token, linked, status=400, values=form, error=str(exc))
    return see(f"/t/{token}")


@router.post("/t/{token}/answer")
async def answer_entry(token: str, request: Request, svc: TournamentService = Depends(tournament)):
    """The other side confirms (`agree=yes`) or disputes (`agree=no`) the entry it is
    shown."""
    security.same_origin(request)
    linked, own = _open(request, svc, token)
    agree = (await read_form(request)).get("agree")
    if agree not in ("yes", "no"):
        raise HTTPException(400, "agree: choose yes or no")
    if own is not None:
        return own.answer(request, svc, token, linked, agree == "yes")
    try:
        svc.table_links.answer_by_link(token, agree == "yes", now_of(request))
    except table_links.LinkClosed:
        return _page(request, svc, token, svc.table_links.open_table_link(token))
    except TournamentError as exc:
        return _page(request, svc, token, linked, status=409, error=str(exc))
    return see(f"/t/{token}")


# ------------------------------------------------------------------------- the desk


# The desk's routes also answer 401 without the event's desk session.
DESK = page_errors(401)


@router.post("/desk/{event_id}/rounds/{number}/tables/{table}/approve", responses=DESK)
async def approve(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: TournamentService = Depends(tournament),
):
    """The desk stores the result both players confirmed (the desk's own save)."""
    try:
        found(svc.table_links.approve_player_entry, event_id, number, table, now_of(request))
    except TournamentError as exc:
        raise HTTPException(409, str(exc)) from None
    return see(f"/desk/{event_id}/rounds/{number}#table-{table}")


@router.post("/desk/{event_id}/table-links", responses=DESK)
async def accept_confirmed(
    event_id: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: TournamentService = Depends(tournament),
):
    """The event's setting: results both sides confirmed are stored by themselves
    (`auto=on`), or wait for the desk's approval."""
    form = await read_form(request)
    svc.table_links.set_accepts_confirmed(event_id, form.get("auto") == "on")
    back = form.get("round", "")
    return see(
        f"/desk/{event_id}/rounds/{back}#table-entries" if is_digits(back) else f"/desk/{event_id}"
    )
