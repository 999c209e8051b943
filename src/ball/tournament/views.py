"""Plain, read-only snapshots of tournament rows for pages (the desk, the public display).

The read use cases of `desk_service` return these instead of ORM rows: a page renders them
after the transaction closed, so nothing can lazy-load, and no route needs a session. Field
names follow the rows they copy, so templates read `event.name`, `p.a.name`, `p.result`.

`read_event` builds a whole event's view from four Core row queries, without ORM objects:
at 1,000 entrants the ORM's identity map and instance building cost most of a public
page's first view after a result (issue 15); plain rows cost a fraction. It gives exactly
what `event_view` gives for the same rows (tests/tournament/test_read_event.py compares
them). A round's table views are kept across reads while every row they show is the same
(a result rebuilds its own round only); the views are shared, so read them, never change them.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.tournament import stored_json
from ball.tournament.models import Entrant, Event, Pairing, Result, Round, SanctionEntry


@dataclass(frozen=True)
class EntrantView:
    id: int
    number: int
    name: str
    club: str
    federation: str
    rating: int | None
    status: str
    first_round: int
    withdrawn_after: int | None


@dataclass(frozen=True)
class PairingView:
    """One table; `result` is `decision_of` the stored result (None before one is entered)."""

    id: int
    table: int
    a: EntrantView
    b: EntrantView | None
    b_id: int | None
    bye: str | None
    result: dict[str, Any] | None
    sheet: dict[str, Any] | None  # the stored score sheet, for filling the form again


@dataclass(frozen=True)
class RoundView:
    number: int
    method: str
    pairings: list[PairingView] = field(default_factory=list)
    # `read_event`'s digest of every row this round shows (its tables, their results, the
    # event's entrants): equal digests, equal rounds, so a page may keep a round's rendered
    # part across writes to other rounds. None when not read as rows (never reused).
    digest: int | None = field(default=None, compare=False, repr=False)
    # Whether players see the round (`Round.published`: a failed pairing check keeps it back)
    published: bool = True


@dataclass(frozen=True)
class EventView:
    """An event; `entrants` (by pairing number) and `rounds_` are empty in a list of events."""

    id: int
    name: str
    system: str
    rounds: int | None
    place: str
    date_start: str
    arbiter: str
    game: str
    tiebreaks: list[str]
    entrants: list[EntrantView] = field(default_factory=list)
    rounds_: list[RoundView] = field(default_factory=list)

    def round(self, number: int | None) -> RoundView | None:
        """Round `number`, or the latest when None; None when it is not paired."""
        if number is None:
            return self.rounds_[-1] if self.rounds_ else None
        return next((r for r in self.rounds_ if r.number == number), None)


@dataclass(frozen=True)
class SanctionView:
    step: str
    reason: str
    round_number: int | None
    table: int | None
    at: float


def decision_of(pairing: Pairing) -> dict[str, Any] | None:
    """What a page shows of a table's result: kind, who forfeited, outcome, the decision."""
    result = pairing.result
    if result is None:
        return None
    return _decision(result.kind, result.forfeit_by, result.outcome, result.decision)


def _decision(kind: str, forfeit_by: str | None, outcome: str, decision: str) -> dict[str, Any]:
    data = stored_json.loads(decision) if decision else {}
    return {
        "kind": kind,
        "forfeit_by": forfeit_by,
        "outcome": outcome,
        "decision": data.get("decision"),
    }


def entrant_view(e: Entrant) -> EntrantView:
    return EntrantView(
        e.id,
        e.number,
        e.name,
        e.club,
        e.federation,
        e.rating,
        e.status,
        e.first_round,
        e.withdrawn_after,
    )


def pairing_view(p: Pairing) -> PairingView:
    sheet = stored_json.loads(p.result.sheet) if p.result is not None and p.result.sheet else None
    return PairingView(
        p.id,
        p.table,
        entrant_view(p.a),
        entrant_view(p.b) if p.b is not None else None,
        p.b_id,
        p.bye,
        decision_of(p),
        sheet,
    )


def round_view(rnd: Round) -> RoundView:
    tables = [pairing_view(p) for p in rnd.pairings]
    return RoundView(rnd.number, rnd.method, tables, published=rnd.published is not False)


def published_only(event: EventView) -> EventView:
    """The event as its players see it: the rounds kept back by a failed pairing check
    (`Round.published`) left out."""
    if all(r.published for r in event.rounds_):
        return event
    return replace(event, rounds_=[r for r in event.rounds_ if r.published])


def event_view(ev: Event, *, full: bool = True) -> EventView:
    """The event; with `full`, its entrants by pairing number and its rounds with tables."""
    entrants = sorted(ev.entrants, key=lambda e: e.number) if full else []
    return EventView(
        ev.id,
        ev.name,
        ev.system,
        ev.rounds,
        ev.place,
        ev.date_start,
        ev.arbiter,
        ev.game,
        json.loads(ev.tiebreaks),
        [entrant_view(e) for e in entrants],
        [round_view(r) for r in ev.rounds_] if full else [],
    )


def sanction_view(entry: SanctionEntry) -> SanctionView:
    return SanctionView(entry.step, entry.reason, entry.round_number, entry.table, entry.at)


# ------------------------------------------------------------------ Core reads

# Rounds' table views kept across reads (`_round_tables`): every round of a few events,
# and the previous version of the rounds a result just changed.
KEPT_ROUNDS = 32
_KEPT_ROUNDS: OrderedDict[tuple[Any, ...], list[PairingView]] = OrderedDict()
_KEPT_LOCK = threading.Lock()

