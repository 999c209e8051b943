"""BALL's score sheets on paper (`Paper.score_sheets`): a round's played tables printed as
spec 13's score sheet, filled from the sheet the desk entered and decided by
`ball.games.ball.match.result.decide` (halves, PB, touchdowns, SD, the deciding criterion,
R-forfeit's 0-2), and a table's result written as the sheet's score on the pairing list.

The view models (`ScoreSheet`, `HalfSheet`, `MatchResult`) are BALL's printed forms
(`forms`); this module decides what BALL writes on them, for its round's forms
(`round_forms`) and for the shared pairing list (`Paper.results`), so the shared printing
never decides a BALL sheet itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ball.games.ball.match.result import Decision, SheetError, decide
from ball.games.ball.paper.forms import HalfSheet, MatchResult, SanctionRow, ScoreSheet, Side
from ball.printing.forms import Header

if TYPE_CHECKING:
    from ball.tournament.outcomes import TableOutcome

# `decide`'s reasons -> the score sheet's "deciding criterion" boxes.
_CRITERIA = {
    "touchdowns": "td",
    "attack-efficiency": "efficiency",
    "defensive-superiority": "defence",
    "draw": "draw",
    "forfeit": "forfeit",
}


def unfinished_half(data: dict[str, Any]) -> int | None:
    """The half a forfeit interrupted (R-forfeit, D-35): the last half listed, unless it was
    played to its end (a touchdown, or `end: time`); None without a forfeit. The forfeit
    record keeps that half's data, and the score sheet marks it research only."""
    halves = [h for h in data.get("halves") or [] if h is not None]
    if not data.get("forfeit") or not halves:
        return None
    last = halves[-1]
    if last.get("td") or last.get("end") == "time":
        return None
    return len(halves)


def result_text(table: TableOutcome) -> str:
    """A played table's result on the pairing list, as the sheet's score: touchdowns, a
    forfeit lost 0-2 (R-forfeit), nobody scoring in a double forfeit; "" before a result."""
    result = table.result
    if not result:
        return ""
    if result.kind == "forfeit":
        return "0-2 F" if result.forfeit_by == "A" else "2-0 F"
    if result.kind != "sheet" or not result.sheet:
        return "0-0 FF"  # double forfeit: nobody scores
    decision = decide(result.sheet)
    a, b = result.sheet["coaches"]
    return f"{decision.td[a]}-{decision.td[b]}"


def score_sheet(header: Header, table: TableOutcome, sanctions: list[SanctionRow]) -> ScoreSheet:
    """A played table's score sheet: its coaches and sanctions, and once a result is entered
    the halves and the decision of its sheet (a forfeit's administrative 0-2 without one)."""
    sheet = ScoreSheet(
        header=header,
        table=str(table.table),
        coach_a=table.a,
        coach_b=table.b or "",
        sanctions=sanctions,
    )
    result = table.result
    if result and result.kind in ("sheet", "forfeit") and result.sheet:
        # a forfeit entered on a sheet keeps the halves played: they print for research
        try:
            _fill_from_sheet(sheet, result.sheet)
            return sheet
        except SheetError:
            if result.kind != "forfeit":
                raise
            # stored before D-35 refused it (a forfeit after two played halves): the
            # halves still print, with the administrative result that was recorded
    if result and result.kind == "forfeit":
        loser: Side = "A" if result.forfeit_by == "A" else "B"
        winner: Side = "B" if loser == "A" else "A"
        sheet.result = MatchResult(td={winner: 2, loser: 0}, criterion="forfeit", winner=winner)
    return sheet


def _fill_from_sheet(sheet: ScoreSheet, data: dict[str, Any]) -> None:
    """Copy an entered score sheet (`ball.games.ball.match.result`'s format, coach A first)
    onto the form."""
    a, b = data["coaches"]
    side: dict[str, Side] = {a: "A", b: "B"}
    unfinished = unfinished_half(data)
    for number, half in enumerate(data.get("halves") or [], start=1):
        if half is None or number > len(sheet.halves):
            continue
        sheet.halves[number - 1] = HalfSheet(
            number,
            side[half["atk_first"]],
            pb=_pb_of(half, side),
            touchdown=side[half["td"]] if half.get("td") else "none",
            td_pbatk=half["pb"][half["td"]]["atk"] if half.get("td") and half["pb"] else None,
            research_only=number == unfinished,
        )
    decision = decide(data)
    criterion = _CRITERIA.get(decision.reason)
    if criterion == "defence" and decision.td[a] > 0:
        criterion = "efficiency_sd"  # a 1-1 with equal PBATK decided by SD (D-18), not a 0-0
    sheet.result = MatchResult(
        td={side[c]: n for c, n in decision.td.items()},
        sd=_sd_of(decision, side),
        criterion=criterion,  # type: ignore[arg-type]
        winner=side[decision.winner] if decision.winner else "draw",
    )


def _pb_of(half: dict[str, Any], side: dict[str, Side]) -> dict[Side, dict[str, int]] | None:
    """A half's PB by side; None when not recorded (a quick result: the boxes stay empty)."""
    if half.get("pb") is None:
        return None
    return {side[c]: {"atk": v["atk"], "def": v["def"]} for c, v in half["pb"].items()}


def _sd_of(decision: Decision, side: dict[str, Side]) -> dict[Side, int] | None:
    """SD by side, or None: a forfeit has none, nor a quick result without PB (a coach's
    SD unknown)."""
    if decision.reason == "forfeit":
        return None
    known = {side[c]: n for c, n in decision.sd.items() if n is not None}
    return known if len(known) == len(decision.sd) else None
