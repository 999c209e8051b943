"""A table's result at the desk (`/desk/{id}/rounds/{n}/tables/{t}`): the full and the
quick result form, the "as you type" check, the save (one `record_table_result` call:
result, steals and sanctions in one transaction with the table's version; a retry after
a lost answer is answered like the first save, another arbiter's save first is 409) and
the board a table's game is recorded on."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, HTTPException, Request
from fastapi.responses import JSONResponse

from ball.games import game, load
from ball.games.forms import QUICK, form_int
from ball.games.protocol import DeskForm, Game
from ball.tournament import table_result
from ball.tournament.errors import TournamentError
from ball.web.core import security
from ball.web.core.deps import desk_reader, desk_writer, now_of, read_form, service_for, tournament
from ball.web.core.templating import N_, render
from ball.web.desk import field_errors
from ball.web.desk.forms import (
    SANCTION_ROWS,
    form_values,
    result_args,
    sanctions_from_form,
    steals_from_form,
)
from ball.web.desk.lateness import ruled_preview
from ball.web.desk.pages import Service, desk_router
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import see as _see
from ball.web.desk.pages import translator as _t
from ball.web.desk.preview import desk_form_of, preview, reasons_of
from ball.web.public.display import tiebreak_words

router = desk_router()

def _board(plugin: Game) -> Any | None:
    """The game's board a table's game is recorded on (`Game.table_board`), or None."""
    return None if plugin.table_board is None else load(plugin.table_board)


def _recorded(request: Request, page) -> dict[str, Any] | None:
    """How the game recorded on the board for this table ended, if it has (else None)."""
    board = _board(game(page.event.game))
    if board is None:
        return None
    return board.ending(request, page.event.id, page.round.number, page.pairing.table)


def _table_link(request: Request, plugin: Game, event_id: int, number: int, table: int):
    """The recorded game's board with the table's device key: for the table's tablet."""
    board = _board(plugin)
    return None if board is None else board.link(request, event_id, number, table)


def _offered(
    values: dict[str, str], recorded: dict[str, Any] | None, form: DeskForm
) -> dict[str, str]:
    """The empty form pre-filled from the recorded game (`DeskForm.offer`): the arbiter still
    checks and saves."""
    if recorded is None or form.offer is None:
        return values
    return form.offer(values, recorded)


def _players_entry(request: Request, page, values: dict[str, str]) -> tuple[Any, dict[str, str]]:
    """The players' entry of a table without a result (issue 35 §1, `table_entry`), and the
    form filled from it: the arbiter checks it and saves, or enters another result."""
    if page.pairing.result is not None or page.pairing.b is None:
        return None, values
    entries = service_for(request.app).table_links.player_entries(page.event.id, page.round.number)
    entry = entries.get(page.pairing.table)
    if entry is None:
        return None, values
    form = desk_form_of(game(page.event.game))
    entered = form.values(entry.document["sheet"], page.pairing.a.name, page.pairing.b.name)
    return entry, {**values, "kind": "sheet", **entered}


def _result_context(request: Request, page, arbiter: security.Arbiter, **extra) -> dict[str, Any]:
    plugin = game(page.event.game)
    form = desk_form_of(plugin)
    recorded = _recorded(request, page)
    entry, values = _players_entry(
        request, page, _offered(form_values(page.pairing, form, page.steals), recorded, form)
    )
    return {
        "players_entry": entry,
        "recorded": recorded,
        "table_link": _table_link(
            request, plugin, page.event.id, page.round.number, page.pairing.table
        ),
        "event": page.event,
        "round": page.round,
        "pairing": page.pairing,
        "current": page.pairing.result,
        "version": page.version,
        "values": values,
        "csrf": arbiter.csrf,
        "ladder": game(page.event.game).ladder.names,
        "reasons": reasons_of(plugin),
        "suggest": page.suggest,
        "steal_rows": range(form.steal_rows),
        "sanction_rows": range(SANCTION_ROWS),
        "preview": None,
        "error": "",
        "fault": None,
        **extra,
    }


def _fault(request: Request, plugin: Game, error: str, page) -> field_errors.Fault | None:
    """The refusal `error` as the game's result form shows it: beside its field, in words."""
    if not error:
        return None
    sides = {page.pairing.a.name: "A", page.pairing.b.name: "B"}
    return field_errors.locate(error, field_errors.game_rules(plugin), _t(request), sides)


def _quick_context(request: Request, svc: Service, event_id: int) -> dict[str, Any]:
    """What the quick result form asks besides the touchdowns: the PB always when the
    event's tie-breaks read them (named, so the form can say why)."""
    _ = _t(request)
    plugin = _found(svc.desk.game_of, event_id)
    names = [_(tiebreak_words(tb, plugin)[0]) for tb in svc.desk.pb_tiebreaks(event_id)]
    return {"pb_tiebreaks": ", ".join(names)}


@router.get("/{event_id}/rounds/{number}/tables/{table}")
def result_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    page = _found(svc.desk.table_page, event_id, number, table)
    return render(request, _result_template(page), _result_context(request, page, arbiter))


