"""The arbiter desk's read use cases, `TournamentService.desk` (`DeskUseCases`).

The desk's routes (and the public display) call these instead of reading rows themselves:
each is one transaction and returns plain data (`ball.tournament.views`, `signals.
RoundControl`), never an ORM row. What does not exist raises `NotFound` (the web answers
404 with its message); bad input raises `TournamentError`. The writing use cases the CLI
shares (record a table's result, withdraw, pair, give a signal or a sanction) are the
other use cases' (`results`, `entrants`, `rounds`, `arbiter`); the ones here exist for the
desk's pages and forms. Each reads through the store (`store.Store`: one transaction, and
its session factory for the result version rows and the table clocks' store).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.games import game
from ball.games.protocol import Game
from ball.storage import ids
from ball.tournament import revisions, sanction_log, signals, table_result
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.models import Entrant, Event, Pairing, ResultState, Round
from ball.tournament.store import Store
from ball.tournament.views import (
    EntrantView,
    EventView,
    PairingView,
    RoundView,
    SanctionView,
    entrant_view,
    event_view,
    pairing_view,
    read_event,
    round_view,
    sanction_view,
)


@dataclass(frozen=True)
class RoundPage:
    """The desk's round page: its tables, the signal control, whether it may be re-paired."""

    event: EventView
    round: RoundView
    control: signals.RoundControl
    editable: bool  # the latest round, and no game result entered yet: swaps allowed
    players: list[EntrantView]  # everyone paired in it, by pairing number


@dataclass(frozen=True)
class TablePage:
    """One table's result form: the stored result, its version and steals, the next step
    of the sanction ladder suggested for coach A and coach B."""

    event: EventView
    round: RoundView
    pairing: PairingView
    version: int
    steals: list[dict[str, Any]]
    suggest: dict[str, str]


@dataclass(frozen=True)
class SanctionRow:
    entrant: EntrantView
    history: list[SanctionView]
    suggest: str


# ------------------------------------------------------------------- lookups (404s)

def event_row(s: Session, event_id: int) -> Event:
    event = s.get(Event, event_id) if ids.in_range(event_id) else None
    if event is None:
        raise NotFound(f"no event {event_id}")
    return event


def round_row(s: Session, event_id: int, number: int) -> Round:
    """A paired round with its tables, their results and coaches loaded (a few queries for
    the whole round, not one per table: `signals.round_control` then finds them loaded)."""
    rnd = None
    if ids.in_range(number):
        query = select(Round).where(Round.event_id == event_id, Round.number == number)
        rnd = s.scalar(query.options(signals.ROUND_TABLES))
    if rnd is None:
        raise NotFound(f"round {number} is not paired")
    return rnd


def table_row(rnd: Round, table: int) -> Pairing:
    """A table that takes a result (a bye takes none)."""
    for p in rnd.pairings:
        if p.table == table:
            if p.b_id is None:
                raise NotFound(f"table {table} is a bye; it takes no result")
            return p
    raise NotFound(f"round {rnd.number} has no table {table}")


