"""The tournament service: the composition root of every use case the CLI, the web arbiter
desk and the forms call.

    svc = TournamentService("event.db")            # or a SQLAlchemy URL; BALL_DB if None
    svc.events.create_event(name="Open", system="swiss", rounds=5)
    svc.entrants.add_player("Ann", rating=1800, club="Sofia")
    svc.rounds.pair_next_round()                     # -> [TableOutcome(table=1, a=..., b=...)]
    svc.results.enter_result(round_number=1, table=1, sheet={...})  # or forfeit="A"
    svc.ranking.standings()                          # -> StandingsTable(standings=[...])
    svc.trf.export_trf()                             # FIDE TRF-16 text

`TournamentService` opens the store (`store.Store`: the database, its transactions, event
lookup and the log) and builds each use-case object on it, passing each the others it
needs; it holds them as attributes and has no use case of its own. Every use case is one
database transaction: it either commits completely or raises `TournamentError` (one line
naming what was wrong) and leaves the stored data as it was. Use cases return typed records
(`outcomes`, `summaries`, `table_result.RecordedResult`); `as_dict()` of a record is the
JSON the CLI and the pages print. Use cases that act on an event take `event` (id or name);
`None` means the only event of the database, or the latest one created when there are
several.
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ball.games import GAMES, load
from ball.tournament.arbiter_service import ArbiterUseCases
from ball.tournament.check_service import PairingCheckUseCases
from ball.tournament.desk_service import DeskUseCases
from ball.tournament.entrant_service import EntrantUseCases
from ball.tournament.event_service import EventUseCases
from ball.tournament.format_pages import FormatPages
from ball.tournament.group_service import GroupUseCases
from ball.tournament.lateness_service import LatenessUseCases
from ball.tournament.ranking_service import RankingUseCases
from ball.tournament.result_service import ResultUseCases
from ball.tournament.round_service import GROUPS, SYSTEMS, RoundUseCases
from ball.tournament.store import Store
from ball.tournament.table_links import TableLinkUseCases
from ball.tournament.team_service import TeamUseCases
from ball.tournament.tie_service import KnockoutUseCases
from ball.tournament.trf_service import TrfUseCases
from ball.tournament.whatif_service import WhatIfUseCases

__all__ = ["GROUPS", "SYSTEMS", "TournamentService"]


class TournamentService:
    """Every use case, bound to one database (a file path or a SQLAlchemy URL)."""

    def __init__(self, db: str | os.PathLike[str] | None = None):
        self._compose(Store(db))

    @classmethod
    def from_sessions(cls, engine: Engine, sessions: sessionmaker[Session]) -> TournamentService:
        """A service on an engine and session factory already opened and migrated by the
        caller (the web app shares its own; an in-memory database cannot be opened twice)."""
        svc = object.__new__(cls)
        svc._compose(Store.from_sessions(engine, sessions))
        return svc

    def _compose(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        # Formats below the pairing: teams and groups pair their own rounds.
        self.teams = TeamUseCases(store)
        self.groups = GroupUseCases(store)
        self.lateness = LatenessUseCases(store)
        self.events = EventUseCases(store)
        self.entrants = EntrantUseCases(store)
        self.rounds = RoundUseCases(store, self.teams, self.groups)
        self.results = ResultUseCases(store, self.lateness)
        self.knockout = KnockoutUseCases(store)
        self.arbiter = ArbiterUseCases(store)
        self.ranking = RankingUseCases(store, self.teams, self.groups)
        self.trf = TrfUseCases(store)
        self.checks = PairingCheckUseCases(store)
        self.what_if = WhatIfUseCases(store)
        self.desk = DeskUseCases(store)
        self.formats = FormatPages(store, self.knockout, self.teams)
        self.table_links = TableLinkUseCases(store, self.results)
        # A game's own use cases (`Game.tournament`: Mahjong's sessions, their desk pages and
        # the seats' links), held by their names beside the shared ones.
        self._own: dict[str, Any] = {}
        for name, entry in GAMES.items():
            if entry.tournament is None:
                continue
            own = self._own[name] = load(entry.tournament)(store)
            for key, case in own.use_cases().items():
                if key in self.__dict__:
                    raise ValueError(f"game {name!r}: a use case named {key!r} exists already")
                setattr(self, key, case)

    def own(self, game_name: str) -> Any | None:
        """The game's own tournament use cases (`Game.tournament`), or None when the shared
        ones serve it."""
        return self._own.get(game_name)

    def __getattr__(self, name: str) -> Any:
        # Only reached for a name not set above: a game's use case of a game that is not
        # registered (the attributes a game brings are set by `_compose`).
        raise AttributeError(f"the tournament service has no use case {name!r}")
