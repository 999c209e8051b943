"""The session sheet: one table's session as the desk enters it, read and scored.

    {"table": 3, "seats": {"E": "Ann", "S": "Bo", "W": "Cy", "N": "Di"},
     "hands": [{"winner": "E", "discarder": "S", "fan": 12},     # won on a discard
               {"winner": "W", "discarder": null, "fan": 8},     # self-drawn
               {"winner": "W", "hand": {...winning-hand document...}},
               {"draw": true}],
     "penalties": [{"hand": 2, "seat": "N", "kind": "false-win", "at": "10:42"}],
     "time_penalties": [{"hand": 5, "seat": "S", "at": "11:03", "over_seconds": 20,
                         "limit": "turn"}],
     "totals": {"E": 40, "S": -24, "W": 0, "N": -16}}                # optional

Seats are the winds at the start of the session (E S W N, M-03). Hands are scored by
`scoring`, rulings applied through `penalties.TableLog` in hand order (a ruling's `hand` is
the 1-based hand it was given in; absent or 0: the first). A seat whose hand a ruling made
dead, or that declared a false win in it (MCR), cannot win that hand. `totals`, when
given, are the hand points the table wrote down (before rulings): they must sum to zero and
equal what the hands give. Errors name the field: `hands[3].fan: ...`.

The referee's waiver of an overrun (TL 6) is the time penalty's `"waived": "REASON"`,
applied after the other rulings of that hand; the arbiter's confirmation that a seat past
the 80-point line is unwilling to continue (TL 7) is a penalty of kind `unwilling` (refused
unless the seat reached the line in that hand). A sheet read `in_play` (the desk's sheet of
a session still being played) may hold rulings of the hand in play, one after the last
hand entered; `running` gives each seat's score after each hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ball.games.mahjong.engine.penalties import EventRules, PenaltyError, TableLog, event_rules
from ball.games.mahjong.engine.rulings import KINDS, Kind
from ball.games.mahjong.engine.scoring import (
    Scores,
    ScoringError,
    add,
    hand_scores,
    parse_entry,
    table_points,
)
from ball.games.mahjong.engine.winds import WINDS

MAX_HANDS = 200
MAX_RULINGS = 500


class SheetError(ValueError):
    """A session sheet that cannot be read or scored; the message names the field."""


@dataclass(frozen=True)
class ScoredSheet:
    """A read session sheet: its table, the player of each seat (E S W N), the session
    scores and table points in seat order, and the log of rulings."""

    table: int | None
    players: tuple[str, str, str, str]
    hands: int
    hand_points: Scores
    penalty_points: Scores
    scores: Scores
    table_points: tuple[Fraction, ...]
    log: tuple[dict[str, object], ...]
    running: tuple[Scores, ...] = ()  # each seat's score after each hand, rulings included
    pending: tuple[int, ...] = ()  # seats past the 80-point line in the hand in play (TL 7)
    fans: tuple[int, ...] = ()  # each hand's fan (computed when the hand was given)
    # each hand's points in seat order, before rulings (the printed sheet's hand rows)
    hand_rows: tuple[Scores, ...] = ()


def _seat(value: object, where: str) -> int:
    if value not in WINDS:
        raise SheetError(f"{where}: a seat is E, S, W or N, not {value!r}")
    return WINDS.index(str(value))


def _int(doc: dict[str, object], key: str, where: str, default: int | None = None) -> int:
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**6:
        raise SheetError(f"{where}.{key}: must be a whole number, 0 or more")
    return value


def _time(value: object, where: str) -> float:
    """`"10:42"` or `"10:42:30"` (the wall clock the arbiter wrote) or seconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    parts = str(value).split(":") if isinstance(value, str) else []
    if 2 <= len(parts) <= 3 and all(p.isdigit() and len(p) <= 2 for p in parts):
        h, m, s = (int(p) for p in (*parts, "0")[:3])
        if h < 24 and m < 60 and s < 60:
            return float(h * 3600 + m * 60 + s)
    raise SheetError(f"{where}.at: a time is HH:MM[:SS], not {value!r}")