_ENTRANT_COLUMNS = (
    Entrant.id,
    Entrant.number,
    Entrant.name,
    Entrant.club,
    Entrant.federation,
    Entrant.rating,
    Entrant.status,
    Entrant.first_round,
    Entrant.withdrawn_after,
)
_EVENT_COLUMNS = (
    Event.id,
    Event.name,
    Event.system,
    Event.rounds,
    Event.place,
    Event.date_start,
    Event.arbiter,
    Event.game,
    Event.tiebreaks,
)
_TABLE_COLUMNS = (
    Pairing.id,
    Pairing.round_id,
    Pairing.table,
    Pairing.a_id,
    Pairing.b_id,
    Pairing.bye,
    Result.id.label("result_id"),
    Result.kind,
    Result.forfeit_by,
    Result.outcome,
    Result.decision,
    Result.sheet,
)


def read_event(s: Session, event_id: int) -> EventView | None:
    """`event_view(event)` of the stored event, read as plain rows (None: no such event).
    Entrants by pairing number, rounds by number, tables by table number, as the ORM's
    relationships order them."""
    head = s.execute(select(*_EVENT_COLUMNS).where(Event.id == event_id)).one_or_none()
    if head is None:
        return None
    entrant_rows = s.execute(
        select(*_ENTRANT_COLUMNS)
        .where(Entrant.event_id == event_id)
        .order_by(Entrant.number, Entrant.registered)
    ).all()
    own = [EntrantView(*row) for row in entrant_rows]
    rounds = s.execute(
        select(Round.id, Round.number, Round.method, Round.published)
        .where(Round.event_id == event_id)
        .order_by(Round.number, Round.id)
    ).all()
    tables = s.execute(
        select(*_TABLE_COLUMNS)
        .join(Round, Round.id == Pairing.round_id)
        .outerjoin(Result, Result.pairing_id == Pairing.id)
        .where(Round.event_id == event_id)
        .order_by(Pairing.round_id, Pairing.table, Pairing.id)
    ).all()
    entrants = {e.id: e for e in own}
    people_rows = [tuple(row) for row in entrant_rows]
    people_rows += _add_strangers(s, entrants, tables)
    raw: dict[int, list[tuple[Any, ...]]] = {round_id: [] for round_id, *_ in rounds}
    by_id: dict[int, list[Any]] = {round_id: [] for round_id, *_ in rounds}
    for row in tables:
        raw[row.round_id].append(tuple(row))
        by_id[row.round_id].append(row)
    people_key = tuple(people_rows)
    by_round = {
        round_id: _round_tables((people_key, tuple(raw[round_id])), by_id[round_id], entrants)
        for round_id, *_ in rounds
    }
    # Python's hash of the rows' plain values (per process, as the caches that use it)
    people = hash(tuple(entrants.values()))
    return EventView(
        head.id,
        head.name,
        head.system,
        head.rounds,
        head.place,
        head.date_start,
        head.arbiter,
        head.game,
        json.loads(head.tiebreaks),
        own,
        [
            RoundView(
                number,
                method,
                by_round[round_id],
                hash((people, number, method, tuple(raw[round_id]))),
                published is not False,
            )
            for round_id, number, method, published in rounds
        ],
    )


def _add_strangers(
    s: Session, entrants: dict[int, EntrantView], tables: Sequence[Any]
) -> list[tuple[Any, ...]]:
    """Add to `entrants` (a lookup, not the event's list) the entrants a table names that
    are not the event's own: none in a sound database, but the ORM would load them.
    Returns their rows."""
    missing = {row.a_id for row in tables} | {row.b_id for row in tables if row.b_id is not None}
    missing -= entrants.keys()
    if not missing:
        return []
    query = select(*_ENTRANT_COLUMNS).where(Entrant.id.in_(sorted(missing)))
    rows: list[tuple[Any, ...]] = [tuple(row) for row in s.execute(query)]
    entrants.update({row[0]: EntrantView(*row) for row in rows})
    return rows


def _round_tables(
    key: tuple[Any, ...], rows: list[Any], entrants: dict[int, EntrantView]
) -> list[PairingView]:
    """The round's tables as views, built once per process for the same rows: `key` is
    every row they are made of (the round's tables with their results, and the entrants
    they name), compared whole, so a round is reused only when nothing it shows changed.
    A result rebuilds its own round's 500 views, not the event's 2,500 (issue 15). The
    views (and their result and sheet dicts) are shared: read them, never change them."""
    with _KEPT_LOCK:
        kept = _KEPT_ROUNDS.get(key)
        if kept is not None:
            _KEPT_ROUNDS.move_to_end(key)
            return list(kept)
    built = [_table_view(row, entrants) for row in rows]
    with _KEPT_LOCK:
        _KEPT_ROUNDS[key] = built
        while len(_KEPT_ROUNDS) > KEPT_ROUNDS:
            _KEPT_ROUNDS.popitem(last=False)
    return list(built)


def _table_view(row: Any, entrants: dict[int, EntrantView]) -> PairingView:
    has_result = row.result_id is not None  # the outer join found a result
    return PairingView(
        row.id,
        row.table,
        entrants[row.a_id],
        entrants[row.b_id] if row.b_id is not None else None,
        row.b_id,
        row.bye,
        _decision(row.kind, row.forfeit_by, row.outcome, row.decision) if has_result else None,
        stored_json.loads(row.sheet) if has_result and row.sheet else None,
    )
