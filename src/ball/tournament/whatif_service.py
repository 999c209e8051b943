"""The what-if use cases, `TournamentService.what_if` (`WhatIfUseCases`).

* `what_if_standings(hypotheses)` (`ball standings --what-if R:T=RESULT`, the desk's
  preview beside each result): the standings as if those tables had those results;
* `what_i_need(names)` (the public standings page): for each player named, the rank each
  result of their own table in the round being played would give them.

Both read the event's rows and compute in `whatif` (pure, over frozen copies); nothing is
written. They read through the store's `read_only`, not `tx`: a transaction the database
itself keeps from writing (SQLite `PRAGMA query_only`, PostgreSQL `SET TRANSACTION READ
ONLY`), ended by a rollback, so even a bug below could not store a hypothetical result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.games import game, pairs_players
from ball.storage import ids
from ball.tournament import event_rows, outcomes, standings, whatif, withdrawal_event
from ball.tournament.errors import TournamentError
from ball.tournament.models import Pairing, Round
from ball.tournament.session_refusals import refuse_two_player
from ball.tournament.store import Store

if TYPE_CHECKING:
    pass


class WhatIfUseCases:
    """Standings as if some results were in (a use case of `TournamentService`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _rows_and_seats(self, s: Session, event: Any) -> tuple[event_rows.EventRows, whatif.Seats]:
        ev = self.store.event(s, event, full=False)
        refuse_two_player(ev, "what-if standings are for two-player events")
        if not event_rows.plain_ranks(s, ev):
            raise TournamentError(
                f"{ev.name!r}: what-if standings are not offered for a team event, a "
                "groups event or a knockout of mini-matches"
            )
        rows = event_rows.read(s, ev.id)
        assert rows is not None  # the event was just found
        seats = {
            (number, table): (a_id, b_id)
            for number, table, a_id, b_id in s.execute(
                select(Round.number, Pairing.table, Pairing.a_id, Pairing.b_id)
                .join(Round, Round.id == Pairing.round_id)
                .where(Round.event_id == ev.id)
            )
        }
        return rows, seats

    def what_if_standings(
        self,
        hypotheses: Sequence[whatif.Hypothesis],
        *,
        event: Any = None,
        upto: int | None = None,
    ) -> tuple[outcomes.StandingsTable, list[whatif.Assumed]]:
        """The standings (as `standings()` gives them) with each hypothesis's result at its
        table, and the hypotheses as placed; writes nothing."""
        if upto is not None and not 0 <= upto <= ids.MAX_ID:
            raise TournamentError(f"round {upto} is out of range")
        with self.store.read_only() as s:
            rows, seats = self._rows_and_seats(s, event)
            changed, placed = whatif.apply(rows, hypotheses, seats, game(rows.game))
            ranked = standings.of_event(changed, upto, s)
            table = outcomes.standings_table(changed, upto, ranked)
            withdrawals = withdrawal_event.summary(changed) or None
            return replace(table, withdrawals=withdrawals), placed

    def what_i_need(self, names: Sequence[str], *, event: Any = None) -> list[whatif.Need]:
        """Each named player's ranks after each result of their own table in the round
        being played (`whatif.needs`); an event without such a round gives none."""
        with self.store.read_only() as s:
            ev = self.store.event(s, event, full=False)
            if not pairs_players(ev.game) or not event_rows.plain_ranks(s, ev):
                return []
            rows, seats = self._rows_and_seats(s, ev.id)
            return whatif.needs(rows, names, seats, lambda r, upto: standings.of_event(r, upto, s))
