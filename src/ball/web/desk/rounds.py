"""The desk's round page (`/desk/{id}/rounds/{n}`): pairing the next round, swapping
entrants, the round control (start signals, half ends, the table clocks of the round)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse

from ball.games import game
from ball.tournament.errors import TournamentError
from ball.tournament.pairing_check import reference
from ball.tournament.signals import clock_round_label
from ball.web.core import security
from ball.web.core.deps import (
    desk_gap,
    desk_reader,
    desk_writer,
    gap_of,
    now_of,
    read_form,
    tournament,
)
from ball.web.core.templating import N_, render
from ball.web.core.timefmt import hms, mmss
from ball.web.desk import field_errors
from ball.web.desk.entrants import refused_entrants
from ball.web.desk.forms import clock_time, swapped_tables
from ball.web.desk.groups import desk_group_tables
from ball.web.desk.pages import Service, desk_router
from ball.web.desk.pages import fail as _fail
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import refused as _refused
from ball.web.desk.pages import see as _see
from ball.web.desk.pages import translator as _t
from ball.web.public.live_pages import broadcast_published

router = desk_router()


@router.post("/{event_id}/rounds")
async def pair_round(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    number = len(_found(svc.desk.event_page, event_id).rounds_) + 1
    try:
        # Off the event loop: a Swiss round of a few hundred entrants takes seconds inside
        # the pairing engine, and the same loop answers the table clocks and public pages.
        await run_in_threadpool(svc.rounds.pair_next_round, event=event_id)
    except TournamentError as exc:  # about no field: at the top of the event page's pair form
        form = await read_form(request)
        return refused_entrants(request, svc, event_id, arbiter, "pair", str(exc), form)
    return _see(f"/desk/{event_id}/rounds/{number}")


def _pair_next(svc: Service, event_id: int, rnd) -> int | None:
    """The round to pair from this round's page: the next one, once this round is the latest
    and every table that takes a result has one (as the event page's *Pair round N*)."""
    event = _found(svc.desk.event_page, event_id)
    latest = event.rounds_[-1].number if event.rounds_ else None
    if rnd.number != latest or any(p.b is not None and p.result is None for p in rnd.pairings):
        return None
    if event.rounds is not None and latest >= event.rounds:
        return None
    return latest + 1


@router.get("/{event_id}/rounds/{number}")
def round_page(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    return render(
        request, "desk/round.html", round_context(request, svc, event_id, number, arbiter)
    )


def _gap(request: Request, svc: Service, event_id: int) -> float:
    """The rest before signal 2 of the event's game (`gap_of`): its game is read only when
    the app sets no gap of its own; an unknown event is the page's 404."""
    own = desk_gap(request)
    return own if own is not None else gap_of(request, _found(svc.desk.game_of, event_id).name)


def round_context(
    request: Request, svc: Service, event_id: int, number: int, arbiter
) -> dict[str, Any]:
    gap = _gap(request, svc, event_id)
    page = _found(svc.desk.round_page, event_id, number, now_of(request), gap)
    return {
        "quick": game(page.event.game).quick_form,
        "pair_next": _pair_next(svc, event_id, page.round),
        "event": page.event,
        "round": page.round,
        "tables": [{"p": p, "result": p.result} for p in page.round.pairings],
        "csrf": arbiter.csrf,
        "control": page.control,
        "control_json": page.control.as_dict(),
        "editable": page.editable,
        "players": page.players,
        "clock_round": clock_round_label(page.event.name, number),
        "hms": hms,
        "mmss": mmss,
        "formats": svc.formats.event_formats(event_id),
        "broadcast": broadcast_published(request, event_id, number),  # live boards public
        # one-game knockout matches of this round waiting for their drawing of lots
        "lots_due": {
            d["table"]: d["sides"]
            for d in svc.knockout.lots_due(event=event_id)
            if d["round"] == number
        },
        **desk_group_tables(svc, page.event),
        # the players' entries by their table links (`ball.web.desk.table_entry`)
        "entries": svc.table_links.player_entries(event_id, number),
        "accepts_confirmed": svc.table_links.accepts_confirmed(event_id),
        "values": {},
        "fault": None,
        "error": "",
        "refused": "",  # which form of the page was refused: "swap", "control" or "lots"
        "refused_table": None,  # the table whose half-end or lots form was refused
        "checked": svc.checks.round_verdict(number, event=event_id),  # the pairing check (issue 35)
        "reference": reference,
    }


@router.get("/{event_id}/rounds/{number}/control.json", response_class=JSONResponse)
def round_control_json(
    event_id: int, number: int, request: Request, svc: Service = Depends(tournament)
):
    sessions = request.app.state.sessions
    if security.arbiter_of(sessions, request, event_id, now_of(request)) is None:
        raise HTTPException(401, "the arbiter desk needs the event PIN")
    gap = _gap(request, svc, event_id)
    control = _found(svc.desk.round_control, event_id, number, now_of(request), gap)
    return control.as_dict()


@router.post("/{event_id}/rounds/{number}/swap")
async def swap(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.desk.require_event, event_id)
    rnd = _found(svc.desk.round_view, event_id, number)
    try:
        tables = swapped_tables(rnd, form.get("x", ""), form.get("y", ""))
    except TournamentError as exc:
        return _refused_swap(request, svc, event_id, number, arbiter, str(exc), form)
    byes = {p.a.name: p.bye for p in rnd.pairings if p.b_id is None and p.bye}
    if form.get("confirm") != "yes":
        # Show what the round would become; nothing changes until confirmed.
        return render(
            request,
            "desk/swap_confirm.html",
            {
                "event": _found(svc.desk.event_page, event_id),
                "round": rnd,
                "tables": tables,
                "x": form.get("x", ""),
                "y": form.get("y", ""),
                "reason": form.get("reason", ""),
                "csrf": arbiter.csrf,
            },
        )
    x, y = form["x"], form["y"]
    byes = {(y if a == x else x if a == y else a): kind for a, kind in byes.items()}
    reason = form.get("reason", "").strip() or f"swap {x} <-> {y}"
    try:
        svc.rounds.set_pairing(number, tables, byes=byes, reason=reason, event=event_id)
    except TournamentError as exc:
        return _refused_swap(request, svc, event_id, number, arbiter, str(exc), form)
    return _see(back)


def _refused_swap(
    request: Request, svc: Service, event_id: int, number: int, arbiter, error: str, form
) -> HTMLResponse:
    """The round page again with the swap form opened as typed and its fault beside the
    entrant it is about (`x` or `y`), else at the top of the form."""
    context = round_context(request, svc, event_id, number, arbiter) | {"refused": "swap"}
    sides = {form.get("y", ""): "y", form.get("x", ""): "x"}  # x wins when both are one name
    rules = field_errors.SWAP_RULES
    return _refused(request, "desk/round.html", context, error, rules, form, sides=sides)


def refused_control(
    request: Request,
    svc: Service,
    event_id: int,
    number: int,
    error: str,
    form,
    status: int = 400,
    table: int | None = None,
    which: str = "control",
) -> HTMLResponse:
    """The round page again with a refused round-control action (a signal, a half end) at
    the top of the round control, or beside the end time of `table`'s half-end form; or
    (`which="lots"`) a refused drawing of lots of `table`, at the top of its lots forms."""
    arbiter = security.arbiter_of(request.app.state.sessions, request, event_id, now_of(request))
    context = round_context(request, svc, event_id, number, arbiter)
    context |= {"refused": which, "refused_table": table}
    rules = field_errors.HALF_END_RULES if which == "control" else field_errors.LOTS_RULES
    return _refused(request, "desk/round.html", context, error, rules, form, status)


# ------------------------------------------------------------- the round control


@router.post("/{event_id}/rounds/{number}/signals/{which}")
async def give_signal(
    event_id: int,
    number: int,
    which: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.desk.round_view, event_id, number)
    try:
        # the app's own gap, else the service asks the event's game
        svc.arbiter.give_signal(
            number, which, at=now_of(request), gap=desk_gap(request), event=event_id
        )
    except TournamentError as exc:
        return refused_control(request, svc, event_id, number, str(exc), {}, 409)
    return _see(back + "#control")


@router.post("/{event_id}/rounds/{number}/tables/{table}/half-end")
async def half_end(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    form = await read_form(request)
    back = f"/desk/{event_id}/rounds/{number}"
    _found(svc.desk.round_view, event_id, number)
    now = now_of(request)
    try:
        at = clock_time(form, now)
        source = form.get("source", "arbiter")
        svc.desk.record_half_end_by(event_id, number, table, at=at, now=now, source=source)
    except TournamentError as exc:
        return refused_control(request, svc, event_id, number, str(exc), form, table=table)
    return _see(back + "#control")


@router.post("/{event_id}/rounds/{number}/half-ends/from-clocks")
async def half_ends_from_clocks(
    event_id: int,
    number: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Take the first-half ends the table clocks of this round reported (source "table")."""
    back = f"/desk/{event_id}/rounds/{number}"
    try:
        _found(svc.desk.record_half_ends_from_clocks, event_id, number, now_of(request))
    except TournamentError as exc:
        return refused_control(request, svc, event_id, number, str(exc), {})
    return _see(back + "#control")


@router.post("/{event_id}/rounds/{number}/clocks")
async def round_clocks(
    event_id: int,
    number: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Create the table clocks of this round in one action (issue 13): one BALL clock per
    table with two coaches, labelled with the table number, bound to the event, its players
    in pairing order so coach A attacks first (D-U1). Tables that already have a clock of
    this round are left as they are, so pressing twice makes no second clock."""
    from ball.clocks.store import ClockStore

    back = f"/desk/{event_id}/rounds/{number}"
    event = _found(svc.desk.event_page, event_id)
    rnd = _found(svc.desk.round_view, event_id, number)
    control = game(event.game).clock_control
    if control is None:
        return _fail(
            request, 400, _t(request)(N_("Table clocks from the pairing: BALL events only.")), back
        )
    label = clock_round_label(event.name, number)
    store = ClockStore(request.app.state.sessions, lambda: now_of(request))
    have = {view.table for view in store.round_views(label, event_id)}
    for p in rnd.pairings:
        if p.b is None or str(p.table) in have:
            continue
        store.create(str(p.table), control, None, [p.a.name, p.b.name], label, event_id)
    return _see(f"/clock/desk?round={quote(label)}&event={event_id}")
