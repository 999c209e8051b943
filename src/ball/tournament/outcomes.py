"""Typed results of the tournament service's event use cases (`create_event`, `event_info`,
`add_player`, `withdraw`, the pairing, result, standings, log and correction reads).

Each is a frozen dataclass read by attribute (`info.entrants[0].status`). `as_dict()` is the
JSON the CLI (`--json`) and the pages print: the same keys, order and values the service's
plain dicts had, so that output is unchanged byte for byte (a table shows `bye` only when it
is a bye and `result` only once one is entered). A record is also a read-only mapping over
that JSON (`x["name"]`, `x.get("bye")`, `"result" in x`, `x == {...}`) for the readers that
still take dicts: Jinja templates and the scripted tests written against the dicts.

The constructors at the bottom copy ORM rows into records inside the use case's
transaction, so nothing is lazy-loaded after it closed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, ClassVar

from ball.tournament import ties
from ball.tournament.event_rows import EventData
from ball.tournament.kinds import ByeKind, Coach, EntrantStatus, InitialColour, Outcome, ResultKind
from ball.tournament.models import Entrant, Event, LogEntry, Pairing, Result, ResultCorrection
from ball.tournament.standings import RULES, Standing, after_round, in_progress
from ball.tournament.systems import PairingSystem


def plain(value: Any) -> Any:
    """`value` as JSON data: records and standings by their `as_dict`, StrEnums as text."""
    if isinstance(value, Record | Standing):
        return value.as_dict()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


class Record(Mapping[str, Any]):
    """The base of the records: `as_dict` and the read-only mapping over it.

    `OPTIONAL` names the fields left out of the JSON while they are None. Equality is the
    mapping's: two records, or a record and a dict, are equal when their JSON is."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def as_dict(self) -> dict[str, Any]:
        return {key: plain(getattr(self, key)) for key in self._keys()}

    def _keys(self) -> list[str]:
        """The JSON's keys: the fields in order, less the optional ones that are None."""
        names = [f.name for f in fields(self)]  # type: ignore[arg-type]  # subclasses are dataclasses
        return [n for n in names if n not in self.OPTIONAL or getattr(self, n) is not None]

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return plain(getattr(self, key))

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


# `eq=False`: the mapping's equality (by the JSON), so a record still equals the dict it was.


@dataclass(frozen=True, eq=False)
class EventSummary(Record):
    """An event's settings (`create_event`, `list_events`, `import_trf`); `ties` is the tie
    policy of a knockout of mini-matches (left out of the JSON for one game per tie)."""

    OPTIONAL = frozenset({"ties"})

    id: int
    name: str
    system: PairingSystem
    rounds: int | None
    game: str
    ruleset: str
    date_start: str
    date_end: str
    place: str
    arbiter: str
    scoring: dict[str, float]
    tiebreaks: list[str]
    tiebreak_rules: str
    draw_lots_seed: int | None
    initial_colour: InitialColour
    ties: dict[str, Any] | None = None


@dataclass(frozen=True, eq=False)
class EntrantSummary(Record):
    """An entrant (`add_player`, `withdraw`, `event_info`)."""

    number: int
    name: str
    club: str
    federation: str
    rating: int | None
    status: EntrantStatus
    first_round: int
    withdrawn_after: int | None


@dataclass(frozen=True, eq=False)
class EventInfo(EventSummary):
    """An event with its drawing of lots (None before any) and entrants by pairing number."""

    lots: dict[str, Any] | None = None
    entrants: list[EntrantSummary] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class ResultSummary(Record):
    """A table's result: how it was decided, who forfeited, who won, the score sheet."""

    kind: ResultKind
    forfeit_by: Coach | None
    outcome: Outcome
    sheet: dict[str, Any] | None


@dataclass(frozen=True, eq=False)
class TableOutcome(Record):
    """One table of a round by coach names; `b` is None for a bye, whose kind is `bye`;
    `tie` is a mini-match tie's state (`ties.view`), only where the event plays them."""

    OPTIONAL = frozenset({"bye", "result", "tie"})

    table: int
    a: str
    b: str | None
    bye: ByeKind | None = None
    result: ResultSummary | None = None
    tie: dict[str, Any] | None = None


@dataclass(frozen=True, eq=False)
class StandingsTable(Record):
    """The ranking after `rounds` rounds (the last complete round: `standings.after_round`),
    under the tie-break `rules` (their description); `in_progress` the paired round not
    counted yet because a table has no result, `withdrawals` the article-20 rulings that
    apply (`withdrawal_event.summary`), `teams` a team event's team ranking, `groups` a
    groups event's groups and final — each left out of the JSON when there is none."""

    OPTIONAL = frozenset({"withdrawals", "teams", "groups", "in_progress"})

    event: str
    rules: str
    tiebreaks: list[str]
    rounds: int
    standings: list[Standing]
    withdrawals: list[dict[str, Any]] | None = None
    teams: dict[str, Any] | None = None
    groups: dict[str, Any] | None = None  # a groups event: each group and the final
    in_progress: int | None = None  # the round being played, not counted yet


@dataclass(frozen=True, eq=False)
class CrossCell(Record):
    """One round of an entrant's crosstable line: the opponent by rank (None for a bye or an
    unpaired round), the side (`w`: named first at the table, `b`: second, `-`: no game),
    the TRF result code (`1`, `=`, `0`, `+`, `-`, a bye's `U`, `H`, `F`, `Z`) and points."""

    round: int
    opponent: int | None
    colour: str
    code: str
    points: float


