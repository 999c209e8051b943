"""Rulings at a Mahjong table (WMC rules 1.03, seed 003), each an entry in the table's log.

The rulings, by the seed's articles ("long/short hand" 1-6, "wrong calls" 1-8, "game time
limits" 1-7; the log cites them as `LS n`, `WC n`, `TL n`):

- long or short hand (LS 1-5): the hand is dead and cannot win; a long hand cannot call or
  kong either; it stays dead even when the count is later right;
- wrong calls: a wrong exposure corrected at once, its spare tiles penalty tiles (WC 1); a
  changed call with the event's penalty (WC 2); a cancelled call, two penalty tiles (WC 3);
  a cancelled kong, no penalty (WC 4); a wrong exposure found too late, a dead hand, and a
  long one when a replacement tile was taken (WC 5);
- false win (WC 6, 8): play goes on, the wrongly exposed tiles become penalty tiles, and the
  event's points (the championship: -30, +10 to each other player);
- withdrawn win (WC 7): three penalty tiles;
- arbiter penalties: any points, deducted and given to no one (MCR: penalty points are not
  paid to the other players); an event may choose to share them among the other three
  (`[arbiter] zero_sum`), and then an amount must divide by three;
- time (TL 1-7): 5 points per started 15 s over the turn limit and over the hand budget,
  cumulative; 80 points in one hand mark the player unwilling to continue, which the
  arbiter must confirm; the referee may waive an overrun with good reason.

Amounts are data (`rules/wmc.toml`). The clock measures time (`ball.clocks`); this module
only turns the overrun seconds it reports into points, so the package stays below the
clock layer. Nothing here reads a clock: every entry carries the time the caller gives.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from importlib import resources

from ball.games.mahjong.engine.rulings import Logged
from ball.games.mahjong.engine.scoring import SEATS, Scores


class PenaltyError(ValueError):
    """A ruling that cannot be applied; the message says why."""


@dataclass(frozen=True)
class Amount:
    points: int = 0
    shared: bool = False


@dataclass(frozen=True)
class TimeRules:
    turn_seconds: float = 15
    hand_seconds: float = 180
    per_seconds: float = 15
    points: int = 5
    unwilling_at: int = 80


@dataclass(frozen=True)
class EventRules:
    """An event's amounts (see `rules/wmc.toml`)."""

    name: str
    minimum_fan: int = 8
    base: int = 8
    hands_per_session: int = 16
    table_points: tuple[int, ...] = (4, 2, 1, 0)
    false_win: Amount = Amount(30, True)
    changed_call: Amount = Amount(0, False)
    withdrawn_win_tiles: int = 3
    cancelled_call_tiles: int = 2
    arbiter_zero_sum: bool = False
    time: TimeRules = TimeRules()


def _int(doc: dict[str, object], key: str, default: int, where: str) -> int:
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PenaltyError(f"{where}{key}: must be a whole number, 0 or more")
    return value


def _bool(doc: dict[str, object], key: str, default: bool, where: str) -> bool:
    value = doc.get(key, default)
    if not isinstance(value, bool):
        raise PenaltyError(f"{where}{key}: must be true or false")
    return value


def _table(doc: dict[str, object], key: str) -> dict[str, object]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise PenaltyError(f"{key}: must be a table")
    return value


def _amount(doc: dict[str, object], key: str, default: Amount) -> Amount:
    part = _table(doc, key)
    return Amount(
        _int(part, "points", default.points, f"{key}."),
        _bool(part, "shared", default.shared, f"{key}."),
    )