class DeskUseCases:
    """The desk's use cases; mixed into `TournamentService` (see the module's doc)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ reads

    def event_list(self) -> list[EventView]:
        """Every event, newest first (the desk's and the public display's home pages)."""
        with self.store.tx(write=False) as s:
            rows = s.scalars(select(Event).order_by(Event.id.desc()))
            return [event_view(e, full=False) for e in rows]

    def event_revision(self, event_id: int) -> str | None:
        """The event's revision token (`revisions`): it changes with every write to the
        event, from any process; None for an event that does not exist. One small query,
        so a page can tell whether what it rendered before is still true."""
        if not ids.in_range(event_id):
            return None
        with self.store.tx(write=False) as s:
            return revisions.token_of(s, event_id)

    def require_event(self, event_id: int) -> None:
        """NotFound unless the event exists."""
        with self.store.tx(write=False) as s:
            event_row(s, event_id)

    def event_head(self, event_id: int) -> EventView:
        """The event without its entrants and rounds (as in `event_list`): all a page needs
        that shows the event's name and links beside data read on its own (the public
        standings rank from their own read; reading every table here too cost a first view
        after a result about 90 ms at 1,000 entrants, issue 15)."""
        with self.store.tx(write=False) as s:
            return event_view(event_row(s, event_id), full=False)

    def event_page(self, event_id: int) -> EventView:
        """An event with its entrants and its rounds' tables and results."""
        with self.store.tx(write=False) as s:
            return self._full_event(s, event_id)

    def round_page(self, event_id: int, number: int, now: float, gap: float) -> RoundPage:
        with self.store.tx(write=False) as s:
            event = self._full_event(s, event_id)
            rnd = round_row(s, event_id, number)  # NotFound before the control is read
            control = signals.round_control(s, event_id, number, now, gap)
            del rnd  # held until here: `signals` finds its tables loaded
        view = next(r for r in event.rounds_ if r.number == number)
        latest = number == len(event.rounds_)
        editable = latest and not any(
            p.result is not None and p.b_id is not None for p in view.pairings
        )
        paired = [p.a for p in view.pairings] + [p.b for p in view.pairings if p.b is not None]
        return RoundPage(event, view, control, editable, sorted(paired, key=lambda e: e.number))

    def round_view(self, event_id: int, number: int) -> RoundView:
        """A paired round of an event (NotFound for either)."""
        with self.store.tx(write=False) as s:
            event_row(s, event_id)
            return round_view(round_row(s, event_id, number))


    def round_control(
        self, event_id: int, number: int, now: float, gap: float
    ) -> signals.RoundControl:
        """The control state of a round at `now`: signals given, each table's half end."""
        with self.store.tx(write=False) as s:
            # held, so `signals` finds the round's tables loaded (the session keeps rows
            # only while something refers to them)
            rnd = round_row(s, event_id, number)
            control = signals.round_control(s, event_id, number, now, gap)
            del rnd
            return control

    def control_of_round(
        self, event_id: int, rnd: RoundView, now: float, gap: float
    ) -> signals.RoundControl:
        """`round_control` of a round read already (`event_page`): its tables are not read
        again, only its signals and half ends (the public pairings page: loading the
        round's 500 tables as ORM rows was a third of its render at 1,000 entrants)."""
        playing = [
            (p.table, p.a.name, p.b.name if p.b is not None else "")
            for p in rnd.pairings
            if signals.plays(p.b_id, p.result["kind"] if p.result else None)
        ]
        with self.store.tx(write=False) as s:
            return signals.control_of(s, event_id, rnd.number, now, gap, playing)

    def game_of(self, event_id: int) -> Game:
        """The plug-in of the event's game, which decides its tables' results (the desk's
        result check asks it, as `record_table_result` does)."""
        with self.store.tx(write=False) as s:
            return game(event_row(s, event_id).game)

    def pb_tiebreaks(self, event_id: int) -> list[str]:
        """The tie-breaks of the event's chain that read PB figures (its game's
        `pb_tiebreaks`): a quick result must then collect the PB (issue 36 item 11)."""
        with self.store.tx(write=False) as s:
            event = event_row(s, event_id)
            reads_pb = game(event.game).pb_tiebreaks
            return [name for name in json.loads(event.tiebreaks or "[]") if name in reads_pb]

    def table(self, event_id: int, number: int, table: int) -> PairingView:
        """A table that takes a result (NotFound for a bye or a missing table)."""
        with self.store.tx(write=False) as s:
            return pairing_view(table_row(round_row(s, event_id, number), table))

    def table_page(self, event_id: int, number: int, table: int) -> TablePage:
        """The result form's data; the table's version row is made (at 0) when missing."""
        with self.store.tx(write=False) as s:
            event = self._full_event(s, event_id)
            pairing_id = table_row(round_row(s, event_id, number), table).id
        table_result.ensure_state(self.store.sessions, pairing_id)
        with self.store.tx(write=False) as s:
            pairing = s.get(Pairing, pairing_id)
            state = s.get(ResultState, pairing_id)
            # `table_row` took a table with both coaches; `ensure_state` made its version row.
            assert pairing is not None and pairing.b is not None and state is not None
            suggest = {
                side: sanction_log.suggest(
                    s, event_id, entrant.id, game(event.game).ladder
                ).name
                for side, entrant in (("A", pairing.a), ("B", pairing.b))
            }
            view = pairing_view(pairing)
            version, steals = state.version, json.loads(state.steals or "[]")
        rnd = next(r for r in event.rounds_ if r.number == number)
        return TablePage(event, rnd, view, version, steals, suggest)

    def sanctions_page(self, event_id: int) -> tuple[EventView, list[SanctionRow]]:
        """Every entrant's sanctions in the event, with the step the ladder suggests next."""
        with self.store.tx(write=False) as s:
            event = self._full_event(s, event_id)
            rows = [
                SanctionRow(
                    e,
                    [sanction_view(x) for x in sanction_log.history(s, event_id, e.id)],
                    sanction_log.suggest(s, event_id, e.id, game(event.game).ladder).name,
                )
                for e in event.entrants
            ]
        return event, rows

    def entrant(self, event_id: int, entrant_id: int) -> EntrantView:
        with self.store.tx(write=False) as s:
            entrant = s.get(Entrant, entrant_id) if ids.in_range(entrant_id) else None
            if entrant is None or entrant.event_id != event_id:
                raise NotFound(f"no entrant {entrant_id} in event {event_id}")
            return entrant_view(entrant)

    # ------------------------------------------------------------------ writes

    def record_half_end_by(
        self, event_id: int, number: int, table: int, *, at: float, now: float, source: str
    ) -> None:
        """Record a table's first-half end at `at`, refused when after `now` (the desk's
        clock, which tests set), in one transaction."""
        if at > now:
            raise TournamentError(f"table {table}: a first half cannot end in the future")
        with self.store.tx() as s:
            signals.record_half_end(s, event_id, number, table, at, source)

    def record_reported_half_ends(
        self, event_id: int, number: int, reported: dict[int, float]
    ) -> None:
        """Take the first-half ends the table clocks reported (`{table: at}`) for the tables
        still playing, as source "table"; all or nothing, in one transaction."""
        with self.store.tx() as s:
            round_row(s, event_id, number)
            control = signals.round_control(s, event_id, number, 0.0, 0.0)
            for t in control.tables:
                if t.playing and t.table in reported:
                    signals.record_half_end(
                        s, event_id, number, t.table, reported[t.table], "table"
                    )

    def record_half_ends_from_clocks(self, event_id: int, number: int, now: float) -> None:
        """Take the first-half ends the round's table clocks reported (their first period's
        end, read at `now`), as source "table": `record_reported_half_ends`."""
        # The clock stack only here, where clocks are read (a cold `ball standings` loads
        # no clock module: issue 15, target 1).
        from ball.clocks.store import ClockStore

        with self.store.tx(write=False) as s:
            name = event_row(s, event_id).name
            round_row(s, event_id, number)  # NotFound before any clock is read
        store = ClockStore(self.store.sessions, lambda: now)
        reported = store.period_ends(signals.clock_round_label(name, number), event_id, 1)
        self.record_reported_half_ends(event_id, number, reported)

    # ------------------------------------------------------------------ helpers

    def _full_event(self, s: Session, event_id: int) -> EventView:
        # plain rows, not ORM objects: a fraction of the cost at 1,000 entrants (issue 15)
        event = read_event(s, event_id) if ids.in_range(event_id) else None
        if event is None:
            raise NotFound(f"no event {event_id}")
        return event
