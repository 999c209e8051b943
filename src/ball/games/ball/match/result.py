"""The match result (spec 13, D-18, R-forfeit): one arbiter's score sheet in, one decision out.

The score sheet is the JSON document an arbiter fills in (and the tournament and the web result
form build); `decide` validates it completely and applies the result table. Every fault is a
`SheetError` whose message names the offending part, so callers can show it as is.
A half's `pb` may be null (not recorded: the desk's quick result); such a sheet decides only
a match the touchdowns decide, and the figures that need those PB stay unknown (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

Coach = str

SHEET_FIELDS = frozenset({"coaches", "halves", "forfeit"})
HALF_FIELDS = frozenset({"atk_first", "td", "pb", "end"})
# How a half ended (optional on a sheet; `ball.games.ball.match.flow` writes it): a touchdown ends
# it at once, "time" after the Final Drive, "forfeit" when a coach abandoned it (R-forfeit).


class HalfEnd(StrEnum):
    TOUCHDOWN = "touchdown"
    TIME = "time"
    FORFEIT = "forfeit"


HALF_ENDS = tuple(e.value for e in HalfEnd)
PB_FIELDS = frozenset({"atk", "def"})
HALVES_PER_MATCH = 2
# No half comes near this many PB (a 20-minute half has a few dozen turns); larger numbers
# are typing accidents or attacks, and a 4000-digit count would overflow the tie-breaks.
PB_MAX = 9999
# Administrative score of a forfeit (R-forfeit): the forfeiting coach loses 0-2.
FORFEIT_TD = 2


class Reason(StrEnum):
    """Why a match was decided so (spec 13, D-18, R-forfeit). A StrEnum: each member equals
    its text, so sheets, records and the API keep the same strings."""

    TOUCHDOWNS = "touchdowns"
    ATTACK_EFFICIENCY = "attack-efficiency"
    DEFENSIVE_SUPERIORITY = "defensive-superiority"
    DRAW = "draw"
    FORFEIT = "forfeit"


REASONS = tuple(r.value for r in Reason)


class Outcome(StrEnum):
    """A decided table as the tournament stores it (one letter): side A or B won, a draw, or
    nobody (a double forfeit)."""

    A = "A"
    B = "B"
    DRAW = "D"
    NOBODY = "N"


class SheetError(ValueError):
    """A score sheet that cannot be decided; the message names the fault."""


@dataclass(frozen=True)
class Decision:
    """The decided result. Dicts are keyed by the sheet's coach labels."""

    winner: Coach | None
    reason: Reason
    td: dict[Coach, int]
    pbatk_scoring_half: dict[Coach, int | None]
    sd: dict[Coach, int | None]  # None: a half's PB not recorded (quick entry)

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason.value,  # plain text: documents hold no enum objects
            "td": dict(self.td),
            "pbatk_scoring_half": dict(self.pbatk_scoring_half),
            "sd": dict(self.sd),
        }


@dataclass(frozen=True)
class HalfSheet:
    """One validated half of a sheet."""

    atk_first: Coach
    td: Coach | None
    pb: dict[Coach, dict[str, int]] | None  # None: not recorded (the desk's quick entry)
    end: HalfEnd | None = None

    @property
    def complete(self) -> bool:
        """Played to its end: a touchdown ends a half at once (spec 13), or the sheet says
        it ended by time."""
        return self.td is not None or self.end in (HalfEnd.TOUCHDOWN, HalfEnd.TIME)


def decide(sheet: dict[str, Any]) -> Decision:
    """Validate a score sheet and decide the match by spec 13 and D-18."""
    coaches, halves, forfeit = _validate(sheet)
    if forfeit is not None:
        return _forfeit(coaches, forfeit)
    return _by_result_table(coaches, halves)


# ---------------------------------------------------------------------------- deciding


def _forfeit(coaches: tuple[Coach, Coach], forfeit: Coach) -> Decision:
    # The administrative 0-2 replaces every figure: the halves played stay on the sheet for
    # research, but no PB figure of a forfeited match may enter tournament metrics.
    winner = coaches[1] if forfeit == coaches[0] else coaches[0]
    return Decision(
        winner=winner,
        reason=Reason.FORFEIT,
        td={c: (FORFEIT_TD if c == winner else 0) for c in coaches},
        pbatk_scoring_half={c: None for c in coaches},
        sd={c: 0 for c in coaches},
    )


