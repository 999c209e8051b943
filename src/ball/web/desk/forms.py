"""The arbiter desk's HTML forms: reading them into the arguments of tournament use cases,
and filling them again from stored data. No storage, no HTTP answers: faults raise
`TournamentError` or `SheetError` with a message naming the field.
"""

from __future__ import annotations

import csv
import io
import time
from typing import Any

from ball.games.ball.match.result import SheetError
from ball.games.protocol import DeskForm
from ball.storage import ids
from ball.tournament.errors import TournamentError
from ball.tournament.names import check_name
from ball.tournament.views import PairingView, RoundView

STEAL_ROWS = 4  # steal lines per half on the form
SANCTION_ROWS = 2
CSV_FIELDS = ("name", "club", "federation", "rating")
MAX_CSV_BYTES = 200_000
KINDS = ("sheet", "forfeit-A", "forfeit-B", "double-forfeit")


def parse_entrants_csv(text: str) -> list[dict[str, Any]]:
    """Rows of an entrants CSV (header: name[,club,federation,rating]); faults name the line."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if "name" not in header:
        raise TournamentError("CSV line 1: the header must have a 'name' column")
    unknown = [h for h in header if h not in CSV_FIELDS]
    if unknown:
        raise TournamentError(
            f"CSV line 1: unknown column(s) {', '.join(unknown)}; known: {', '.join(CSV_FIELDS)}"
        )
    reader.fieldnames = header
    rows, seen = [], set()
    for line, raw in enumerate(reader, start=2):
        row = {k: (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        if not row.get("name"):
            raise TournamentError(f"CSV line {line}: the name is empty")
        for key in ("name", "club", "federation"):  # refused before anyone is added
            try:
                check_name(row.get(key, ""), key)
            except TournamentError as exc:
                raise TournamentError(f"CSV line {line}: {exc}") from None
        if row["name"] in seen:
            raise TournamentError(f"CSV line {line}: {row['name']!r} appears twice")
        seen.add(row["name"])
        rating = row.get("rating", "")
        if rating and not ids.is_digits(rating):  # isdigit() takes "²", which int() refuses
            raise TournamentError(f"CSV line {line}: rating {rating!r} is not a whole number")
        rows.append(
            {
                "name": row["name"],
                "club": row.get("club", ""),
                "federation": row.get("federation", ""),
                "rating": int(rating) if rating else None,
            }
        )
    if not rows:
        raise TournamentError("CSV: no entrant in the file")
    return rows


# --------------------------------------------------------------------------- rounds
def swapped_tables(rnd: RoundView, x: str, y: str) -> list[tuple[str, str | None]]:
    """The round's tables (coach A, coach B) by name with entrants `x` and `y` exchanged."""
    names = [(p.a.name, p.b.name if p.b is not None else None) for p in rnd.pairings]
    flat = [n for pair in names for n in pair if n is not None]
    for who in (x, y):
        if who not in flat:
            raise TournamentError(f"swap: {who!r} is not paired in round {rnd.number}")
    if x == y:
        raise TournamentError("swap: choose two different entrants")

    def other(n: str | None) -> str | None:
        return y if n == x else x if n == y else n

    return [(other(a), other(b)) for a, b in names]  # type: ignore[misc]


def clock_time(form: dict[str, Any], now: float) -> float:
    """`at` = HH:MM or HH:MM:SS today (local time of the desk) or, when blank, now."""
    raw = (form.get("at") or "").strip()
    if not raw:
        return now
    parts = raw.split(":")
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        h, m, s = (int(p) for p in parts + ["0"] * (3 - len(parts)))
        if not (0 <= h < 24 and 0 <= m < 60 and 0 <= s < 60):
            raise ValueError
    except ValueError:
        raise TournamentError(f"time: {raw!r} is not HH:MM or HH:MM:SS") from None
    day = time.localtime(now)
    return time.mktime((day.tm_year, day.tm_mon, day.tm_mday, h, m, s, 0, 0, -1))


