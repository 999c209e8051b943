"""The arbiter desk's pages for a knockout drawn by lots and for a team event (issue 17) —
routes only, like the desk's other modules: form in, one `TournamentService` call, page or redirect.

Knockout (seed 004 §9, articles 6, 13.4, 13.5): the bracket (`/desk/{id}/bracket`: rounds as
columns, ties with their game scores, the bye holder), the round's drawing of lots (from a
seed, drawn here and shown, or the cards as drawn at the venue), a tie's page with the form
of its next game (the colours of that game as `minimatch.first_colour` says) and the lots
of a tie still level after its extra games.

Teams (12.1-12.5, 13.2, 13.3, 14.2): teams with their board order, the line-up of the next
round (board order kept, substitutes), and each team match's card, board by board (each
board's result is entered on the table's own result form).

Access is the desk's (`desk_reader` / `desk_writer`: PIN session, same origin, CSRF).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from ball.games import game as game_named
from ball.games.forms import form_int
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.service import TournamentService
from ball.tournament.tie_service import SEED_LIMIT
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_reader, desk_writer, not_found, read_form, tournament
from ball.web.core.templating import N_, render
from ball.web.desk import field_errors
from ball.web.desk.forms import result_args, result_kind
from ball.web.desk.pages import fail as _fail
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import refused as _refused
from ball.web.desk.pages import see as _see
from ball.web.desk.preview import desk_form_of, reasons_of
from ball.web.desk.rounds import refused_control
from ball.web.public.formats import PHASE_WORDS, TIE_WORDS

router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 422, 429)},
)

Service = TournamentService

# The pairing methods of these rounds (`Round.method`), which the round pages translate.
METHOD_WORDS = (
    N_("drawing of lots"),
    N_("FIDE Berger tables over the teams, colours by board (13.2)"),
)
MAX_CARD_TEXT = 8  # "12R": a lot card is short; longer is a slip


def _common(svc: Service, event_id: int, arbiter: security.Arbiter) -> dict[str, Any]:
    return {
        "csrf": arbiter.csrf,
        "tie_words": TIE_WORDS,
        "phase_words": PHASE_WORDS,
        "formats": svc.formats.event_formats(event_id),
    }


# --------------------------------------------------------------------------- knockout


@router.get("/{event_id}/bracket")
def bracket_page(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(request, "desk/bracket.html", _bracket_context(svc, event_id, arbiter))


def _bracket_context(svc: Service, event_id: int, arbiter) -> dict[str, Any]:
    bracket = _found(svc.formats.bracket, event_id)
    context = {"event": bracket.event, "bracket": bracket, **_common(svc, event_id, arbiter)}
    return context | {"values": {}, "fault": None, "error": ""}


def _cards_from_form(form: dict[str, Any]) -> dict[str, str]:
    """The cards typed per entrant (`name_i` and `card_i`), every entrant's box filled."""
    cards: dict[str, str] = {}
    for key, name in form.items():
        if not key.startswith("name_") or not isinstance(name, str):
            continue
        card = (form.get("card_" + key[5:]) or "").strip()
        if not card:
            raise TournamentError(f"card of {name!r}: write the card drawn (3R, 3B or K)")
        if len(card) > MAX_CARD_TEXT:
            raise TournamentError(f"card of {name!r}: {card[:MAX_CARD_TEXT]!r}… is not a card")
        cards[name] = card
    if not cards:
        raise TournamentError("cards: nobody's card was sent")
    return cards


