"""What the ranking reads of an event, as typed protocols, and a plain-row copy of it.

`crosstable.build`, `standings.of_event`, `knockout.reach` and the article-20 rulings of
`withdrawal_event` read an event through the protocols below (`EventData` and the rows it
holds). The ORM `Event` satisfies them, and so do the plain dataclasses `read` builds from
four Core row queries: at 1,000 entrants loading the event as ORM objects (identity map,
instance building, instrumented attribute reads) cost more than the ranking itself, and
every result makes a public standings page rank again (issue 15, target 2). The rules stay
in those modules; this one only reads rows.

Not every event ranks from rows: a team event, a groups event and a knockout of
mini-matches need more of the database (teams, the group stage, each tie's games) than the
rows here hold; `plain_ranks` says which events do, and the others rank from the ORM.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.tournament.models import Entrant, Event, GroupStage, Pairing, Result, Round, TeamEvent

# ------------------------------------------------------------------ the protocols


class ResultData(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def forfeit_by(self) -> str | None: ...
    @property
    def outcome(self) -> str: ...
    @property
    def decision(self) -> str: ...


class EntrantData(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def federation(self) -> str: ...
    @property
    def rating(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def first_round(self) -> int: ...
    @property
    def withdrawn_after(self) -> int | None: ...
    @property
    def registered(self) -> int: ...


class PairingData(Protocol):
    @property
    def a_id(self) -> int: ...
    @property
    def b_id(self) -> int | None: ...
    @property
    def bye(self) -> str | None: ...
    @property
    def a(self) -> EntrantData: ...
    @property
    def b(self) -> EntrantData | None: ...
    @property
    def result(self) -> ResultData | None: ...


class RoundData(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def pairings(self) -> Sequence[PairingData]: ...


class EventData(Protocol):
    """An event as the ranking reads it: entrants in registration order, rounds by
    number, each round's tables by table number (the ORM relationships' orders)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def system(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def scoring(self) -> str: ...
    @property
    def tiebreaks(self) -> str: ...
    @property
    def tiebreak_rules(self) -> str: ...
    @property
    def late_entry_bye(self) -> str: ...
    @property
    def knockout_replays(self) -> int: ...
    @property
    def games_per_tie(self) -> int: ...
    @property
    def entrants(self) -> Sequence[EntrantData]: ...
    @property
    def rounds_(self) -> Sequence[RoundData]: ...


# ------------------------------------------------------------------ plain rows


@dataclass(frozen=True, slots=True)
class ResultRow:
    kind: str
    forfeit_by: str | None
    outcome: str
    decision: str


@dataclass(frozen=True, slots=True)
class EntrantRow:
    id: int
    number: int
    name: str
    federation: str
    rating: int | None
    status: str
    first_round: int
    withdrawn_after: int | None
    registered: int


@dataclass(frozen=True, slots=True)
class PairingRow:
    a_id: int
    b_id: int | None
    bye: str | None
    a: EntrantRow
    b: EntrantRow | None
    result: ResultRow | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    method: str
    pairings: list[PairingRow] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class EventRows:
    id: int
    name: str
    system: str
    game: str
    scoring: str
    tiebreaks: str
    tiebreak_rules: str
    late_entry_bye: str
    knockout_replays: int
    games_per_tie: int
    entrants: list[EntrantRow] = field(default_factory=list)
    rounds_: list[RoundRow] = field(default_factory=list)


_ENTRANT_COLUMNS = (
    Entrant.id,
    Entrant.number,
    Entrant.name,
    Entrant.federation,
    Entrant.rating,
    Entrant.status,
    Entrant.first_round,
    Entrant.withdrawn_after,
    Entrant.registered,
)
_EVENT_COLUMNS = (
    Event.id,
    Event.name,
    Event.system,
    Event.game,
    Event.scoring,
    Event.tiebreaks,
    Event.tiebreak_rules,
    Event.late_entry_bye,
    Event.knockout_replays,
    Event.games_per_tie,
)


def plain_ranks(s: Session, ev: EventData) -> bool:
    """Whether the event's standings come from `read` alone (see the module docstring)."""
    return (
        ev.system != "groups"
        and (ev.games_per_tie or 1) <= 1
        and s.get(TeamEvent, ev.id) is None
        and s.get(GroupStage, ev.id) is None
    )


def read(s: Session, event_id: int) -> EventRows | None:
    """The stored event as plain rows, ordered as the ORM's relationships order them
    (None: no such event)."""
    head = s.execute(select(*_EVENT_COLUMNS).where(Event.id == event_id)).one_or_none()
    if head is None:
        return None
    entrants = [
        EntrantRow(*row)
        for row in s.execute(
            select(*_ENTRANT_COLUMNS)
            .where(Entrant.event_id == event_id)
            .order_by(Entrant.registered, Entrant.id)
        )
    ]
    by_id = {e.id: e for e in entrants}
    rounds = s.execute(
        select(Round.id, Round.number, Round.method)
        .where(Round.event_id == event_id)
        .order_by(Round.number, Round.id)
    ).all()
    tables = s.execute(
        select(
            Pairing.round_id,
            Pairing.a_id,
            Pairing.b_id,
            Pairing.bye,
            Result.id,
            Result.kind,
            Result.forfeit_by,
            Result.outcome,
            Result.decision,
        )
        .join(Round, Round.id == Pairing.round_id)
        .outerjoin(Result, Result.pairing_id == Pairing.id)
        .where(Round.event_id == event_id)
        .order_by(Pairing.round_id, Pairing.table, Pairing.id)
    ).all()
    _add_strangers(s, by_id, tables)
    pairings: dict[int, list[PairingRow]] = {round_id: [] for round_id, _, _ in rounds}
    for round_id, a_id, b_id, bye, result_id, kind, forfeit_by, outcome, decision in tables:
        result = ResultRow(kind, forfeit_by, outcome, decision) if result_id is not None else None
        b = by_id[b_id] if b_id is not None else None
        pairings[round_id].append(PairingRow(a_id, b_id, bye, by_id[a_id], b, result))
    return EventRows(
        head.id,
        head.name,
        head.system,
        head.game,
        head.scoring,
        head.tiebreaks,
        head.tiebreak_rules,
        head.late_entry_bye,
        head.knockout_replays,
        head.games_per_tie,
        entrants,
        [RoundRow(number, method, pairings[rid]) for rid, number, method in rounds],
    )


def _add_strangers(s: Session, by_id: dict[int, EntrantRow], tables: Sequence[Any]) -> None:
    """Add to `by_id` (a lookup, not the event's list) the entrants a table names that are
    not the event's own: none in a sound database, but the ORM would load them."""
    missing = {row.a_id for row in tables} | {row.b_id for row in tables if row.b_id is not None}
    missing -= by_id.keys()
    if missing:
        query = select(*_ENTRANT_COLUMNS).where(Entrant.id.in_(sorted(missing)))
        by_id.update({row[0]: EntrantRow(*row) for row in s.execute(query)})
