"""The common start signals of a round (spec 15, R-signal), stored in the "desk" tables
(`models.Signal`, `models.HalfEnd`).

Signal 1 starts every first half of a round at once. Each table's first-half end (Final Drive
included) is recorded, by the arbiter or reported from the table. Signal 2 starts every
second half at once and may not be given before the last first half ended plus the gap the
event's game sets (`Game.signal_gap`: BALL's ruleset's `[time]
second_half_signal_gap_minutes`; 10 minutes for a game that sets none); early finishers rest.

Times are POSIX seconds handed in by the caller, so tests drive a fake clock. The table
clocks of a round carry `clock_round_label` as their round label, which is how the desk finds
the first-half ends they report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ball.games import GAMES, load
from ball.storage import ids
from ball.tournament.errors import TournamentError
from ball.tournament.models import HalfEnd, Pairing, Round, Signal

SOURCES = ("arbiter", "table")
# R-signal (spec 15): the minutes of rest before signal 2 for a game whose rules set none
# (`Game.signal_gap` None): the figure of BALL's standard ruleset, so every game rests alike.
DEFAULT_GAP_MINUTES = 10.0


def clock_round_label(event_name: str, number: int) -> str:
    """The round label under which the desk looks for this round's table clocks."""
    return f"{event_name} R{number}"


@dataclass(frozen=True)
class TableState:
    table: int
    a: str
    b: str
    first_half_end: float | None
    source: str | None

    @property
    def playing(self) -> bool:
        return self.first_half_end is None


@dataclass(frozen=True)
class RoundControl:
    """What the round-control page shows at `now`."""

    round_number: int
    now: float
    gap_seconds: float
    signal1: float | None
    signal2: float | None
    tables: list[TableState] = field(default_factory=list)

    @property
    def still_playing(self) -> list[int]:
        return [t.table for t in self.tables if t.playing] if self.signal1 is not None else []

    @property
    def earliest_signal2(self) -> float | None:
        """Last first-half end + gap, once every table has finished its first half."""
        if self.signal1 is None or any(t.playing for t in self.tables):
            return None
        ends = [t.first_half_end for t in self.tables if t.first_half_end is not None]
        return max(ends, default=self.signal1) + self.gap_seconds

    @property
    def seconds_to_signal2(self) -> float | None:
        earliest = self.earliest_signal2
        return None if earliest is None else max(0.0, earliest - self.now)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "now": self.now,
            "gap_seconds": self.gap_seconds,
            "signal1": self.signal1,
            "signal2": self.signal2,
            "still_playing": self.still_playing,
            "earliest_signal2": self.earliest_signal2,
            "seconds_to_signal2": self.seconds_to_signal2,
            "tables": [
                {
                    "table": t.table,
                    "a": t.a,
                    "b": t.b,
                    "first_half_end": t.first_half_end,
                    "source": t.source,
                    "playing": t.playing,
                }
                for t in self.tables
            ],
        }


def gap_seconds(game: str | None = None) -> float:
    """The minimum gap between the last first-half end and signal 2, in seconds: the one
    the game named `game` sets (`Game.signal_gap`), else `DEFAULT_GAP_MINUTES` (no game, an
    unknown one, or one that sets none)."""
    return gap_minutes(game) * 60.0


def gap_minutes(game: str | None = None) -> float:
    """The minutes the game named `game` rests before signal 2 (`gap_seconds`)."""
    entry = GAMES.get(game) if game is not None else None
    if entry is None or entry.signal_gap is None:
        return DEFAULT_GAP_MINUTES
    minutes: float = load(entry.signal_gap)()
    return float(minutes)


# A round's tables with their results and coaches, loaded in three queries: what
# `round_control` reads of each table (else one query per table and per coach).
ROUND_TABLES = selectinload(Round.pairings).options(
    selectinload(Pairing.result), selectinload(Pairing.a), selectinload(Pairing.b)
)


def _round(session: Session, event_id: int, number: int, *, tables: bool = True) -> Round:
    query = select(Round).where(Round.event_id == event_id, Round.number == number)
    rnd = session.scalar(query.options(ROUND_TABLES) if tables else query)
    if rnd is None:
        raise TournamentError(f"round {number} of event {event_id} has not been paired")
    return rnd


def plays(b_id: int | None, result_kind: str | None) -> bool:
    """Whether a table plays: it has two coaches and no forfeit has been entered for it."""
    return b_id is not None and (result_kind is None or result_kind == "sheet")


def _table_plays(p: Pairing) -> bool:
    """`plays` of a stored table."""
    return plays(p.b_id, p.result.kind if p.result else None)