def _object(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise SheetError(f"{where}: must be a JSON object")
    return value


def _list(doc: dict[str, object], key: str, limit: int) -> list[object]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise SheetError(f"{key}: must be a list")
    if len(value) > limit:
        raise SheetError(f"{key}: at most {limit} entries")
    return value


def _players(doc: dict[str, object]) -> tuple[str, str, str, str]:
    seats = _object(doc.get("seats"), "seats")
    unknown = sorted(set(seats) - set(WINDS))
    if unknown:
        raise SheetError(f"seats.{unknown[0]}: a seat is E, S, W or N")
    names = []
    for wind in WINDS:
        name = seats.get(wind)
        if not isinstance(name, str) or not name.strip():
            raise SheetError(f"seats.{wind}: the player's name is missing")
        names.append(name.strip())
    if len(set(names)) != 4:
        raise SheetError("seats: four different players sit at a table")
    return names[0], names[1], names[2], names[3]


def _entry(doc: dict[str, object], where: str) -> dict[str, object]:
    """A sheet hand → `scoring.parse_entry`'s document (seats as numbers)."""
    unknown = sorted(set(doc) - {"winner", "discarder", "fan", "hand", "draw"})
    if unknown:
        raise SheetError(f"{where}.{unknown[0]}: unknown field")
    if doc.get("draw") is True:
        if set(doc) != {"draw"}:
            raise SheetError(f"{where}: a drawn hand has no winner, discarder or fan")
        return {"outcome": "draw"}
    if "draw" in doc and doc["draw"] is not False:
        raise SheetError(f"{where}.draw: true or false")
    out: dict[str, object] = {"winner": _seat(doc.get("winner"), f"{where}.winner")}
    discarder = doc.get("discarder")
    if discarder is None:
        out["outcome"] = "self_drawn"
    else:
        out["outcome"] = "discard"
        out["discarder"] = _seat(discarder, f"{where}.discarder")
    for key in ("fan", "hand"):
        if key in doc:
            out[key] = doc[key]
    if "fan" not in out and "hand" not in out:
        raise SheetError(f"{where}.fan: give the fan or the hand")
    return out


def _rulings(doc: dict[str, object]) -> list[tuple[int, str, dict[str, object]]]:
    out = []
    for key in ("penalties", "time_penalties"):
        for i, item in enumerate(_list(doc, key, MAX_RULINGS)):
            where = f"{key}[{i}]"
            ruling = _object(item, where)
            out.append((_int(ruling, "hand", where, 0), where, ruling))
    # Stable: each list keeps its own order within a hand; the arbiter's confirmation of the
    # 80-point line comes after the hand's time penalties that reached it (TL 7).
    out.sort(key=lambda r: (r[0], r[2].get("kind") == "unwilling"))
    return out


def _apply(
    log: TableLog, ruling: dict[str, object], where: str, timed: bool
) -> tuple[int, str] | None:
    """Apply one ruling; a waived time penalty returns its log index and the reason."""
    seat = _seat(ruling.get("seat"), f"{where}.seat")
    at = _time(ruling.get("at", 0), where)
    if timed:
        over = ruling.get("over_seconds")
        if isinstance(over, bool) or not isinstance(over, (int, float)) or not 0 < over < 10**5:
            raise SheetError(f"{where}.over_seconds: a number of seconds over the limit")
        log.time_overrun(at, seat, float(over), str(ruling.get("limit", "turn")))
        waived = ruling.get("waived")
        if waived is None:
            return None
        if not isinstance(waived, str) or not waived.strip():
            raise SheetError(f"{where}.waived: the referee's reason, as text")
        return len(log.entries) - 1, waived
    _ruling(log, ruling, where, seat, at)
    return None


def _ruling(log: TableLog, ruling: dict[str, object], where: str, seat: int, at: float) -> None:
    kind = ruling.get("kind")
    if kind == Kind.FALSE_WIN:
        log.false_win(at, seat, _int(ruling, "exposed_tiles", where, 0))
    elif kind in (Kind.LONG_HAND, Kind.SHORT_HAND):
        log.wrong_count(at, seat, long=kind == Kind.LONG_HAND)
    elif kind == Kind.LATE_EXPOSURE:
        log.late_wrong_exposure(at, seat, ruling.get("after_replacement") is True)
    elif kind == Kind.WITHDRAWN_WIN:
        log.withdrawn_win(at, seat, _int(ruling, "concealed_tiles", where, 13))
    elif kind == Kind.CANCELLED_CALL:
        log.cancelled_call(at, seat)
    elif kind == Kind.CHANGED_CALL:
        log.changed_call(at, seat)
    elif kind == Kind.CORRECTED_EXPOSURE:
        log.corrected_exposure(at, seat, _int(ruling, "spare_tiles", where, 0))
    elif kind == Kind.CANCELLED_KONG:
        log.cancelled_kong(at, seat)
    elif kind == Kind.UNWILLING:
        log.confirm_unwilling(at, seat)
    elif kind == Kind.ARBITER:
        log.arbiter_penalty(at, seat, _int(ruling, "points", where), str(ruling.get("article", "")))
    else:
        raise SheetError(f"{where}.kind: one of {', '.join(KINDS)}, not {kind!r}")


def read_sheet(
    doc: object, rules: EventRules | None = None, hands_limit: int = 16, in_play: bool = False
) -> ScoredSheet:
    """Read and score a session sheet; `SheetError` names the first fault. `in_play`: the
    rulings may reach the hand in play (one after the last entered)."""
    rules = rules or event_rules()
    sheet = _object(doc, "the session sheet")
    unknown = sorted(
        set(sheet) - {"table", "seats", "hands", "penalties", "time_penalties", "totals"}
    )
    if unknown:
        raise SheetError(f"{unknown[0]}: unknown field")
    table = None if sheet.get("table") is None else _int(sheet, "table", "sheet")
    players = _players(sheet)
    hands = _list(sheet, "hands", MAX_HANDS)
    if len(hands) > hands_limit:
        raise SheetError(f"hands: {len(hands)} hands, the session has at most {hands_limit}")
    rulings = _rulings(sheet)
    log, rows, r = TableLog(rules=rules), [], 0
    running: list[Scores] = []
    fans: list[int] = []
    for number, item in enumerate(hands, 1):  # a hand's rulings come before its result
        if number > 1:
            log.new_hand()
        r = _apply_until(log, rulings, r, number)
        fan, row = _score_hand(log, item, f"hands[{number - 1}]", rules)
        rows.append(row)
        fans.append(fan)
        running.append(add(*rows, log.points()))
    if in_play and r < len(rulings):
        if hands:
            log.new_hand()
        r = _apply_until(log, rulings, r, len(hands) + 1)
    if r < len(rulings):
        raise SheetError(f"{rulings[r][1]}.hand: the sheet has {len(hands)} hands")
    hand_points = add((0, 0, 0, 0), *rows)
    if "totals" in sheet:
        _check_totals(_object(sheet["totals"], "totals"), hand_points)
    penalty_points = log.points()
    scores = add(hand_points, penalty_points)
    return ScoredSheet(
        table,
        players,
        len(hands),
        hand_points,
        penalty_points,
        scores,
        table_points(scores, rules.table_points),
        tuple(e.to_json() for e in log.entries),
        tuple(running),
        tuple(i for i, seat in enumerate(log.seats) if seat.unwilling_pending),
        tuple(fans),
        tuple(rows),
    )


def _apply_until(
    log: TableLog, rulings: list[tuple[int, str, dict[str, object]]], r: int, number: int
) -> int:
    """Apply the rulings given up to hand `number`, from the `r`-th; the next one's index.
    Waivers come last, after the hand's other rulings (TL 6: the referee waives once the
    overrun and what followed from it, such as the 80-point line, are on the log)."""
    waivers = []
    while r < len(rulings) and rulings[r][0] <= number:
        _, where, ruling = rulings[r]
        try:
            waived = _apply(log, ruling, where, where.startswith("time"))
        except PenaltyError as exc:
            raise SheetError(f"{where}: {exc}") from None
        if waived is not None:
            waivers.append((where, float(log.entries[waived[0]].at), *waived))
        r += 1
    for where, at, index, reason in waivers:
        try:
            log.waive(at, index, reason)
        except PenaltyError as exc:
            raise SheetError(f"{where}.waived: {exc}") from None
    return r


def _score_hand(
    log: TableLog, item: object, where: str, rules: EventRules
) -> tuple[int, Scores]:
    entry = _entry(_object(item, where), where)
    try:
        hand = parse_entry(entry, rules.minimum_fan)
        if hand.winner is not None and not log.may_win(hand.winner):
            raise SheetError(f"{where}.winner: {_why_not(log, hand.winner)}")
        return hand.fan, hand_scores(hand, rules.minimum_fan, rules.base)
    except ScoringError as exc:
        raise SheetError(f"{where}.{exc}") from None


def _why_not(log: TableLog, seat: int) -> str:
    """Why `seat` may not win the hand in play: a dead hand, or a false win declared in it."""
    if log.seats[seat].dead:
        return f"{WINDS[seat]}'s hand is dead; it cannot win"
    return f"{WINDS[seat]} declared a false win in this hand; it cannot win this hand (MCR)"


def _check_totals(totals: dict[str, object], hand_points: Scores) -> None:
    """The table's own sums of its hands: zero in all, and each the hands' (MCR scoring)."""
    if set(totals) != set(WINDS):
        raise SheetError("totals: give E, S, W and N")
    values = []
    for wind in WINDS:
        value = totals[wind]
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
            raise SheetError(f"totals.{wind}: must be a whole number")
        values.append(value)
    if sum(values) != 0:
        raise SheetError(f"totals: sum to {sum(values)}, not zero")
    for wind, value, points in zip(WINDS, values, hand_points, strict=True):
        if value != points:
            raise SheetError(f"totals.{wind}: the hands give {points}, the sheet says {value}")