@dataclass(frozen=True, eq=False)
class CrossRow(Record):
    """An entrant's crosstable line, in the order of the standings."""

    rank: int
    number: int
    name: str
    points: float
    rounds: list[CrossCell]


@dataclass(frozen=True, eq=False)
class Crosstable(Record):
    """The standings after `rounds` rounds with every entrant's games, each opponent named
    by rank (the chess crosstable: who played whom, with which side, and how it ended)."""

    event: str
    rounds: int
    rows: list[CrossRow]


@dataclass(frozen=True, eq=False)
class LogLine(Record):
    """A line of the arbiter's log; `kind` is free (sanction, signal, override, a note...)."""

    kind: str
    name: str | None
    round: int | None
    table: int | None
    detail: str
    at: float


@dataclass(frozen=True, eq=False)
class Correction(Record):
    """A corrected result: what it was and became (as `ResultSummary.as_dict`), and why."""

    round: int
    table: int
    before: dict[str, Any]
    after: dict[str, Any]
    reason: str


# ---------------------------------------------------------------------- from the rows


def event_summary(ev: Event) -> EventSummary:
    return EventSummary(**_summary_fields(ev))


def event_info(ev: Event) -> EventInfo:
    entrants = sorted(ev.entrants, key=lambda e: e.number)
    return EventInfo(
        **_summary_fields(ev),
        lots=json.loads(ev.lots) if ev.lots else None,
        entrants=[entrant_summary(e) for e in entrants],
    )


def _summary_fields(ev: Event) -> dict[str, Any]:
    return {
        "id": ev.id,
        "name": ev.name,
        "system": PairingSystem(ev.system),
        "rounds": ev.rounds,
        "game": ev.game,
        "ruleset": ev.ruleset,
        "date_start": ev.date_start,
        "date_end": ev.date_end,
        "place": ev.place,
        "arbiter": ev.arbiter,
        "scoring": json.loads(ev.scoring),
        "tiebreaks": json.loads(ev.tiebreaks),
        "tiebreak_rules": ev.tiebreak_rules,
        "draw_lots_seed": ev.draw_lots_seed,
        "initial_colour": InitialColour(ev.initial_colour),
        "ties": ties.policy_summary(ev).get("ties"),
    }


def entrant_summary(e: Entrant) -> EntrantSummary:
    return EntrantSummary(
        number=e.number,
        name=e.name,
        club=e.club,
        federation=e.federation,
        rating=e.rating,
        status=EntrantStatus(e.status),
        first_round=e.first_round,
        withdrawn_after=e.withdrawn_after,
    )


def result_summary(r: Result) -> ResultSummary:
    return ResultSummary(
        kind=ResultKind(r.kind),
        forfeit_by=Coach(r.forfeit_by) if r.forfeit_by else None,
        outcome=Outcome(r.outcome),
        sheet=json.loads(r.sheet) if r.sheet else None,
    )


def table_outcome(p: Pairing) -> TableOutcome:
    return TableOutcome(
        table=p.table,
        a=p.a.name,
        b=p.b.name if p.b is not None else None,
        bye=ByeKind(p.bye) if p.b_id is None and p.bye else None,
        result=result_summary(p.result) if p.result is not None else None,
        tie=ties.view(p.round.event, p),
    )


def round_tables(pairings: list[Pairing]) -> list[TableOutcome]:
    """The tables of a round in table order."""
    return [table_outcome(p) for p in sorted(pairings, key=lambda p: p.table)]


def standings_table(ev: EventData, upto: int | None, table: list[Standing]) -> StandingsTable:
    return StandingsTable(
        event=ev.name,
        rules=RULES[ev.tiebreak_rules],
        tiebreaks=json.loads(ev.tiebreaks),
        rounds=after_round(ev, upto),
        standings=ties.with_ties(ev, table),
        in_progress=_not_counted(ev, upto),
    )


def crosstable(
    ev: EventData, rounds: int, table: list[Standing], lines: Mapping[int, Any]
) -> Crosstable:
    """`lines` (`crosstable.build` after `rounds`) in the order of `table`, opponents by rank."""
    rank_of = {lines[s.entrant_id].number: s.rank for s in table if s.entrant_id in lines}
    rows = [
        CrossRow(
            rank=s.rank,
            number=s.number,
            name=s.name,
            points=s.points,
            rounds=[
                CrossCell(
                    round=c.round,
                    opponent=None if c.opponent is None else rank_of.get(c.opponent),
                    colour=c.colour,
                    code=c.code,
                    points=c.points,
                )
                for c in lines[s.entrant_id].cells
            ],
        )
        for s in table
        if s.entrant_id in lines
    ]
    return Crosstable(event=ev.name, rounds=rounds, rows=rows)


def _not_counted(ev: EventData, upto: int | None) -> int | None:
    """The round in progress when the standings asked for would include it (None else)."""
    playing = in_progress(ev)
    return playing if playing is not None and (upto is None or upto >= playing) else None


def log_line(row: LogEntry, names: Mapping[int | None, str]) -> LogLine:
    """A log row; `names` maps entrant ids to names (a line without an entrant has none)."""
    return LogLine(
        kind=row.kind,
        name=names.get(row.entrant_id),
        round=row.round_number,
        table=row.table,
        detail=row.detail,
        at=row.at,
    )


def correction(row: ResultCorrection) -> Correction:
    return Correction(
        round=row.round_number,
        table=row.table,
        before=json.loads(row.before),
        after=json.loads(row.after),
        reason=row.reason,
    )