# -------------------------------------------------------------------------- results


QUICK = "quick"  # the form's `entry` when it is the quick result form


def sheet_from_form(
    form: dict[str, Any], a: str, b: str, *, pb_required: bool = True
) -> dict[str, Any]:
    """The score sheet (`ball.games.ball.match.result` format) of the result form's fields, the full
    sheet's or the quick form's (`entry=quick`, see `quick_sheet_from_form`).

    Coach A is ATK first in half 1, coach B in half 2 (the tournament's convention)."""
    if form.get("entry") == QUICK:
        return quick_sheet_from_form(form, a, b, pb_required=pb_required)
    coaches = {"A": a, "B": b}
    halves = []
    for half, atk in ((1, "A"), (2, "B")):
        pb = {}
        for side in ("A", "B"):
            counters = {}
            for name in ("atk", "def"):
                key = f"h{half}_{side}_{name}"
                raw = (form.get(key) or "").strip()
                if raw == "":
                    raise SheetError(f"half {half}: PB{name.upper()} of {coaches[side]} is empty")
                try:
                    counters[name] = int(raw)
                except ValueError:
                    raise SheetError(
                        f"half {half}: PB{name.upper()} of {coaches[side]}: {raw!r} is not a "
                        "whole number"
                    ) from None
            pb[coaches[side]] = counters
        td = form.get(f"h{half}_td") or ""
        if td not in ("", "A", "B"):
            raise SheetError(f"half {half}: touchdown by {td!r}, choose A, B or nobody")
        halves.append({"atk_first": coaches[atk], "td": coaches.get(td), "pb": pb})
    return {"coaches": [a, b], "halves": halves}


def _touchdown(form: dict[str, Any], half: int) -> str:
    td = form.get(f"h{half}_td") or ""
    if td not in ("", "A", "B"):
        raise SheetError(f"half {half}: touchdown by {td!r}, choose A, B or nobody")
    return td


def _pbatk(form: dict[str, Any], half: int, side: str, name: str) -> int:
    raw = (form.get(f"h{half}_{side}_atk") or "").strip()
    if raw == "":
        raise SheetError(f"half {half}: PBATK of {name} is empty")
    try:
        return int(raw)
    except ValueError:
        raise SheetError(f"half {half}: PBATK of {name}: {raw!r} is not a whole number") from None


def quick_sheet_from_form(
    form: dict[str, Any], a: str, b: str, *, pb_required: bool
) -> dict[str, Any]:
    """The score sheet of the quick result form (issue 36 item 11): who scored in each half
    and, when given, each coach's PBATK per half — the ball clock's figures once, since dual
    entry makes a coach's PBDEF the other's PBATK. A half whose PB is left empty is stored
    as not recorded (`"pb": null`), which `decide` accepts only when the touchdowns decide;
    `pb_required` (the event's tie-breaks read PB) makes them required. With every figure
    given the sheet is the very one the full form builds for the same game."""
    coaches = {"A": a, "B": b}
    halves = []
    for half, atk in ((1, "A"), (2, "B")):
        td = _touchdown(form, half)
        given = any((form.get(f"h{half}_{side}_atk") or "").strip() for side in coaches)
        pb = None
        if given or pb_required:
            x, y = (_pbatk(form, half, side, name) for side, name in coaches.items())
            pb = {a: {"atk": x, "def": y}, b: {"atk": y, "def": x}}
        halves.append({"atk_first": coaches[atk], "td": coaches.get(td), "pb": pb})
    return {"coaches": [a, b], "halves": halves}


def steals_from_form(form: dict[str, Any]) -> list[dict[str, Any]]:
    """The steal lines filled in, as `{"half", "side", "choice"}` (checked by the service)."""
    steals = []
    for half in (1, 2):
        for row in range(STEAL_ROWS):
            side = form.get(f"h{half}_steal{row}_by") or ""
            if side:
                choice = form.get(f"h{half}_steal{row}_choice") or ""
                steals.append({"half": half, "side": side, "choice": choice})
    return steals