def parse_event_rules(text: str) -> EventRules:
    """An event's amounts from TOML text; absent keys keep the championship's values."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PenaltyError(f"not valid TOML: {exc}") from None
    places = doc.get("table_points", [4, 2, 1, 0])
    if not (isinstance(places, list) and len(places) == SEATS
            and all(isinstance(p, int) and not isinstance(p, bool) for p in places)):
        raise PenaltyError("table_points: must list four whole numbers")
    t = _table(doc, "time")
    d = TimeRules()
    return EventRules(
        name=str(doc.get("name", "custom")),
        minimum_fan=_int(doc, "minimum_fan", 8, ""),
        base=_int(doc, "base", 8, ""),
        hands_per_session=_int(doc, "hands_per_session", 16, ""),
        table_points=tuple(places),
        false_win=_amount(doc, "false_win", Amount(30, True)),
        changed_call=_amount(doc, "changed_call", Amount(0, False)),
        withdrawn_win_tiles=_int(_table(doc, "withdrawn_win"), "penalty_tiles", 3,
                                 "withdrawn_win."),
        cancelled_call_tiles=_int(_table(doc, "cancelled_call"), "penalty_tiles", 2,
                                  "cancelled_call."),
        arbiter_zero_sum=_bool(_table(doc, "arbiter"), "zero_sum", False, "arbiter."),
        time=TimeRules(
            turn_seconds=_int(t, "turn_seconds", int(d.turn_seconds), "time."),
            hand_seconds=_int(t, "hand_seconds", int(d.hand_seconds), "time."),
            per_seconds=_int(t, "per_seconds", int(d.per_seconds), "time.") or 1,
            points=_int(t, "points", d.points, "time."),
            unwilling_at=_int(t, "unwilling_at", d.unwilling_at, "time."),
        ),
    )


def event_rules(name: str = "wmc") -> EventRules:
    """A shipped event's amounts by name (today: `wmc`)."""
    if name != "wmc":
        raise PenaltyError(f"unknown event rules {name!r} (shipped: wmc)")
    shipped = resources.files("ball.games.mahjong.engine").joinpath("rules", "wmc.toml")
    return parse_event_rules(shipped.read_text("utf-8"))


def overrun_points(over_seconds: float, per_seconds: float = 15, points: int = 5) -> int:
    """`points` per started `per_seconds` beyond a limit (TL 1, 2): 0.1 s over costs one
    step, exactly 15 s over one step, 15.1 s two."""
    if over_seconds <= 0:
        return 0
    return points * math.ceil(over_seconds / per_seconds - 1e-9)