def _playing_tables(rnd: Round) -> list[Pairing]:
    return [p for p in rnd.pairings if _table_plays(p)]


def _signals(session: Session, event_id: int, number: int) -> dict[int, float]:
    """When each signal of the round was given (1, 2: the ones given so far)."""
    query = select(Signal).where(Signal.event_id == event_id, Signal.round_number == number)
    return {s.signal: s.at for s in session.scalars(query)}


def round_control(
    session: Session, event_id: int, number: int, now: float, gap: float
) -> RoundControl:
    rnd = _round(session, event_id, number)
    playing = [
        (p.table, p.a.name, p.b.name if p.b is not None else "") for p in _playing_tables(rnd)
    ]
    return control_of(session, event_id, number, now, gap, playing)


def control_of(
    session: Session,
    event_id: int,
    number: int,
    now: float,
    gap: float,
    playing: list[tuple[int, str, str]],
) -> RoundControl:
    """`round_control` of a round whose playing tables (table, coach A, coach B, as
    `plays` chooses them) the caller read already: only the round's signals and
    half ends are read (a page showing the round read its tables once, issue 15)."""
    signals = _signals(session, event_id, number)
    ends = {
        h.table: h
        for h in session.scalars(
            select(HalfEnd).where(HalfEnd.event_id == event_id, HalfEnd.round_number == number)
        )
    }
    tables = [
        TableState(
            table,
            a,
            b,
            ends[table].at if table in ends else None,
            ends[table].source if table in ends else None,
        )
        for table, a, b in playing
    ]
    return RoundControl(number, now, gap, signals.get(1), signals.get(2), tables)


def give_signal(
    session: Session, event_id: int, number: int, which: int, now: float, gap: float
) -> Signal:
    """Store signal `which` (1 or 2) of round `number` at `now`; refuse it when too early."""
    state = round_control(session, event_id, number, now, gap)
    if which not in (1, 2):
        raise TournamentError(f"signal: {which} is not a signal; a round has signals 1 and 2")
    if which == 1 and state.signal1 is not None:
        raise TournamentError(f"signal 1 of round {number} was already given")
    if which == 2:
        if state.signal1 is None:
            raise TournamentError(f"signal 2 of round {number}: signal 1 has not been given")
        if state.signal2 is not None:
            raise TournamentError(f"signal 2 of round {number} was already given")
        if state.still_playing:
            tables = ", ".join(str(t) for t in state.still_playing)
            raise TournamentError(
                f"signal 2 of round {number}: table(s) {tables} still play their first half"
            )
        earliest = state.earliest_signal2
        if earliest is not None and now < earliest:
            raise TournamentError(
                f"signal 2 of round {number}: too early by {int(earliest - now + 0.999)} s "
                f"(the last first half ended less than {int(gap // 60)} minutes ago)"
            )
    row = Signal(event_id=event_id, round_number=number, signal=which, at=now)
    session.add(row)
    session.flush()
    return row


def record_half_end(
    session: Session,
    event_id: int,
    number: int,
    table: int,
    at: float,
    source: str = "arbiter",
) -> HalfEnd:
    """Record (or correct, before signal 2) when `table` finished its first half."""
    if source not in SOURCES:
        raise TournamentError(f"source: {source!r} is not one of {', '.join(SOURCES)}")
    # The checks of `round_control`'s state for this one table, reading only its row (the
    # whole round's state was ~40 ms of CPU per half end at 500 tables).
    rnd = _round(session, event_id, number, tables=False)
    signals = _signals(session, event_id, number)
    if signals.get(1) is None:
        raise TournamentError(f"round {number}: give signal 1 before recording half ends")
    if signals.get(2) is not None:
        raise TournamentError(f"round {number}: signal 2 was given; half ends are closed")
    # One pairing per table of a round (uq_tournament_pairing_table); a number no table can
    # have (the desk's path takes any integer) is not sent to the database.
    query = select(Pairing).where(Pairing.round_id == rnd.id, Pairing.table == table)
    found = session.scalar(query) if ids.in_range(table) else None
    if found is None or not _table_plays(found):
        raise TournamentError(f"round {number}: table {table} has no game being played")
    if at < signals[1]:
        raise TournamentError(f"table {table}: a first half cannot end before signal 1")
    row = session.scalar(
        select(HalfEnd).where(
            HalfEnd.event_id == event_id, HalfEnd.round_number == number, HalfEnd.table == table
        )
    )
    if row is None:
        row = HalfEnd(event_id=event_id, round_number=number, table=table, at=at, source=source)
        session.add(row)
    else:
        row.at, row.source = at, source
    session.flush()
    return row