def sanctions_from_form(form: dict[str, Any]) -> list[dict[str, str]]:
    """The sanction lines filled in, as `{"side", "step", "reason"}` (checked by the service)."""
    out = []
    for row in range(SANCTION_ROWS):
        side = form.get(f"sanction{row}_side") or ""
        if side:
            out.append(
                {
                    "side": side,
                    "step": form.get(f"sanction{row}_step") or "",
                    "reason": form.get(f"sanction{row}_reason") or "",
                }
            )
    return out


def result_kind(form: dict[str, Any]) -> str:
    kind = form.get("kind") or "sheet"
    if kind not in KINDS:
        raise TournamentError(f"kind: {kind!r} is not a kind of result")
    return kind


def result_args(
    kind: str, form: dict[str, Any], a: str, b: str, *, pb_required: bool = True
) -> dict[str, Any]:
    """The result part of a service call from the form's kind (sheet, forfeit, double)."""
    if kind == "double-forfeit":
        return {"double_forfeit": True}
    if kind.startswith("forfeit-"):
        return {"forfeit": kind[-1]}
    return {"sheet": sheet_from_form(form, a, b, pb_required=pb_required)}


def form_values(pairing: PairingView, steals: list[dict[str, Any]]) -> dict[str, str]:
    """The result form filled from the stored result (for a correction)."""
    values: dict[str, str] = {"kind": "sheet"}
    result = pairing.result
    if result is None:
        return values
    assert pairing.b is not None  # a table with a result has two coaches
    side = {pairing.a.name: "A", pairing.b.name: "B"}
    if result["kind"] == "double-forfeit":
        values["kind"] = "double-forfeit"
    elif result["kind"] == "forfeit":
        values["kind"] = f"forfeit-{result['forfeit_by']}"
    if pairing.sheet:
        values |= sheet_values(pairing.sheet, side)
    rows = {1: 0, 2: 0}
    for steal in steals:
        row = rows[steal["half"]]
        if row < STEAL_ROWS:
            values[f"h{steal['half']}_steal{row}_by"] = side.get(steal["by"], "")
            values[f"h{steal['half']}_steal{row}_choice"] = steal["choice"]
            rows[steal["half"]] += 1
    return values


def sheet_values(sheet: dict[str, Any], side: dict[str, str]) -> dict[str, str]:
    """The full sheet's touchdown and PB fields of a BALL score sheet (`side`: coach name ->
    A or B): a stored result's, or the players' entry the desk checks (issue 35 §1)."""
    values: dict[str, str] = {}
    for half, data in enumerate(sheet.get("halves") or [], start=1):
        if not data:
            continue
        values[f"h{half}_td"] = side.get(data.get("td"), "")
        for coach, counters in (data.get("pb") or {}).items():  # None: not recorded
            for name in ("atk", "def"):
                values[f"h{half}_{side[coach]}_{name}"] = str(counters[name])
    return values


# ------------------------------------------------------------ a game's own result form
# A game with a desk form of its own (`Game.desk_form`: Xiangqi's arbiter's document, ...)
# reads and fills its fields; the form's kind (sheet, forfeits) is the desk's.


def document_form_values(pairing: PairingView, form: DeskForm) -> dict[str, str]:
    """A game's own result form filled from the stored result (for a correction)."""
    values: dict[str, str] = {"kind": "sheet"}
    result = pairing.result
    if result is None:
        return values
    if result["kind"] == "double-forfeit":
        values["kind"] = "double-forfeit"
    elif result["kind"] == "forfeit" and not pairing.sheet:
        values["kind"] = f"forfeit-{result['forfeit_by']}"
    doc = pairing.sheet or {}
    if doc and pairing.b is not None:
        values |= form.values(doc, pairing.a.name, pairing.b.name)
    return values
