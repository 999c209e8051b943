"""Standings and the crosstable of a two-player event, after the rounds with every result
in (or an earlier round), with its team and group sections.
"""

from __future__ import annotations

from dataclasses import replace

from ball.tournament import (
    crosstable,
    event_rows,
    outcomes,
    standings,
    team_service,
    withdrawal_event,
)
from ball.tournament.group_service import GroupUseCases
from ball.tournament.session_refusals import refuse_two_player
from ball.tournament.store import EventRef, Store, bounded
from ball.tournament.team_service import TeamUseCases


class RankingUseCases:
    """Standings and crosstables."""

    def __init__(self, store: Store, teams: TeamUseCases, groups: GroupUseCases) -> None:
        self.store = store
        self.teams = teams
        self.groups = groups

    def standings(
        self, *, event: EventRef = None, upto: int | None = None
    ) -> outcomes.StandingsTable:
        """Ranking after the last round with every result in (or after round `upto` when
        it is earlier: `standings.after_round`), with the event's tie-break chain and the
        description of the tie-break rules applied."""
        bounded(upto, "round")
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event, full=False)
            refuse_two_player(ev, "its standings are by table points (session_standings)")
            # Most events rank from plain rows, without loading the event as ORM objects
            # (issue 15: the first public view after a result); the rules are the same code.
            data = event_rows.read(s, ev.id) if event_rows.plain_ranks(s, ev) else None
            if data is None:
                ev = self.store.event(s, ev.id)
            ranked: event_rows.EventData = data or ev
            # one round for every table below: the last complete one (`after_round`)
            table = outcomes.standings_table(ranked, upto, standings.of_event(ranked, upto, s))
            after = table.rounds
            in_teams = team_service.team_event(s, ev) is not None
            teams = self.teams.team_standings(s, ev, after) if in_teams else None
            withdrawals = withdrawal_event.summary(ranked) or None
            in_groups = self.groups.group_section(s, ev, upto)
            return replace(table, withdrawals=withdrawals, teams=teams, groups=in_groups)

    def cross_table(
        self, *, event: EventRef = None, upto: int | None = None
    ) -> outcomes.Crosstable:
        """The crosstable after the rounds the standings count (`standings.after_round`):
        each entrant's games in rank order, opponents by rank."""
        bounded(upto, "round")
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            refuse_two_player(ev, "its standings are by table points (session_standings)")
            after = standings.after_round(ev, upto)
            ranked = standings.of_event(ev, after, s)
            return outcomes.crosstable(ev, after, ranked, crosstable.build(ev, after))