def _by_result_table(coaches: tuple[Coach, Coach], halves: list[HalfSheet]) -> Decision:
    td = {c: sum(1 for h in halves if h.td == c) for c in coaches}
    a, b = coaches
    unrecorded = [n for n, h in enumerate(halves, start=1) if h.pb is None]
    if unrecorded and td[a] == td[b]:
        raise SheetError(
            f"half {unrecorded[0]}: PB not recorded, but the touchdowns are level "
            f"({td[a]}-{td[b]}), so PB decides the match (spec 13)"
        )
    # PBATK "of the half in which they scored"; with two touchdowns, of both scoring halves.
    # A figure that needs a half whose PB was not recorded stays unknown (None).
    pbatk = {c: _pb_sum(halves, c, scoring=True) if td[c] else None for c in coaches}
    sd = {c: _pb_sum(halves, c, scoring=False) for c in coaches}

    def decision(winner: Coach | None, reason: Reason) -> Decision:
        return Decision(winner, reason, td, pbatk, sd)

    if td[a] != td[b]:
        return decision(a if td[a] > td[b] else b, Reason.TOUCHDOWNS)
    eff_a, eff_b = pbatk[a], pbatk[b]  # both set when each side scored (equal TD above 0)
    if td[a] > 0 and eff_a is not None and eff_b is not None and eff_a != eff_b:
        return decision(a if eff_a < eff_b else b, Reason.ATTACK_EFFICIENCY)
    # 0-0, or D-18: 1-1 with equal PBATK falls back to SD (known here: level touchdowns
    # with a half's PB not recorded were refused above).
    sd_a, sd_b = sd[a], sd[b]
    assert sd_a is not None and sd_b is not None
    if sd_a != sd_b:
        return decision(a if sd_a > sd_b else b, Reason.DEFENSIVE_SUPERIORITY)
    return decision(None, Reason.DRAW)


def _pb_sum(halves: list[HalfSheet], coach: Coach, *, scoring: bool) -> int | None:
    """PBATK of the halves `coach` scored in (`scoring`), or SD = PBDEF - PBATK over the
    match; None when a half it needs has no PB recorded."""
    total = 0
    for h in halves:
        if scoring and h.td != coach:
            continue
        if h.pb is None:
            return None
        counters = h.pb[coach]
        total += counters["atk"] if scoring else counters["def"] - counters["atk"]
    return total


# ---------------------------------------------------------------------------- validating


def _validate(sheet: Any) -> tuple[tuple[Coach, Coach], list[HalfSheet], Coach | None]:
    if not isinstance(sheet, dict):
        raise SheetError("the score sheet must be a JSON object")
    _no_unknown_fields(sheet, SHEET_FIELDS, "sheet")
    for name in ("coaches", "halves"):
        if name not in sheet:
            raise SheetError(f"sheet: missing field '{name}'")
    coaches = _coaches(sheet["coaches"])
    forfeit = sheet.get("forfeit")
    if forfeit is not None and forfeit not in coaches:
        raise SheetError(f"forfeit: {forfeit!r} is not a coach of this match {list(coaches)}")
    raw_halves = sheet["halves"]
    if not isinstance(raw_halves, list):
        raise SheetError("halves: must be a list")
    if len(raw_halves) > HALVES_PER_MATCH:
        raise SheetError(f"halves: a match has {HALVES_PER_MATCH} halves, got {len(raw_halves)}")
    halves: list[HalfSheet] = []
    for index in range(HALVES_PER_MATCH):
        raw = raw_halves[index] if index < len(raw_halves) else None
        if raw is None:
            if forfeit is None:
                raise SheetError(f"half {index + 1} is missing and there is no forfeit")
            continue
        if forfeit is not None and len(halves) < index:
            raise SheetError(f"half {index + 1}: listed after a half that was never played")
        halves.append(_half(raw, index + 1, coaches))
    _roles_alternate(halves)
    _forfeit_fits(halves, forfeit)
    return coaches, halves, forfeit


def _forfeit_fits(halves: list[HalfSheet], forfeit: Coach | None) -> None:
    """D-35: a forfeit is a refused or abandoned half (R-forfeit), so it may be recorded
    only while the match is unfinished: before half 1, during a half, or between the
    halves. A match whose two halves were played to their end has its result on the board;
    and nothing is played after an abandoned half."""
    for number, h in enumerate(halves, start=1):
        if h.end == HalfEnd.FORFEIT and forfeit is None:
            raise SheetError(f"half {number}: ended by forfeit, but the sheet names no forfeit")
        if h.end == HalfEnd.FORFEIT and number < len(halves):
            raise SheetError(
                f"half {number + 1}: listed after half {number}, which ended by forfeit"
            )
    # half 1 ended before half 2 began, so the last half decides whether anything is left
    if forfeit is not None and len(halves) == HALVES_PER_MATCH and halves[-1].complete:
        raise SheetError(
            f"forfeit: both halves were played to their end, so {forfeit} cannot forfeit; "
            "a forfeit is a refused or abandoned half (R-forfeit, D-35)"
        )


