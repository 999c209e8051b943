"""Plain, read-only snapshots of tournament rows for pages (the desk, the public display).

The read use cases of `desk_service` return these instead of ORM rows: a page renders them
after the transaction closed, so nothing can lazy-load, and no route needs a session. Field
names follow the rows they copy, so templates read `event.name`, `p.a.name`, `p.result`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ball.tournament import stored_json
from ball.tournament.models import Entrant, Event, Pairing, Round, SanctionEntry


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
    data = stored_json.loads(result.decision) if result.decision else {}
    return {
        "kind": result.kind,
        "forfeit_by": result.forfeit_by,
        "outcome": result.outcome,
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
    return RoundView(rnd.number, rnd.method, [pairing_view(p) for p in rnd.pairings])


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
