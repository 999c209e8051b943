"""Clocks in the shared database: creating clocks, appending to their logs, reading them back.

The rows themselves (one per table clock, and its append-only event log) are declared in
`ball.clocks.models`; this module owns the store logic over them.

The state is replayed from the log at the instant asked for, with the wall-clock time of an
injectable time source; recording an event starts from the stored snapshot of the fold
(`ball.clocks.fold`, refreshed every SNAPSHOT_EVERY events) and replays only the events
after it, so a press costs the same at event 1,000 as at event 10. So a server restart or a
closed browser tab loses neither an event nor a second — time keeps running while nobody is
looking, exactly as on a clock that never stopped. Each event gets the next sequence number
under a unique constraint, so two presses racing each other cannot both land on the same
state.

A clock bound to an event is pressed only by the table device the desk gave its key to
(`device_key`, issue 30) or by the event's desk: every event of such a clock carries the key,
checked in constant time inside the writing transaction. Anyone may read its face.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ball import device_key, pin_hash
from ball.clocks import fold
from ball.clocks.clock import Clock
from ball.clocks.controls import ControlError, TimeControl, get_control, parse_control
from ball.clocks.events import ARBITER_KINDS, EVENT_KINDS, ClockEvent, ClockRejected
from ball.clocks.models import ClockEventRow, ClockRow, ClockSnapshotRow
from ball.storage import ids
from ball.storage.text import bad_character, too_long

TimeSource = Callable[[], float]
# A press replays at most this many events after the snapshot; the snapshot row is written
# once per this many events, so most presses add one row and nothing else.
SNAPSHOT_EVERY = 32


class ClockNotFound(LookupError):
    pass


def _clock_row(session: Session, clock_id: int) -> ClockRow:
    row = session.get(ClockRow, clock_id) if ids.in_range(clock_id) else None
    if row is None:
        raise ClockNotFound(f"no clock {clock_id}")
    return row


class PinRefused(PermissionError):
    pass


class DeviceRefused(PermissionError):
    """An event for a clock bound to an event, without its table device key."""


def hash_pin(pin: str) -> str:
    return pin_hash.hash_pin(pin)  # scrypt, its cost in the string (ball.pin_hash)


def pin_matches(pin: str, stored: str) -> bool:
    return pin_hash.pin_matches(pin, stored)


def check_pin_text(pin: object) -> str:
    if not isinstance(pin, str) or not (4 <= len(pin) <= 64) or pin.strip() != pin:
        raise ClockRejected("pin: 4 to 64 characters without surrounding spaces")
    return pin


@dataclass
class ClockView:
    """One stored clock with its log replayed to an instant."""

    id: int
    table: str
    round: str
    control: TimeControl
    clock: Clock
    event_id: int | None = None

    def state_line(self) -> str:
        """One line for a terminal: number, table, status, mover, points and flags."""
        state = self.clock.snapshot()
        mover = state["mover"]
        parts = [f"{self.id}", self.table, state["status"]]
        parts.append("-" if mover is None else state["players"][mover]["name"])
        for p in state["players"]:
            marks = f"{p['penalty_points']}pt" + (" FLAG" if p["flagged"] else "")
            parts.append(f"{p['name']}={marks}")
        return "\t".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "table": self.table,
            "round": self.round,
            "event_id": self.event_id,
            "control_title": self.control.title,
            "state": self.clock.snapshot(),
        }


class ClockStore:
    """Creates clocks, records events and replays state; `now` is the time source."""

    def __init__(self, sessions: sessionmaker[Session], now: TimeSource = time.time) -> None:
        self.sessions = sessions
        self.now = now

    # ----- creating and reading -------------------------------------------------------

    def create(
        self,
        table: str,
        control: str | TimeControl | dict[str, Any],
        pin: str | None,
        players: list[str] | None = None,
        round: str = "",
        event_id: int | None = None,
    ) -> ClockView:
        """A new clock; `pin` guards its arbiter events, and may be left out for a clock of a
        tournament event (then only the event's desk session can pause it)."""
        tc = _control(control)
        if pin is None and event_id is None:
            raise ClockRejected("pin: give an arbiter PIN (or create the clock for an event)")
        if not isinstance(table, str) or not table.strip() or len(table) > 80:
            raise ClockRejected("table: give a table label of 1 to 80 characters")
        if not isinstance(round, str) or len(round) > 80:
            raise ClockRejected("round: at most 80 characters")
        _one_line("table", table)
        _one_line("round", round)
        names = _players(players, tc)
        Clock(tc, names)  # checks the number of players
        row = ClockRow(
            table_label=table.strip(),
            round_label=round.strip(),
            control_name=tc.name,
            control=json.dumps(tc.to_json()),
            players=json.dumps(names),
            pin_hash="" if pin is None else hash_pin(check_pin_text(pin)),
            created_at=self.now(),
            event_id=event_id,
            device_key="" if event_id is None else device_key.new_key(),
        )
        with self.sessions() as session, session.begin():
            session.add(row)
            session.flush()
            clock_id = row.id
        return self.view(clock_id)

    def view(self, clock_id: int, at: float | None = None) -> ClockView:
        with self.sessions() as session:
            row, events = self._load(session, clock_id)
            return self._replay(row, events, self.now() if at is None else at)

    def round_views(self, round: str, event_id: int | None = None) -> list[ClockView]:
        """The clocks of a round (of one event, when given), in creation order."""
        now = self.now()
        query = select(ClockRow).where(ClockRow.round_label == round)
        if event_id is not None:
            if not ids.in_range(event_id):  # no event has it (and SQLite overflows on it)
                return []
            query = query.where(ClockRow.event_id == event_id)
        with self.sessions() as session:
            rows = session.scalars(query.order_by(ClockRow.id)).all()
            return [self._replay(r, self._events(session, r.id), now) for r in rows]

    def period_ends(self, round: str, event_id: int, period: int) -> dict[int, float]:
        """When each clock of round `round` bound to `event_id` ended period `period`, by
        table number (a clock's table label is the number, optionally after a word:
        "Table 3"); clocks whose label names no number, or that have not ended the period,
        are left out. Only clocks bound to the event count: the clock API binds a clock to
        an event only for a request with that event's desk session and CSRF token, so a
        clock anyone on the LAN made with the same round label cannot report for it."""
        found: dict[int, float] = {}
        for view in self.round_views(round, event_id):
            if view.event_id != event_id:  # round_views filters; this keeps the rule local
                continue
            number = re.fullmatch(r"\D*(\d+)", view.table.strip())
            if number is None:
                continue
            for notice in view.clock.timeline:
                if (
                    notice["source"] == "clock"
                    and notice["kind"] == "period_end"
                    and notice["data"].get("period") == period
                ):
                    found.setdefault(int(number.group(1)), notice["at"])
                    break
        return found

    def rounds(self) -> list[str]:
        with self.sessions() as session:
            found = session.scalars(select(ClockRow.round_label).distinct()).all()
        return sorted(found)

    def events(self, clock_id: int) -> list[ClockEvent]:
        with self.sessions() as session:
            self._load(session, clock_id)
            return [_event(e) for e in self._events(session, clock_id)]

    # ----- recording --------------------------------------------------------------------

    def record(
        self,
        clock_id: int,
        kind: str,
        data: dict[str, Any] | None = None,
        pin: str | None = None,
        arbiter: bool = False,
        key: str | None = None,
    ) -> ClockView:
        """Append one event stamped with the time source (never earlier than the last one),
        after checking that the clock accepts it; arbiter events need the clock's PIN unless
        the caller already checked the arbiter (`arbiter=True`: the event's desk session).
        Any other event of a clock bound to an event needs its table device `key` (or the
        desk)."""
        if kind not in EVENT_KINDS:
            raise ClockRejected(f"kind: {kind!r} is not one of {', '.join(EVENT_KINDS)}")
        if data is not None and not isinstance(data, dict):
            raise ClockRejected("data: must be an object")
        # A racing writer makes the sequence number clash (or SQLite refuses the stale
        # snapshot): replay again on the new log, which may now reject the event.
        for _attempt in range(4):
            try:
                return self._record_once(clock_id, kind, dict(data or {}), pin, arbiter, key)
            except (IntegrityError, OperationalError):
                continue
        raise ClockRejected("busy: another event was recorded at the same time; try again")

    def _record_once(
        self,
        clock_id: int,
        kind: str,
        data: dict[str, Any],
        pin: str | None,
        arbiter: bool,
        key: str | None,
    ) -> ClockView:
        with self.sessions() as session, session.begin():
            row = _clock_row(session, clock_id)
            _check_writer(row, kind, pin, arbiter, key)
            view, seq, last_at, since = self._fold_to_end(session, row)
            at = max(self.now(), last_at)  # a wall clock stepped back never reorders the log
            event = ClockEvent(kind, at, data)
            view.clock.apply(event)  # raises ClockRejected: nothing is written
            session.add(
                ClockEventRow(
                    clock_id=clock_id, seq=seq + 1, kind=kind, at=at, data=json.dumps(data)
                )
            )
            if since + 1 >= SNAPSHOT_EVERY:
                session.merge(
                    ClockSnapshotRow(
                        clock_id=clock_id,
                        seq=seq + 1,
                        at=at,
                        state=json.dumps(fold.save(view.clock)),
                    )
                )
        return view

    def _fold_to_end(self, session: Session, row: ClockRow) -> tuple[ClockView, int, float, int]:
        """The clock after its whole log, from the snapshot plus the events after it: the
        view, the last event's number and instant, and how many events came after the
        snapshot. No snapshot, or one this code cannot read: a full replay."""
        tc = TimeControl.model_validate(json.loads(row.control))
        players = json.loads(row.players)
        snap = session.get(ClockSnapshotRow, row.id)
        clock: Clock | None = None
        seq, last_at = 0, float("-inf")
        if snap is not None:
            try:
                clock = fold.resume(tc, players, json.loads(snap.state))
                seq, last_at = snap.seq, snap.at
            except (fold.SnapshotUnusable, ValueError):
                clock = None
        if clock is None:
            clock = Clock(tc, players)
        tail = list(
            session.scalars(
                select(ClockEventRow)
                .where(ClockEventRow.clock_id == row.id, ClockEventRow.seq > seq)
                .order_by(ClockEventRow.seq)
            ).all()
        )
        for e in tail:
            clock.apply(_event(e))
        if tail:
            seq, last_at = tail[-1].seq, tail[-1].at
        view = ClockView(row.id, row.table_label, row.round_label, tc, clock, row.event_id)
        return view, seq, last_at, len(tail)

    def event_of(self, clock_id: int) -> int | None:
        with self.sessions() as session:
            return _clock_row(session, clock_id).event_id

    def round_keys(self, round: str, event_id: int) -> dict[int, str]:
        """The table device key of each clock of `round` bound to `event_id`, by clock id:
        for the event's desk only (it hands them to the tables)."""
        if not ids.in_range(event_id):
            return {}
        query = select(ClockRow.id, ClockRow.device_key).where(
            ClockRow.round_label == round, ClockRow.event_id == event_id
        )
        with self.sessions() as session:
            return {clock_id: key for clock_id, key in session.execute(query)}

    def key_of(self, clock_id: int) -> tuple[int | None, str]:
        """(the event the clock is bound to, its device key): for that event's desk only."""
        with self.sessions() as session:
            row = _clock_row(session, clock_id)
            return row.event_id, row.device_key

    # ----- helpers ----------------------------------------------------------------------

    def _load(self, session: Session, clock_id: int) -> tuple[ClockRow, list[ClockEventRow]]:
        return _clock_row(session, clock_id), self._events(session, clock_id)

    @staticmethod
    def _events(session: Session, clock_id: int) -> list[ClockEventRow]:
        query = (
            select(ClockEventRow)
            .where(ClockEventRow.clock_id == clock_id)
            .order_by(ClockEventRow.seq)
        )
        return list(session.scalars(query).all())

    @staticmethod
    def _replay(row: ClockRow, rows: list[ClockEventRow], at: float | None) -> ClockView:
        tc = TimeControl.model_validate(json.loads(row.control))
        clock = Clock(tc, json.loads(row.players))
        for e in rows:
            clock.apply(_event(e))
        if at is not None:
            clock.advance(at)
        return ClockView(row.id, row.table_label, row.round_label, tc, clock, row.event_id)


def _check_writer(
    row: ClockRow, kind: str, pin: str | None, arbiter: bool, key: str | None
) -> None:
    """Who may append `kind`: arbiter events take the desk (`arbiter`) or the clock's PIN;
    the players' events of a clock bound to an event take the desk or the table's key."""
    if arbiter:
        return
    if kind in ARBITER_KINDS:
        if not (pin and row.pin_hash and pin_matches(pin, row.pin_hash)):
            raise PinRefused(f"pin: {kind} is for the arbiter; the PIN is missing or wrong")
    elif row.event_id is not None and not device_key.matches(key, row.device_key):
        raise DeviceRefused(
            f"key: clock {row.id} belongs to an event; only the table device the desk gave "
            "its key to may press it (the key is missing or wrong)"
        )


def _event(row: ClockEventRow) -> ClockEvent:
    return ClockEvent(row.kind, row.at, json.loads(row.data))


def _control(control: str | TimeControl | dict[str, Any]) -> TimeControl:
    try:
        if isinstance(control, TimeControl):
            return control
        if isinstance(control, dict):
            return parse_control(json.dumps(control))
        if isinstance(control, str):
            return get_control(control)
    except ControlError as exc:
        raise ClockRejected(f"control: {exc}") from exc
    raise ClockRejected("control: give a control name or a control object")


def _players(players: list[str] | None, tc: TimeControl) -> list[str]:
    if players is None:
        return list(tc.players)
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ClockRejected("players: a list of names")
    names = [p.strip() for p in players]
    if any(not n or len(n) > 60 for n in names) or len(set(names)) != len(names):
        raise ClockRejected("players: names of 1 to 60 characters, all different")
    for name in names:
        _one_line("players", name)
    return names


def _one_line(label: str, text: str) -> None:
    """A label or a name is one line of printable text (see `ball.storage.text`), at most
    NAME_MAX characters."""
    if (why := too_long(text.strip(), label)) is not None:
        raise ClockRejected(why)
    char = bad_character(text.strip())
    if char is not None:
        raise ClockRejected(
            f"{label}: one line of printable text, without a control character or line "
            f"break (U+{ord(char):04X})"
        )