@router.get("/{event_id}/rounds/{number}/tables/{table}/quick")
def quick_result_page(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    """The quick result form (issue 36 item 11): who scored in which half, and the PB only
    when they decide or the event's tie-breaks read them. It posts to the same save as
    the full sheet, which stays one link away."""
    page = _found(svc.desk.table_page, event_id, number, table)
    template = game(page.event.game).quick_form
    if template is None:
        raise HTTPException(404, f"a {page.event.game} event has no quick result form")
    context = _result_context(request, page, arbiter, **_quick_context(request, svc, event_id))
    return render(request, template, context)


@router.post("/{event_id}/rounds/{number}/tables/{table}/record")
async def record_game(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Open the board for this table's game: created hot-seat on first use, the same game
    after (Red is player A). Only a Xiangqi table with two players has one."""
    page = _found(svc.desk.table_page, event_id, number, table)
    board = _board(game(page.event.game))
    if board is None or page.pairing.b is None:
        raise HTTPException(404, f"table {table} of round {number} has no game to record")
    return _see(await board.open_for_table(request, page, number, table))


def form_template(plugin: Game) -> str:
    """The template of the game's result form (BALL's score sheet, Xiangqi's arbiter's
    document, ...)."""
    return desk_form_of(plugin).template


def _result_template(page) -> str:
    return form_template(game(page.event.game))


@router.post("/{event_id}/rounds/{number}/tables/{table}/check", response_class=JSONResponse)
async def check_result(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    _w: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """The "as you type" check: the decision `decide` gives for the form as it stands; a
    fault also says which field it is about and in the arbiter's words (`field`,
    `message`)."""
    form = await read_form(request)
    plugin = _found(svc.desk.game_of, event_id)
    pairing = _found(svc.desk.table, event_id, number, table)
    assert pairing.b is not None  # `table` answers only tables that take a result
    a, b = pairing.a.name, pairing.b.name
    required = form.get("entry") != QUICK or bool(svc.desk.pb_tiebreaks(event_id))
    checked, _late = ruled_preview(
        svc,
        event_id,
        form,
        {"A": a, "B": b},
        _t(request),
        lambda: preview(request, form, a, b, plugin, figures_required=required),
    )
    if not checked["ok"]:
        rules = field_errors.game_rules(plugin)
        located = field_errors.locate(checked["error"], rules, _t(request), {a: "A", b: "B"})
        checked |= located.as_dict()
    return JSONResponse(checked)


@router.post("/{event_id}/rounds/{number}/tables/{table}")
async def save_result(
    event_id: int,
    number: int,
    table: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: Service = Depends(tournament),
):
    """Save the form: result, steals and sanctions in one service call (one transaction).
    The same form sent again (a retry after a lost answer) is answered like the first."""
    form = await read_form(request)
    _ = _t(request)
    plugin = _found(svc.desk.game_of, event_id)
    pairing = _found(svc.desk.table, event_id, number, table)
    assert pairing.b is not None
    a, b = pairing.a.name, pairing.b.name
    quick = form.get("entry") == QUICK and plugin.quick_form is not None
    required = not quick or bool(svc.desk.pb_tiebreaks(event_id))
    checked, late = ruled_preview(
        svc,
        event_id,
        form,
        {"A": a, "B": b},
        _,
        lambda: preview(request, form, a, b, plugin, figures_required=required),
    )

    def again(status: int, **extra):
        """The form again, as typed, with why it was not saved beside its field."""
        page = _found(svc.desk.table_page, event_id, number, table)  # what is stored now
        template = (plugin.quick_form or "") if quick else _result_template(page)
        if quick:
            extra |= _quick_context(request, svc, event_id)
        context = _result_context(request, page, arbiter, **extra)
        context["values"] = {k: v for k, v in form.items() if isinstance(v, str)}
        context["fault"] = _fault(request, plugin, context["error"], page)
        return render(request, template, context, status_code=status)

    if not checked["ok"]:
        return again(400, error=checked["error"])
    if form.get("action") == "check":
        return again(200, preview=checked)
    try:
        loaded = form_int(form, "version", default=-1, low=-1)
        svc.results.record_table_result(
            number,
            table,
            **(
                {}  # the lateness ruling decides the forfeit (21.1, 21.3)
                if checked["kind"] == "lateness"
                else result_args(
                    checked["kind"], form, a, b, desk_form_of(plugin), figures_required=required
                )
            ),
            late=late or None,
            steals=steals_from_form(form, desk_form_of(plugin).steal_rows),
            sanctions=sanctions_from_form(form),
            reason=form.get("reason") or "",
            expected_version=loaded,
            at=now_of(request),
            event=event_id,
        )
    except table_result.VersionConflict:
        conflict = N_(
            "Another arbiter saved this table after you opened it. Nothing was "
            "overwritten: check the result shown and enter it again if needed."
        )
        return again(409, error=_(conflict))
    except table_result.CorrectionWithoutReason:
        return again(400, error=f"reason: {_(N_('A correction needs a reason.'))}", preview=checked)
    except TournamentError as exc:
        return again(400, error=str(exc))
    return _see(f"/desk/{event_id}/rounds/{number}#table-{table}")