# --- the table's log ----------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One ruling: when (seconds, the caller's clock), whose seat, the article, the points
    it moves (per seat), penalty tiles, and what happened."""

    at: float
    seat: int
    article: str
    ruling: str
    points: Scores = (0, 0, 0, 0)
    penalty_tiles: int = 0
    note: str = ""
    waived: bool = False
    hand: int = 0  # the hand of the session it was given in (set by the log)

    def to_json(self) -> dict[str, object]:
        return {
            "at": self.at, "seat": self.seat, "article": self.article, "ruling": self.ruling,
            "points": list(self.points), "penalty_tiles": self.penalty_tiles,
            "note": self.note, "waived": self.waived, "hand": self.hand,
        }


@dataclass
class SeatState:
    dead: bool = False
    long: bool = False  # a long hand also may not call or kong (LS 4)
    penalty_tiles: int = 0
    unwilling: bool = False  # confirmed by the arbiter (TL 7)
    unwilling_pending: bool = False  # the 80-point line reached, awaiting the arbiter
    false_win: bool = False  # declared a false win: may not win this hand (MCR)


def _seat(seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise PenaltyError("seat: a seat is 0, 1, 2 or 3")
    return seat


def _spread(seat: int, points: int, shared: bool) -> Scores:
    """`points` taken from `seat`, and given in equal parts to the other three if shared."""
    if shared and points % (SEATS - 1):
        raise PenaltyError(
            f"points: {points} cannot be shared equally among the other three players "
            "(this event shares penalties: use a multiple of 3)"
        )
    out = [points // (SEATS - 1) if shared else 0] * SEATS
    out[seat] = -points
    return (out[0], out[1], out[2], out[3])


@dataclass
class TableLog:
    """One table's rulings for the session in play: the log and each seat's state in the
    current hand (`new_hand` clears the states, never the log)."""

    rules: EventRules = field(default_factory=event_rules)
    entries: list[Entry] = field(default_factory=list)
    seats: list[SeatState] = field(default_factory=lambda: [SeatState() for _ in range(SEATS)])
    hand: int = 1
    hand_time_points: list[int] = field(default_factory=lambda: [0] * SEATS)

    def _log(self, entry: Entry) -> Entry:
        entry = replace(entry, hand=self.hand)
        self.entries.append(entry)
        return entry

    def new_hand(self) -> None:
        self.hand += 1
        self.seats = [SeatState() for _ in range(SEATS)]
        self.hand_time_points = [0] * SEATS

    # -- what a seat may do
    def may_win(self, seat: int) -> bool:
        state = self.seats[_seat(seat)]
        return not (state.dead or state.false_win)

    def may_call(self, seat: int) -> bool:
        """Chow, pung or kong on a discard, or a kong of one's own (LS 4, WC 5)."""
        return not self.seats[_seat(seat)].long

    # -- long and short hands
    def tile_count(self, at: float, seat: int, tiles: int, on_turn: bool) -> Entry | None:
        """A count of a seat's tiles (a kong counted as three): 14 on its turn, 13 otherwise
        (LS 2). Too many is a long hand, too few a short one; a right count never revives a
        dead hand (LS 5)."""
        right = 14 if on_turn else 13
        if tiles == right:
            return None
        return self.wrong_count(at, seat, long=tiles > right)

    def wrong_count(self, at: float, seat: int, long: bool) -> Entry:
        state = self.seats[_seat(seat)]
        state.dead = True
        state.long = state.long or long
        what = "long hand: dead, may not call or kong" if long else "short hand: dead"
        return self._log(Entry(at, seat, "LS 4" if long else "LS 3", Logged.DEAD_HAND, note=what))

    # -- wrong calls
    def corrected_exposure(self, at: float, seat: int, spare_tiles: int) -> Entry:
        """A wrong exposure put right at once; tiles shown that the corrected set does not
        use become penalty tiles (WC 1)."""
        return self._penalty_tiles(at, seat, "WC 1", Logged.CORRECTED_EXPOSURE, spare_tiles)

    def changed_call(self, at: float, seat: int) -> Entry:
        """A call changed before the tiles were shown: the event's penalty (WC 2)."""
        amount = self.rules.changed_call
        return self._log(Entry(at, _seat(seat), "WC 2", Logged.CHANGED_CALL,
                               _spread(seat, amount.points, amount.shared)))

    def cancelled_call(self, at: float, seat: int) -> Entry:
        """A chow, pung or kong call withdrawn before showing: two penalty tiles (WC 3)."""
        return self._penalty_tiles(at, seat, "WC 3", Logged.CANCELLED_CALL,
                                   self.rules.cancelled_call_tiles)

    def cancelled_kong(self, at: float, seat: int) -> Entry:
        """A kong of one's own withdrawn before showing: no penalty (WC 4)."""
        return self._log(Entry(at, _seat(seat), "WC 4", Logged.CANCELLED_KONG))

    def late_wrong_exposure(self, at: float, seat: int, after_replacement: bool) -> Entry:
        """A wrong exposure found too late: the hand is dead; after a replacement tile it is
        also long, so no more calls or kongs (WC 5)."""
        state = self.seats[_seat(seat)]
        state.dead = True
        state.long = state.long or after_replacement
        return self._log(Entry(at, seat, "WC 5", Logged.DEAD_HAND,
                               note="wrong exposure found too late"))

    def false_win(self, at: float, seat: int, exposed_tiles: int) -> Entry:
        """A false win: play goes on, the wrongly exposed tiles become penalty tiles, and the
        event's points (WC 6, 8). The seat may not declare a win on this hand again (MCR),
        though it still plays, calls and kongs."""
        amount = self.rules.false_win
        state = self.seats[_seat(seat)]
        state.penalty_tiles += exposed_tiles
        state.false_win = True
        return self._log(Entry(at, seat, "WC 6", Logged.FALSE_WIN,
                               _spread(seat, amount.points, amount.shared),
                               penalty_tiles=exposed_tiles))

    def withdrawn_win(self, at: float, seat: int, concealed_tiles: int) -> Entry:
        """A win declared and withdrawn before showing: three penalty tiles, or all of the
        concealed tiles when there are fewer (WC 7)."""
        return self._penalty_tiles(at, seat, "WC 7", Logged.WITHDRAWN_WIN,
                                   min(self.rules.withdrawn_win_tiles, concealed_tiles))

    def _penalty_tiles(self, at: float, seat: int, article: str, ruling: str, n: int) -> Entry:
        if n < 0:
            raise PenaltyError("penalty tiles: cannot be negative")
        self.seats[_seat(seat)].penalty_tiles += n
        return self._log(Entry(at, seat, article, ruling, penalty_tiles=n))

    # -- the arbiter
    def arbiter_penalty(
        self, at: float, seat: int, points: int, article: str, zero_sum: bool | None = None
    ) -> Entry:
        """Points the arbiter takes from `seat`, any amount, given to no one (MCR); given in
        equal parts to the other three only when the event chose to keep scores summing to
        zero (`[arbiter] zero_sum`, or `zero_sum` says so)."""
        if points <= 0:
            raise PenaltyError("points: an arbiter penalty takes 1 point or more")
        shared = self.rules.arbiter_zero_sum if zero_sum is None else zero_sum
        seat = _seat(seat)  # checked before the points are spread over the table
        return self._log(Entry(at, seat, article, Logged.ARBITER, _spread(seat, points, shared)))

    # -- time
    def time_overrun(self, at: float, seat: int, over_seconds: float, limit: str) -> Entry:
        """A turn (`limit="turn"`, TL 2) or hand budget (`"hand"`, TL 1) overrun: points per
        started step, cumulative (TL 5). Reaching the unwilling line in one hand marks the
        seat pending the arbiter's confirmation (TL 7)."""
        if limit not in ("turn", "hand"):
            raise PenaltyError("limit: turn or hand")
        t = self.rules.time
        points = overrun_points(over_seconds, t.per_seconds, t.points)
        turn = limit == "turn"
        entry = self._log(Entry(at, _seat(seat), "TL 2" if turn else "TL 1",
                                Logged.TURN_OVERRUN if turn else Logged.HAND_OVERRUN,
                                _spread(seat, points, False), note=f"{over_seconds:g} s over"))
        self.hand_time_points[seat] += points
        if self.hand_time_points[seat] >= t.unwilling_at and not self.seats[seat].unwilling:
            self.seats[seat].unwilling_pending = True
        return entry

    def waive(self, at: float, index: int, reason: str) -> Entry:
        """The referee waives a time penalty with good reason: the entry stays, marked
        waived, and a new entry gives the points back."""
        if not 0 <= index < len(self.entries):
            raise PenaltyError(f"entry {index}: no such entry in the log")
        old = self.entries[index]
        if old.ruling not in (Logged.TURN_OVERRUN, Logged.HAND_OVERRUN) or old.waived:
            raise PenaltyError(f"entry {index}: only a time penalty not yet waived can be waived")
        if not reason.strip():
            raise PenaltyError("reason: a waiver needs a reason")
        self.entries[index] = replace(old, waived=True)
        back = (-old.points[0], -old.points[1], -old.points[2], -old.points[3])
        if old.hand == self.hand:  # an earlier hand's overrun no longer counts to the line
            self.hand_time_points[old.seat] += old.points[old.seat]
            if self.hand_time_points[old.seat] < self.rules.time.unwilling_at:
                self.seats[old.seat].unwilling_pending = False
        return self._log(Entry(at, old.seat, "TL 6", Logged.WAIVER, back, note=reason.strip()))

    def confirm_unwilling(self, at: float, seat: int) -> Entry:
        """The arbiter confirms that a seat past the 80-point line is unwilling to continue
        (TL 7)."""
        state = self.seats[_seat(seat)]
        if not state.unwilling_pending:
            raise PenaltyError(
                f"seat {seat}: has not reached {self.rules.time.unwilling_at} time points "
                "in this hand"
            )
        state.unwilling, state.unwilling_pending = True, False
        return self._log(Entry(at, seat, "TL 7", Logged.UNWILLING))

    def points(self) -> Scores:
        """Each seat's penalty points so far (waived ones given back)."""
        return (
            sum(e.points[0] for e in self.entries), sum(e.points[1] for e in self.entries),
            sum(e.points[2] for e in self.entries), sum(e.points[3] for e in self.entries),
        )
