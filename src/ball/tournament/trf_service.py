"""FIDE TRF-16 of an event: exported with every complete round, or imported as a new event
(entrants, rounds, results, withdrawals, teams, a knockout's replays).
"""

from __future__ import annotations

from ball.games import game
from ball.tournament import outcomes, standings, team_trf, trf, trf_event
from ball.tournament.errors import TournamentError
from ball.tournament.names import check_name
from ball.tournament.session_refusals import refuse_two_player
from ball.tournament.store import EventRef, Store


class TrfUseCases:
    """TRF export and import."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def export_trf(self, *, event: EventRef = None) -> str:
        """FIDE TRF-16 of the event with every round that has all its results."""
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            refuse_two_player(ev, "TRF holds two-player events only")
            upto = standings.complete_rounds(ev)
            return trf_event.export(ev, upto, team=team_trf.trf_records(s, ev))

    def import_trf(
        self,
        text: str,
        *,
        name: str | None = None,
        tiebreak_rules: str | None = None,
        game_name: str | None = None,
        tiebreaks: list[str] | None = None,
    ) -> outcomes.EventSummary:
        """Create a new event from TRF-16 text (as `export_trf` writes it): entrants, rounds,
        pairings and results (as outcomes, without score sheets, with the game's figures of
        BALL's XXF records), the scoring of record 162, withdrawals (XXW; XXZ, not paired
        next round, counts as withdrawn), a team event's teams (013, XXB) and a knockout's
        replays (XXK). The event plays `game_name` (default: the file's XXG, else BALL) and
        ranks by `tiebreaks` under `tiebreak_rules` (default: the file's XXT, else the
        system's chain and the rules in force on the file's start date)."""
        parsed = trf.read(text)
        if name is not None:
            name = check_name(name, "event name")
        named = parsed.extras.game or None
        if game_name is not None and named is not None and game_name != named:
            # The importer's game wins; the file's figures and chain were another game's.
            parsed.extras.figures, parsed.extras.tiebreaks = [], None
        plugin = game(game_name or named or "ball")
        if tiebreak_rules is None and parsed.extras.tiebreaks is not None:
            tiebreak_rules = parsed.extras.tiebreak_rules
        if tiebreak_rules is not None and tiebreak_rules not in standings.RULES:
            raise TournamentError(f"unknown tie-break rules {tiebreak_rules!r}")
        chain = tiebreaks if tiebreaks is not None else parsed.extras.tiebreaks
        known = standings.known_tiebreaks(plugin)
        for tb in chain or []:
            if tb not in known:
                raise TournamentError(f"unknown tie-break {tb!r}; known: {', '.join(known)}")
        with self.store.tx() as s:
            name = name or parsed.name or "Imported event"
            self.store.refuse_taken_name(s, name)
            ev = trf_event.new_event(
                parsed, name=name, plugin=plugin, tiebreak_rules=tiebreak_rules, chain=chain
            )
            trf_event.store(s, ev, parsed, plugin)
            s.refresh(ev)
            team_trf.import_teams(s, ev, parsed.extras)
            return outcomes.event_summary(ev)