def _coaches(value: Any) -> tuple[Coach, Coach]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(c, str) and c.strip() for c in value)
    ):
        raise SheetError("coaches: must list exactly two non-empty names")
    if value[0] == value[1]:
        raise SheetError(f"coaches: the two names must differ (both are {value[0]!r})")
    return value[0], value[1]


def _half(raw: Any, number: int, coaches: tuple[Coach, Coach]) -> HalfSheet:
    where = f"half {number}"
    if not isinstance(raw, dict):
        raise SheetError(f"{where}: must be an object")
    _no_unknown_fields(raw, HALF_FIELDS, where)
    for name in ("atk_first", "pb"):
        if name not in raw:
            raise SheetError(f"{where}: missing field '{name}'")
    atk_first = raw["atk_first"]
    if atk_first not in coaches:
        raise SheetError(f"{where}: atk_first {atk_first!r} is not a coach of this match")
    td = raw.get("td")
    if td is not None and td not in coaches:
        raise SheetError(f"{where}: touchdown for {td!r}, who is not a coach of this match")
    end = _end(raw.get("end"), td, where)
    if raw["pb"] is None:  # not recorded: decides only a match the touchdowns decide
        return HalfSheet(atk_first=atk_first, td=td, pb=None, end=end)
    pb = _pb(raw["pb"], where, coaches)
    a, b = coaches
    for x, y in ((a, b), (b, a)):
        if pb[x]["atk"] != pb[y]["def"]:
            raise SheetError(
                f"{where}: PB dual-entry mismatch: {x} PBATK {pb[x]['atk']} "
                f"!= {y} PBDEF {pb[y]['def']}"
            )
    if td is not None and pb[td]["atk"] == 0:
        raise SheetError(f"{where}: {td} scored the touchdown but recorded 0 PBATK")
    return HalfSheet(atk_first=atk_first, td=td, pb=pb, end=end)


def _end(end: Any, td: Coach | None, where: str) -> HalfEnd | None:
    if end is None:
        return None
    if end not in HALF_ENDS:
        raise SheetError(f"{where}: end {end!r} is not one of {', '.join(HALF_ENDS)}")
    if (end == "touchdown") != (td is not None):
        if td is None:
            raise SheetError(f"{where}: ended by a touchdown, but no touchdown is recorded")
        raise SheetError(f"{where}: a touchdown ends the half at once; end cannot be {end!r}")
    return HalfEnd(end)


def _pb(raw: Any, where: str, coaches: tuple[Coach, Coach]) -> dict[Coach, dict[str, int]]:
    if not isinstance(raw, dict):
        raise SheetError(f"{where}: pb must be an object keyed by coach")
    for key in raw:
        if key not in coaches:
            raise SheetError(f"{where}: pb: unknown field {key!r} (not a coach of this match)")
    pb: dict[Coach, dict[str, int]] = {}
    for coach in coaches:
        entry = raw.get(coach)
        if not isinstance(entry, dict):
            raise SheetError(f"{where}: pb: missing counters for {coach}")
        _no_unknown_fields(entry, PB_FIELDS, f"{where}: pb.{coach}")
        counters = {}
        for name in ("atk", "def"):
            value = entry.get(name)
            label = f"{where}: pb.{coach}.{name}"
            if value is None:
                raise SheetError(f"{label} is missing")
            if isinstance(value, bool) or not isinstance(value, int):
                raise SheetError(f"{label} must be a whole number, got {value!r}")
            if value < 0:
                raise SheetError(f"{label} is negative ({value})")
            if value > PB_MAX:
                raise SheetError(f"{label} is more than {PB_MAX}")
            counters[name] = value
        pb[coach] = counters
    return pb


def _roles_alternate(halves: list[HalfSheet]) -> None:
    # Each coach starts one half as ATK and the other as DEF (spec 13).
    if len(halves) == HALVES_PER_MATCH and halves[0].atk_first == halves[1].atk_first:
        raise SheetError(
            f"half 2: atk_first {halves[1].atk_first!r} already started half 1 as ATK; "
            "each coach starts one half as ATK"
        )


def _no_unknown_fields(obj: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise SheetError(f"{where}: unknown field(s) {', '.join(unknown)}")
