"""Creating and listing events: the system, the game, the tie-break chain and rules, the
scoring, a knockout's ties, a team or group event's setup, the default time.
"""

from __future__ import annotations

import json
import random
import time

from sqlalchemy import select

from ball.games import game
from ball.tournament import (
    group_service,
    groups,
    lateness_service,
    outcomes,
    standings,
    team_service,
    ties,
)
from ball.tournament.errors import TournamentError
from ball.tournament.models import Event
from ball.tournament.names import check_name
from ball.tournament.round_service import GROUPS, SYSTEMS
from ball.tournament.scoring import Scoring
from ball.tournament.session_refusals import refuse_game
from ball.tournament.store import EventRef, Store, bounded


class EventUseCases:
    """Events of the database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create_event(
        self,
        *,
        name: str,
        system: str,
        rounds: int | None = None,
        draw_lots: int | None = None,
        game_name: str = "ball",
        ruleset: str = "standard",
        date_start: str = "",
        date_end: str = "",
        place: str = "",
        arbiter: str = "",
        scoring: dict[str, float] | None = None,
        tiebreaks: list[str] | None = None,
        tiebreak_rules: str | None = None,
        initial_colour: str = "white1",
        knockout_replays: int = 1,
        late_entry_bye: str = "zero",
        games_per_tie: int = 1,
        tie_extra_games: int = 0,
        tie_break: str = "lots",
        teams: int | None = None,
        team_ranking: str | None = None,
        groups: groups.Setup | None = None,
        default_time: int | None = None,
    ) -> outcomes.EventSummary:
        """Create an event and return its summary.

        `system`: round-robin, double-round-robin, swiss or knockout. `rounds`: fixed for a
        Swiss (default: enough to find a winner, ceil(log2 n), set at the first pairing);
        derived for round robins and knockouts. `draw_lots`: seed of the drawing of lots for
        pairing numbers (round robin, knockout) and the initial colour (Swiss); recorded.
        `scoring` overrides `Scoring` fields; `tiebreaks` is the ordered chain (default per
        system, see `standings.DEFAULT_CHAIN`); `tiebreak_rules` fide-2024 or fide-2026
        (default: the rules in force on the start date, see `standings.rules_for_date`).
        A knockout's ties may be mini-matches: `games_per_tie` games, `tie_extra_games`
        extra games, then `tie_break` lots or armageddon (`minimatch.Policy`).
        `teams`: a team event of that many boards per match, ranked by `team_ranking`
        (`team_service`). `groups`: the setup of a `groups` event (`group_service`);
        `default_time`: minutes a player may arrive late before losing by forfeit (21.1,
        `lateness_service`).
        """
        name = check_name(name, "event name")
        place, arbiter = check_name(place, "place"), check_name(arbiter, "arbiter")
        refuse_game(game_name)  # tables of four: the game makes its own events
        if not name:
            raise TournamentError("the event needs a name")
        if system not in (*SYSTEMS, GROUPS):
            offered = ", ".join((*SYSTEMS, GROUPS))
            raise TournamentError(f"unknown system {system!r}; choose one of {offered}")
        if rounds is not None and rounds < 1:
            raise TournamentError(f"--rounds must be at least 1, got {rounds}")
        bounded(rounds, "--rounds")
        bounded(knockout_replays, "replays")
        bounded(draw_lots, "--draw-lots seed")
        plugin = game(game_name)
        policy = ties.check_policy(system, games_per_tie, tie_extra_games, tie_break)
        chain = (
            list(tiebreaks) if tiebreaks is not None else standings.default_chain(system, plugin)
        )
        known = standings.known_tiebreaks(plugin)
        for tb in chain:
            if tb not in known:
                raise TournamentError(f"unknown tie-break {tb!r}; known: {', '.join(known)}")
        if tiebreak_rules is not None and tiebreak_rules not in standings.RULES:
            raise TournamentError(f"unknown tie-break rules {tiebreak_rules!r}")
        if initial_colour not in ("white1", "black1"):
            raise TournamentError("initial colour must be white1 or black1")
        if late_entry_bye not in ("zero", "half"):
            raise TournamentError("late-entry bye must be zero or half")
        for label, value in (("start date", date_start), ("end date", date_end)):
            if value and not _is_iso_date(value):
                raise TournamentError(f"{label} must be YYYY-MM-DD, got {value!r}")
        scoring = dict(scoring or {})
        if system in ("round-robin", "double-round-robin", GROUPS):
            # The entrant drawn against the dummy of an odd field sits out: by default
            # without a point (every entrant sits out equally often).
            scoring.setdefault("pab", 0.0)
        score = Scoring.from_dict(scoring)
        lots = ""
        if draw_lots is not None and system == "swiss":
            initial_colour = random.Random(draw_lots).choice(["white1", "black1"])
            lots = json.dumps({"seed": draw_lots, "initial_colour": initial_colour})
        date_start = date_start or time.strftime("%Y-%m-%d")
        tiebreak_rules = tiebreak_rules or standings.rules_for_date(date_start)
        with self.store.tx() as s:
            self.store.refuse_taken_name(s, name)
            event = Event(
                name=name,
                system=system,
                rounds=rounds,
                game=plugin.name,
                ruleset=ruleset,
                date_start=date_start,
                date_end=date_end,
                place=place,
                arbiter=arbiter,
                scoring=score.to_json(),
                tiebreaks=json.dumps(chain),
                tiebreak_rules=tiebreak_rules,
                draw_lots_seed=draw_lots,
                lots=lots,
                initial_colour=initial_colour,
                knockout_replays=knockout_replays,
                late_entry_bye=late_entry_bye,
                games_per_tie=policy.games,
                tie_extra_games=policy.extra_games,
                tie_break=policy.tie_break,
                created_at=time.time(),
            )
            s.add(event)
            s.flush()
            team_service.mark_team_event(s, event, teams, team_ranking)
            group_service.mark_group_event(s, event, groups)
            lateness_service.set_default_time(s, event, default_time)
            return outcomes.event_summary(event)

    def list_events(self) -> list[outcomes.EventSummary]:
        with self.store.tx(write=False) as s:
            return [outcomes.event_summary(e) for e in s.scalars(select(Event).order_by(Event.id))]

    def event_game(self, event: EventRef = None) -> str:
        """The name of the game an event plays (what the CLI and the printing ask the
        registry about)."""
        with self.store.tx(write=False) as s:
            return self.store.event(s, event, full=False).game

    def event_info(self, event: EventRef = None) -> outcomes.EventInfo:
        """Summary, entrants and the drawing of lots of an event."""
        with self.store.tx(write=False) as s:
            # The event's columns and its entrants (one lazy load), not its rounds.
            return outcomes.event_info(self.store.event(s, event, full=False))


def _is_iso_date(value: str) -> bool:
    try:
        time.strptime(value, "%Y-%m-%d")
    except ValueError:
        return False
    return True
