"""The desk's BALL score sheet: the full form (each half's touchdown and every coach's
PBATK and PBDEF) and the quick form (who scored in each half and, when given, each coach's
PBATK), read into a score sheet (`ball.games.ball.match.result` format) in one step, and
filled back from a stored sheet. The sheet's rules are the match layer's (`decide`), not
the form's: the form only turns fields into figures, naming the field at fault.

Coach A is ATK first in half 1, coach B in half 2 (the tournament's convention)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ball.games.errors import TournamentError
from ball.games.forms import QUICK
from ball.i18n import N_

STEAL_ROWS = 4  # steal lines per half on the sheet
# How a match is decided (`ball.games.ball.match.result` reasons), in the preview's words.
REASONS = {
    "touchdowns": N_("touchdowns"),
    "attack-efficiency": N_("attack efficiency"),
    "defensive-superiority": N_("defensive superiority"),
    "draw": N_("draw"),
    "forfeit": N_("forfeit"),
}
# The preview's sentences: the score is the touchdowns ("1–0").
WINS = N_("%(winner)s wins %(td)s by %(reason)s")
DRAW = N_("Draw %(td)s (%(reason)s)")
DOUBLE_FORFEIT = N_("Double forfeit: both coaches lose 0-2.")
SIDES = ("A", "B")
# The quick form's fields: each half's touchdown and each coach's PBATK.
QUICK_FIELDS = tuple(
    f"h{half}_{key}" for half in (1, 2) for key in ("td", *(f"{side}_atk" for side in SIDES))
)


def sheet_from_form(form: Mapping[str, Any], a: str, b: str) -> dict[str, Any]:
    """The score sheet of the full form's fields; the quick form's (`entry=quick`) with
    every PB required, as `quick_sheet_from_form` reads it."""
    if form.get("entry") == QUICK:
        return quick_sheet_from_form(form, a, b, True)
    coaches = {"A": a, "B": b}
    halves = []
    for half, atk in ((1, "A"), (2, "B")):
        pb = {
            coaches[side]: {n: _figure(form, half, side, n, coaches[side]) for n in ("atk", "def")}
            for side in SIDES
        }
        td = _touchdown(form, half)
        halves.append({"atk_first": coaches[atk], "td": coaches.get(td), "pb": pb})
    return {"coaches": [a, b], "halves": halves}


def quick_sheet_from_form(
    form: Mapping[str, Any], a: str, b: str, pb_required: bool
) -> dict[str, Any]:
    """The score sheet of the quick result form: who scored in each half and, when given,
    each coach's PBATK per half — the ball clock's figures once, since dual entry makes a
    coach's PBDEF the other's PBATK. A half whose PB is left empty is stored as not
    recorded (`"pb": null`), which `decide` accepts only when the touchdowns decide;
    `pb_required` (the event's tie-breaks read PB) makes them required. With every figure
    given the sheet is the very one the full form builds for the same game."""
    coaches = {"A": a, "B": b}
    halves = []
    for half, atk in ((1, "A"), (2, "B")):
        td = _touchdown(form, half)
        given = any((form.get(f"h{half}_{side}_atk") or "").strip() for side in coaches)
        pb = None
        if given or pb_required:
            x, y = (_figure(form, half, side, "atk", name) for side, name in coaches.items())
            pb = {a: {"atk": x, "def": y}, b: {"atk": y, "def": x}}
        halves.append({"atk_first": coaches[atk], "td": coaches.get(td), "pb": pb})
    return {"coaches": [a, b], "halves": halves}


def _touchdown(form: Mapping[str, Any], half: int) -> str:
    td = form.get(f"h{half}_td") or ""
    if td not in ("", "A", "B"):
        raise TournamentError(f"half {half}: touchdown by {td!r}, choose A, B or nobody")
    return str(td)


def _figure(form: Mapping[str, Any], half: int, side: str, name: str, coach: str) -> int:
    """A coach's PBATK or PBDEF (`name`: atk, def) of one half, a whole number."""
    raw = (form.get(f"h{half}_{side}_{name}") or "").strip()
    label = f"half {half}: PB{name.upper()} of {coach}"
    if raw == "":
        raise TournamentError(f"{label} is empty")
    try:
        return int(raw)
    except ValueError:
        raise TournamentError(f"{label}: {raw!r} is not a whole number") from None


def sheet_values(sheet: Mapping[str, Any], a: str, b: str) -> dict[str, str]:
    """The full form's fields of a stored score sheet: each half's touchdown and PB (a
    stored result's, or the players' entry the desk checks), and a forfeit the sheet
    records (R-forfeit: `forfeit` names the loser) as the form's kind."""
    side = {a: "A", b: "B"}
    values: dict[str, str] = {}
    if sheet.get("forfeit") in side:
        values["kind"] = f"forfeit-{side[sheet['forfeit']]}"
    for half, data in enumerate(sheet.get("halves") or [], start=1):
        if not data:
            continue
        values[f"h{half}_td"] = side.get(data.get("td"), "")
        for coach, counters in (data.get("pb") or {}).items():  # None: not recorded
            for name in ("atk", "def"):
                values[f"h{half}_{side[coach]}_{name}"] = str(counters[name])
    return values


def score(decision: Mapping[str, Any], a: str, b: str) -> str:
    """The touchdowns a decision states, coach A first ("1–0")."""
    td = decision.get("td")
    if isinstance(td, Mapping) and a in td and b in td:
        return f"{td[a]}–{td[b]}"
    return str(decision.get("result", ""))