@router.post("/{event_id}/draw")
async def draw_round(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Pair the next round by the drawing of lots: here from a seed (typed, or a fresh
    one), or the cards as drawn at the venue (`how=cards`). The seed is shown and logged."""
    form = await read_form(request)
    back = f"/desk/{event_id}/bracket"
    try:
        # Off the event loop, as the desk's other pairings (desk.pair_round).
        if form.get("how") == "cards":
            cards = _cards_from_form(form)
            await run_in_threadpool(svc.knockout.draw_round, cards=cards, event=event_id)
        else:
            seed = form_int(form, "seed", high=SEED_LIMIT)
            await run_in_threadpool(svc.knockout.draw_round, seed=seed, event=event_id)
    except TournamentError as exc:  # the bracket page again, the draw as typed
        try:
            context = _bracket_context(svc, event_id, arbiter)
        except (TournamentError, HTTPException):  # no bracket (not a knockout): no page
            return _fail(request, 400, str(exc), back)
        sides = {v: k[5:] for k, v in form.items() if k.startswith("name_") and isinstance(v, str)}
        rules = field_errors.DRAW_RULES
        return _refused(request, "desk/bracket.html", context, str(exc), rules, form, sides=sides)
    return _see(back + "#draws")


def _tie(svc: Service, event_id: int, number: int, table: int):
    bracket = _found(svc.formats.bracket, event_id)
    rnd = next((r for r in bracket.rounds if r.number == number), None)
    tie = next((t for t in rnd.ties if t.table == table), None) if rnd else None
    if tie is None:
        raise not_found(NotFound(f"round {number} has no tie at table {table}"))
    return bracket, tie


@router.get("/{event_id}/rounds/{number}/ties/{table}")
def tie_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(request, "desk/tie.html", _tie_context(svc, event_id, number, table, arbiter))


def _tie_context(svc: Service, event_id: int, number: int, table: int, arbiter) -> dict[str, Any]:
    bracket, tie = _tie(svc, event_id, number, table)
    return {
        "event": bracket.event,
        "bracket": bracket,
        "number": number,
        "tie": tie,
        "reasons": reasons_of(game_named(bracket.event.game)),
        **_common(svc, event_id, arbiter),
        "values": {},
        "fault": None,
        "error": "",
    }


def _game_args(game: str, form: dict[str, Any], first: str, second: str) -> dict[str, Any]:
    """One game's result from the tie form: its coach A / Red is the first colour."""
    return result_args(result_kind(form), form, first, second, desk_form_of(game_named(game)))


@router.post("/{event_id}/rounds/{number}/ties/{table}/games")
async def record_game(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}/ties/{table}"
    bracket, tie = _tie(svc, event_id, number, table)
    second = tie.b if tie.next_first == tie.a else tie.a
    try:
        game = form_int(form, "game", low=1, high=999)
        if game is None or tie.next_game is None or tie.next_first is None:
            raise TournamentError("game: no game of this tie is due")
        args = _game_args(bracket.event.game, form, tie.next_first, second)
        svc.knockout.record_tie_game(number, table, game, **args, event=event_id)
    except TournamentError as exc:  # the tie page again, the game as typed
        context = _tie_context(svc, event_id, number, table, arbiter)
        rules = field_errors.game_rules(game_named(bracket.event.game))
        sides = {tie.next_first or "": "A", second: "B"}
        error = getattr(exc, "fault", str(exc))  # IllegalSheet: the form is the sheet
        return _refused(request, "desk/tie.html", context, error, rules, form, sides=sides)
    return _see(back)


@router.post("/{event_id}/rounds/{number}/ties/{table}/lots")
async def tie_lots(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """A tie level after its extra games: the winner drawn at the venue, or from a seed."""
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}/ties/{table}"
    _tie(svc, event_id, number, table)
    try:
        _draw_lots(svc, form, event_id, number, table)
    except TournamentError as exc:  # the tie page again, the lots form as typed
        context = _tie_context(svc, event_id, number, table, arbiter)
        rules = field_errors.LOTS_RULES
        return _refused(request, "desk/tie.html", context, str(exc), rules, form)
    return _see(back)


@router.post("/{event_id}/rounds/{number}/tables/{table}/lots")
async def match_lots(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """A one-game knockout match still drawn after its last replay (article 6): the winner
    drawn at the venue, or drawn here from a seed (shown and logged). The round page offers
    it beside the table (`lots_due`), so the desk never needs the CLI to go on."""
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.events.event_info, event_id)
    try:
        _draw_lots(svc, form, event_id, number, table)
    except TournamentError as exc:  # the round page again, at this table's lots forms
        return refused_control(request, svc, event_id, number, str(exc), form, table=table,
                                which="lots")  # fmt: skip
    return _see(f"{back}#table-{table}")


def _draw_lots(svc: Service, form: dict[str, Any], event_id: int, number: int, table: int) -> None:
    """The drawing of lots a form asks for: `how=winner` with the `winner` drawn at the
    venue, else from the typed `seed` (a fresh one when empty)."""
    if form.get("how") == "winner":
        winner = (form.get("winner") or "").strip()
        if not winner:
            raise TournamentError("winner: choose who won the drawing of lots")
        svc.knockout.draw_tie_lots(number, table, winner=winner, event=event_id)
    else:
        seed = form_int(form, "seed", high=SEED_LIMIT)
        svc.knockout.draw_tie_lots(number, table, seed=seed, event=event_id)


# ------------------------------------------------------------------------------ teams


@router.get("/{event_id}/teams")
def teams_page(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(request, "desk/teams.html", _teams_context(svc, event_id, arbiter))


def _teams_context(svc: Service, event_id: int, arbiter) -> dict[str, Any]:
    page = _found(svc.formats.teams_page, event_id)
    context = {"event": page.event, "page": page, **_common(svc, event_id, arbiter)}
    return context | {"values": {}, "fault": None, "error": "", "refused": ""}


@router.post("/{event_id}/teams")
async def add_team(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """A team and its players, one a line (`NAME` or `NAME=RATING`)."""
    form = await read_form(request)
    back = f"/desk/{event_id}/teams"
    players = [line.strip() for line in (form.get("players") or "").splitlines() if line.strip()]
    try:
        svc.teams.add_team(form.get("name", "").strip(), players, event=event_id)
    except TournamentError as exc:  # the teams page again, the team as typed
        context = _teams_context(svc, event_id, arbiter) | {"refused": "team"}
        rules = field_errors.TEAM_RULES
        return _refused(request, "desk/teams.html", context, str(exc), rules, form)
    return _see(back + "#teams")


@router.post("/{event_id}/teams/lineup")
async def set_lineup(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """The line-up a team declares for the next round (12.3): one player per board."""
    form = await read_form(request)
    back = f"/desk/{event_id}/teams"
    page = _found(svc.formats.teams_page, event_id)
    fielded = [(form.get(f"board_{b}") or "").strip() for b in range(1, page.boards + 1)]
    try:
        if any(not name for name in fielded):
            raise TournamentError("line-up: choose a player for every board")
        svc.teams.set_lineup(form.get("team", ""), page.next_round, fielded, event=event_id)
    except TournamentError as exc:  # at the top of that team's line-up form, as chosen
        context = _teams_context(svc, event_id, arbiter) | {"refused": "lineup"}
        return _refused(request, "desk/teams.html", context, str(exc), (), form)
    return _see(back + "#lineups")


@router.get("/{event_id}/rounds/{number}/matches/{match}")
def match_card(
    event_id: int,
    number: int,
    match: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    card = _found(svc.formats.match_card, event_id, number, match)
    event = _found(svc.desk.event_page, event_id)
    context = {"event": event, "card": card, **_common(svc, event_id, arbiter)}
    return render(request, "desk/match_card.html", context)
