"""What saving a table's result form would decide, or its first fault: the "as you
type" check and the save ask the event's game (`Game.decide`), as `record_table_result`
does, so every game previews with its own rules."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from fastapi import Request

from ball.games.ball.match.result import SheetError
from ball.games.protocol import Decided, DeskForm, Game
from ball.tournament import table_result
from ball.tournament.errors import IllegalSheet, TournamentError
from ball.web.desk.forms import result_kind, sanctions_from_form, sheet_from_form, steals_from_form
from ball.web.desk.pages import translator as _t


def _reason_text(request: Request, reason: str) -> str:
    _ = _t(request)
    return {
        "touchdowns": _("touchdowns"),
        "attack-efficiency": _("attack efficiency"),
        "defensive-superiority": _("defensive superiority"),
        "draw": _("draw"),
        "forfeit": _("forfeit"),
    }.get(reason, reason)


def reasons_of(plugin: Game) -> Mapping[str, str]:
    """How the game's own result form names the ways a game ends (`DeskForm.reasons`): its
    templates' choices; none for a game without its own form."""
    return plugin.desk_form.reasons if plugin.desk_form is not None else {}


def _document_preview(
    request: Request, form: dict[str, Any], a: str, b: str, plugin: Game, desk_form: DeskForm
) -> dict[str, Any]:
    """A form of the game's own (`Game.desk_form`: Xiangqi's arbiter's document, ...) read
    into its result document and decided by the game (the rules live there); the decision's
    `reason` in the form's words (`DeskForm.reasons`) and its `article`."""
    _ = _t(request)
    try:
        kind = result_kind(form)
        table_result.check_sanctions(
            sanctions_from_form(form), kind, {"A": a, "B": b}, plugin.ladder
        )
        if kind == "double-forfeit":
            return {"ok": True, "kind": kind, "text": _("Double forfeit: both players lose.")}
        if kind.startswith("forfeit-"):
            winner = b if kind.endswith("A") else a
            return {"ok": True, "kind": kind, "winner": winner,
                    "text": _("%(winner)s wins by forfeit (+/-)") % {"winner": winner}}  # fmt: skip
        decided = plugin.decide(desk_form.read(form, a, b))
    except TournamentError as exc:
        return {"ok": False, "error": str(exc)}
    d = decided.decision
    reason = _(desk_form.reasons.get(d["reason"], d["reason"]))
    if d["winner"] is None:
        text = _("Draw (%(reason)s, %(article)s)") % {"reason": reason, "article": d["article"]}
    else:
        text = _("%(winner)s wins (%(reason)s, %(article)s)") % {
            "winner": d["winner"],
            "reason": reason,
            "article": d["article"],
        }
    return {"ok": True, "kind": kind, "winner": d["winner"], "reason": d["reason"], "text": text}


def _score(decision: dict[str, Any], a: str, b: str) -> str:
    """The score a decision states: BALL's touchdowns "1–0", else the game's own `result`."""
    td = decision.get("td")
    if isinstance(td, dict) and a in td and b in td:
        return f"{td[a]}–{td[b]}"
    return str(decision.get("result", ""))


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


def preview(
    request: Request,
    form: dict[str, Any],
    a: str,
    b: str,
    plugin: Game,
    *,
    pb_required: bool = True,
) -> dict[str, Any]:
    """What saving this form would decide, or the first fault. The event's game decides
    (`plugin.decide`, as `record_table_result` does), so an event of another game previews
    with its own rules; its decision's fields are passed on as they are. `pb_required`:
    a quick result must give the PB (the event's tie-breaks read them)."""
    if plugin.desk_form is not None:  # its own form: the game's result document
        return _document_preview(request, form, a, b, plugin, plugin.desk_form)
    _ = _t(request)
    try:
        kind = result_kind(form)
        table_result.check_steals(steals_from_form(form), {"A": a, "B": b})
        table_result.check_sanctions(sanctions_from_form(form), kind, {"A": a, "B": b})
        if kind == "double-forfeit":
            return {"ok": True, "kind": kind, "text": _("Double forfeit: both coaches lose 0-2.")}
        if kind.startswith("forfeit-"):
            decided = _forfeit(plugin, a, b, kind[-1])
        else:
            decided = plugin.decide(sheet_from_form(form, a, b, pb_required=pb_required))
    except IllegalSheet as exc:
        return {"ok": False, "error": exc.fault}  # the form is the sheet: no "illegal sheet"
    except (SheetError, TournamentError) as exc:
        return {"ok": False, "error": str(exc)}
    decision = decided.decision
    winner = {"A": a, "B": b}.get(decided.outcome)
    score = _score(decision, a, b)
    reason = _reason_text(request, str(decision.get("reason", "")))
    if winner is None:
        text = _("Draw %(td)s (%(reason)s)") % {"td": score, "reason": reason}
    else:
        text = _("%(winner)s wins %(td)s by %(reason)s") % {
            "winner": winner,
            "td": score,
            "reason": reason,
        }
    text = " ".join(text.split())  # a game without a score leaves a gap
    return {"ok": True, "kind": kind, **decision, "winner": winner, "text": text}

