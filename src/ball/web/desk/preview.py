"""What saving a table's result form would decide, or its first fault: the "as you
type" check and the save ask the event's game (`Game.decide`), as `record_table_result`
does, so every game previews with its own rules, stated in its form's words
(`DeskForm.wins`, `draw`, `reasons`)."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from fastapi import HTTPException, Request

from ball.games.protocol import Decided, DeskForm, Game
from ball.tournament import table_result
from ball.tournament.errors import IllegalSheet, TournamentError
from ball.web.desk.forms import read_result, result_kind, sanctions_from_form, steals_from_form
from ball.web.desk.pages import translator as _t


def reasons_of(plugin: Game) -> Mapping[str, str]:
    """How the game's result form names the ways a game ends (`DeskForm.reasons`): its
    templates' choices; none for a game without a form at the desk."""
    return plugin.desk_form.reasons if plugin.desk_form is not None else {}


def desk_form_of(plugin: Game) -> DeskForm:
    """The game's result form at the desk; 404 for a game whose desk takes none."""
    if plugin.desk_form is None:
        raise HTTPException(404, f"a {plugin.name} table's result is not entered on this form")
    return plugin.desk_form


def _forfeit(plugin: Game, a: str, b: str, loser: str) -> Decided:
    """A forfeit as the save records it: the game's forfeit figures, no document to check
    (`record_table_result` asks `plugin.forfeit` alone). A game whose result document can
    state a forfeit (BALL, R-forfeit: `forfeit` names the loser) gives its full decision."""
    names = {"A": a, "B": b}
    winner = "B" if loser == "A" else "A"
    decision: dict[str, Any] = {"winner": names[winner], "reason": "forfeit"}
    document = {"coaches": [a, b], "halves": [], "forfeit": names[loser]}
    with suppress(TournamentError):  # a document without that form: the forfeit needs none
        decision = plugin.decide(document).decision
    return Decided(winner, plugin.forfeit(winner), decision)


def _forfeit_preview(request: Request, plugin: Game, a: str, b: str, kind: str) -> dict[str, Any]:
    """A forfeit: shown as + / - where the game marks forfeits so (`Game.forfeit_marks`),
    else as the game decides it (its forfeit score)."""
    if plugin.forfeit_marks:
        _ = _t(request)
        winner = b if kind.endswith("A") else a
        text = _("%(winner)s wins by forfeit (+/-)") % {"winner": winner}
        return {"ok": True, "kind": kind, "winner": winner, "text": text}
    return _decided(request, plugin, _forfeit(plugin, a, b, kind[-1]), a, b, kind)


def _decided(
    request: Request, plugin: Game, decided: Decided, a: str, b: str, kind: str
) -> dict[str, Any]:
    """The decision in the form's words; its fields are passed on as they are."""
    _ = _t(request)
    form = desk_form_of(plugin)
    decision = decided.decision
    winner = {"A": a, "B": b}.get(decided.outcome)
    reason = str(decision.get("reason", ""))
    words = {
        "winner": winner,
        "td": form.score(decision, a, b),
        "reason": _(form.reasons.get(reason, reason)),
        "article": decision.get("article", ""),
    }
    text = _(form.draw if winner is None else form.wins) % words
    text = " ".join(text.split())  # a decision without a score leaves a gap
    return {"ok": True, "kind": kind, **decision, "winner": winner, "text": text}


def preview(
    request: Request,
    form: dict[str, Any],
    a: str,
    b: str,
    plugin: Game,
    *,
    figures_required: bool = True,
) -> dict[str, Any]:
    """What saving this form would decide, or the first fault. The event's game reads its
    form (`DeskForm`) and decides (`plugin.decide`, as `record_table_result` does), so an
    event of another game previews with its own rules. `figures_required`: a quick result
    must give the figures the event's tie-breaks read (`Game.pb_tiebreaks`)."""
    desk_form = desk_form_of(plugin)
    names = {"A": a, "B": b}
    try:
        kind = result_kind(form)
        table_result.check_steals(steals_from_form(form, desk_form.steal_rows), names)
        table_result.check_sanctions(sanctions_from_form(form), kind, names, plugin.ladder)
        if kind == "double-forfeit":
            return {"ok": True, "kind": kind, "text": _t(request)(desk_form.double_forfeit)}
        if kind.startswith("forfeit-"):
            return _forfeit_preview(request, plugin, a, b, kind)
        document = read_result(desk_form, form, a, b, figures_required=figures_required)
        decided = plugin.decide(document)
    except IllegalSheet as exc:
        return {"ok": False, "error": exc.fault}  # the form is the sheet: no "illegal sheet"
    except TournamentError as exc:
        return {"ok": False, "error": str(exc)}
    return _decided(request, plugin, decided, a, b, kind)
