"""The arbiter desk's HTML forms: reading them into the arguments of tournament use cases,
and filling them again from stored data. No storage, no HTTP answers: faults raise
`TournamentError` with a message naming the field. A table's result document is read by
the event's game (`DeskForm`); the form's kind, steal and sanction lines are read here.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ball.games.forms import QUICK
from ball.games.protocol import DeskForm
from ball.storage import ids
from ball.tournament.errors import TournamentError
from ball.tournament.names import check_name
from ball.tournament.views import PairingView, RoundView

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
# The game's result form (`Game.desk_form`) reads and fills its own fields; the form's kind
# (sheet, forfeits), its steal lines and its sanction lines are the desk's.


def read_result(
    form: DeskForm, posted: Mapping[str, Any], a: str, b: str, *, figures_required: bool = True
) -> dict[str, Any]:
    """The game's result document of the posted form, player A first: its quick form's
    (`entry=quick`, `DeskForm.read_quick`) with the figures only some tie-breaks read
    required or not, else its full form's."""
    if posted.get("entry") == QUICK and form.read_quick is not None:
        return form.read_quick(posted, a, b, figures_required)
    return form.read(posted, a, b)


def steals_from_form(form: Mapping[str, Any], rows: int) -> list[dict[str, Any]]:
    """The steal lines filled in, as `{"half", "side", "choice"}` (checked by the service),
    of a form with `rows` steal lines per half (`DeskForm.steal_rows`)."""
    steals = []
    for half in (1, 2):
        for row in range(rows):
            side = form.get(f"h{half}_steal{row}_by") or ""
            if side:
                choice = form.get(f"h{half}_steal{row}_choice") or ""
                steals.append({"half": half, "side": side, "choice": choice})
    return steals


def sanctions_from_form(form: Mapping[str, Any]) -> list[dict[str, str]]:
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


def result_kind(form: Mapping[str, Any]) -> str:
    kind = form.get("kind") or "sheet"
    if kind not in KINDS:
        raise TournamentError(f"kind: {kind!r} is not a kind of result")
    return str(kind)


def result_args(
    kind: str,
    posted: Mapping[str, Any],
    a: str,
    b: str,
    form: DeskForm,
    *,
    figures_required: bool = True,
) -> dict[str, Any]:
    """The result part of a service call from the form's kind (sheet, forfeit, double)."""
    if kind == "double-forfeit":
        return {"double_forfeit": True}
    if kind.startswith("forfeit-"):
        return {"forfeit": kind[-1]}
    return {"sheet": read_result(form, posted, a, b, figures_required=figures_required)}


def form_values(
    pairing: PairingView, form: DeskForm, steals: Sequence[Mapping[str, Any]] = ()
) -> dict[str, str]:
    """The game's result form filled from the stored result and its steals (a correction).
    A forfeit shows as the form's kind unless its document states it (`DeskForm.values`
    may then give the kind itself)."""
    values: dict[str, str] = {"kind": "sheet"}
    result = pairing.result
    if result is None:
        return values
    if result["kind"] == "double-forfeit":
        values["kind"] = "double-forfeit"
    elif result["kind"] == "forfeit" and not pairing.sheet:
        values["kind"] = f"forfeit-{result['forfeit_by']}"
    if pairing.b is None:
        return values
    if pairing.sheet:
        values |= form.values(pairing.sheet, pairing.a.name, pairing.b.name)
    side = {pairing.a.name: "A", pairing.b.name: "B"}
    rows = {1: 0, 2: 0}
    for steal in steals:
        row = rows[steal["half"]]
        if row < form.steal_rows:
            values[f"h{steal['half']}_steal{row}_by"] = side.get(steal["by"], "")
            values[f"h{steal['half']}_steal{row}_choice"] = steal["choice"]
            rows[steal["half"]] += 1
    return values
