"""The tournament service: every operation the CLI, the web arbiter desk and the forms use.

    svc = TournamentService("event.db")            # or a SQLAlchemy URL; BALL_DB if None
    svc.create_event(name="Open", system="swiss", rounds=5)
    svc.add_player("Ann", rating=1800, club="Sofia")
    svc.pair_next_round()                            # -> [TableOutcome(table=1, a=..., b=...)]
    svc.enter_result(round_number=1, table=1, sheet={...})   # or forfeit="A" / double_forfeit
    svc.standings()                                  # -> StandingsTable(standings=[...])
    svc.export_trf()                                 # FIDE TRF-16 text

Every method is one database transaction: it either commits completely or raises
`TournamentError` (one line naming what was wrong) and leaves the stored data as it was.
Methods return typed records (`outcomes`, `summaries`, `table_result.RecordedResult`);
`as_dict()` of a record is the JSON the CLI and the pages print.
Methods that act on an event take `event` (id or name); `None` means the only event of the
database, or the latest one created when there are several.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from ball.games import game
from ball.storage import ids, locks, open_database
from ball.storage.lengths import TextTooLong
from ball.storage.text import FREE_TEXT_MAX, too_long
from ball.tournament import (
    berger,
    crosstable,
    event_rows,
    group_service,
    groups,
    knockout,
    lateness_service,
    outcomes,
    pairing_check,
    sanction_log,
    signals,
    standings,
    swiss,
    table_links,
    table_result,
    team_service,
    tie_service,
    ties,
    trf,
    trf_event,
    withdrawal_event,
)
from ball.tournament.check_service import PairingCheckUseCases
from ball.tournament.desk_service import DeskUseCases
from ball.tournament.errors import TournamentError
from ball.tournament.forfeits import forfeit_result
from ball.tournament.format_pages import FormatPages
from ball.tournament.mahjong_desk import MahjongDeskUseCases
from ball.tournament.mahjong_links import MahjongLinkUseCases
from ball.tournament.models import (
    ByeRequest,
    Entrant,
    Event,
    LogEntry,
    Pairing,
    Result,
    ResultCorrection,
    Round,
)
from ball.tournament.names import check_name, look_alike_key, name_key
from ball.tournament.scoring import Scoring
from ball.tournament.session_service import (
    SessionUseCases,
    refuse_game,
    refuse_two_player,
    refuse_undo_with_sheets,
)
from ball.tournament.summaries import HalfEnd, SanctionGiven, SignalGiven
from ball.tournament.tie_service import KnockoutUseCases
from ball.tournament.whatif_service import WhatIfUseCases

SYSTEMS = ("round-robin", "double-round-robin", "swiss", "knockout")
# Seeded groups then a final (`group_service`): created with its setup, so not offered where
# a bare system is chosen (the desk's form).
GROUPS = "groups"
BYE_KINDS = ("pab", "half", "zero", "full")
EventRef = int | str | None
LIMIT = ids.MAX_ID  # numbers beyond this are no round, table or event (one id type)


def _bounded(value: int | None, label: str) -> None:
    if value is not None and not 0 <= value <= LIMIT:
        raise TournamentError(f"{label} {value} is out of range")


class TournamentService(
    DeskUseCases,
    KnockoutUseCases,
    team_service.TeamUseCases,
    group_service.GroupUseCases,
    lateness_service.LatenessUseCases,
    SessionUseCases,
    FormatPages,
    MahjongDeskUseCases,
    WhatIfUseCases,
    PairingCheckUseCases,
    table_links.TableLinkUseCases,
    MahjongLinkUseCases,
):
    """Service bound to one database (a file path or a SQLAlchemy URL)."""

    def __init__(self, db: str | os.PathLike[str] | None = None):
        try:
            self.engine, self._sessions = open_database(db)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        except OperationalError as exc:
            raise TournamentError(f"cannot open the database: {exc.orig}") from None
        self._explicit_begin = self.engine.dialect.name == "sqlite"
        if self._explicit_begin:
            _driver_autocommit(self.engine)

    @classmethod
    def from_sessions(cls, engine: Engine, sessions: sessionmaker[Session]) -> TournamentService:
        """A service on an engine and session factory already opened and migrated by the
        caller (the web app shares its own; an in-memory database cannot be opened twice)."""
        svc = object.__new__(cls)
        svc.engine, svc._sessions = engine, sessions
        svc._explicit_begin = False  # the caller's engine keeps its own driver settings
        return svc

    # ------------------------------------------------------------------ plumbing

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Session]:
        """One transaction; any failure rolls everything back.

        On a SQLite database this service opened, a writing transaction takes the write
        lock at once (BEGIN IMMEDIATE): its reads and writes are one atomic step and
        concurrent writers queue on the busy timeout; reading transactions never wait."""
        session = self._sessions()
        try:
            with session.begin():
                if self._explicit_begin:
                    session.connection().exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
                yield session
        except (IntegrityError, DataError) as exc:
            # DataError: PostgreSQL checks what SQLite lets through (VARCHAR lengths, NUL).
            raise TournamentError(f"rejected by the database: {exc.orig}") from None
        except TextTooLong as exc:  # a text past its column's limit (ball.storage.lengths)
            raise TournamentError(str(exc)) from None
        except OperationalError as exc:
            raise TournamentError(f"database error, nothing was written: {exc.orig}") from None
        finally:
            session.close()

    def _paired_event(self, s: Session, ref: EventRef) -> Event:
        """The event, read after taking its pairing lock (`ball.storage.locks`): one pairing,
        override or unpairing of an event at a time across every process, each seeing the
        rounds the one before it stored (two at once both read N rounds and both stored
        round N+1: the second refused by the unique key, as a database error)."""
        if not locks.takes_effect(s):  # SQLite: the transaction holds the write lock
            return self._event(s, ref)
        found = self._event(s, ref, full=False)
        locks.hold(s, locks.PAIRING, found.id)
        s.expunge(found)  # read again below, after the lock: its rounds as they are now
        return self._event(s, found.id)

    def _event(self, s: Session, ref: EventRef, *, full: bool = True) -> Event:
        query = select(Event)
        if full:  # everything standings, pairing and the TRF need, in four queries
            query = query.options(
                selectinload(Event.entrants),
                selectinload(Event.rounds_)
                .selectinload(Round.pairings)
                .selectinload(Pairing.result),
            )
        if ref is None:
            event = s.scalars(query.order_by(Event.id.desc()).limit(1)).first()
            if event is None:
                raise TournamentError(
                    "unknown event: this database holds no event (create one with "
                    "'ball event create')"
                )
            return event
        if isinstance(ref, int) or (isinstance(ref, str) and ids.is_digits(ref)):
            if int(ref) > LIMIT:
                raise TournamentError(f"unknown event {ref!r}")
            event = s.scalars(query.where(Event.id == int(ref))).first()
        else:
            event_id = self._event_id_by_name(s, str(ref))
            event = s.scalars(query.where(Event.id == event_id)).first()
        if event is None:
            raise TournamentError(f"unknown event {ref!r}")
        return event

    @staticmethod
    def _event_id_by_name(s: Session, ref: str) -> int | None:
        """The id of the one event named `ref` (same name as `names.name_key` decides);
        several such events (a database from before names were unique, or an impostor)
        are refused with their ids, so nothing picks one of them silently."""
        key = name_key(ref)
        found = [i for i, n in s.execute(select(Event.id, Event.name)) if name_key(n) == key]
        if len(found) > 1:
            ids = ", ".join(str(i) for i in sorted(found))
            raise TournamentError(
                f"event name {ref!r} is ambiguous: events {ids} have it; pass the id "
                f"instead (e.g. --event {min(found)} or #{min(found)})"
            )
        return found[0] if found else None

    @staticmethod
    def _refuse_look_alike_entrant(s: Session, event: Event, name: str) -> None:
        """Refuse an entrant whose name looks like a registered one's (`look_alike_key`:
        the same skeleton, another spelling): on a pairing list, a standings table or a
        printed form the two could not be told apart."""
        key = look_alike_key(name)
        for existing in s.scalars(select(Entrant.name).where(Entrant.event_id == event.id)):
            if look_alike_key(existing) == key:
                raise TournamentError(
                    f"entrant name {name!r} looks like {existing!r}, already registered in "
                    f"{event.name!r}; choose a name that can be told apart"
                )

    @staticmethod
    def _refuse_taken_name(s: Session, name: str) -> None:
        """Refuse a new event whose name is already an event's (see `names.name_key`)."""
        key = name_key(name)
        for event_id, existing in s.execute(select(Event.id, Event.name)):
            if name_key(existing) == key:
                raise TournamentError(
                    f"an event named {existing!r} already exists (id {event_id}); "
                    "choose another name"
                )

    @staticmethod
    def _entrant(event: Event, name: str) -> Entrant:
        for e in event.entrants:
            if e.name == name:
                return e
        raise _no_entrant(event, name)

    @staticmethod
    def _find_entrant(s: Session, event: Event, name: str) -> Entrant | None:
        """The entrant named `name` by one query, for a write that needs one entrant and
        not the field (names are unique in an event; SQL `=` on text compares as Python's
        `==` does, without collation)."""
        if "\x00" in name and s.get_bind().dialect.name != "sqlite":
            return None  # PostgreSQL refuses NUL in text, so it stores no such name
        return s.scalars(
            select(Entrant).where(Entrant.event_id == event.id, Entrant.name == name)
        ).first()

    def _entrant_named(self, s: Session, event: Event, name: str) -> Entrant:
        """`_entrant` without loading the field (`_find_entrant`)."""
        found = self._find_entrant(s, event, name)
        if found is None:
            raise _no_entrant(event, name)
        return found

    @staticmethod
    def _count(s: Session, model: type[Entrant] | type[Round], event: Event) -> int:
        """How many entrants or rounds the event has (`len(ev.entrants)`, `len(ev.rounds_)`)
        by one count, for a write that needs only that number."""
        return s.scalar(select(func.count()).where(model.event_id == event.id)) or 0

    @staticmethod
    def _log(s: Session, event: Event, kind: str, detail: str, **where: Any) -> None:
        s.add(LogEntry(event_id=event.id, kind=kind, detail=detail, at=time.time(), **where))

    # ------------------------------------------------------------------ events

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
        refuse_game(game_name)  # tables of four: `create_mahjong_event`
        if not name:
            raise TournamentError("the event needs a name")
        if system not in (*SYSTEMS, GROUPS):
            offered = ", ".join((*SYSTEMS, GROUPS))
            raise TournamentError(f"unknown system {system!r}; choose one of {offered}")
        if rounds is not None and rounds < 1:
            raise TournamentError(f"--rounds must be at least 1, got {rounds}")
        _bounded(rounds, "--rounds")
        _bounded(knockout_replays, "replays")
        _bounded(draw_lots, "--draw-lots seed")
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
        with self._tx() as s:
            self._refuse_taken_name(s, name)
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
        with self._tx(write=False) as s:
            return [outcomes.event_summary(e) for e in s.scalars(select(Event).order_by(Event.id))]

    def event_info(self, event: EventRef = None) -> outcomes.EventInfo:
        """Summary, entrants and the drawing of lots of an event."""
        with self._tx(write=False) as s:
            # The event's columns and its entrants (one lazy load), not its rounds.
            return outcomes.event_info(self._event(s, event, full=False))

    # ------------------------------------------------------------------ entrants

    def add_player(
        self,
        name: str,
        *,
        rating: int | None = None,
        club: str = "",
        federation: str = "",
        event: EventRef = None,
    ) -> outcomes.EntrantSummary:
        """Register an entrant. After round 1 it is a late entry: the rounds it missed count
        as zero-point (or, if the event says so, half-point) byes. Round robins and
        knockouts take no late entries."""
        name = check_name(name, "entrant name")
        club, federation = check_name(club, "club"), check_name(federation, "federation")
        if not name:
            raise TournamentError("the entrant needs a name")
        if rating is not None and not 0 <= rating <= 9999:
            raise TournamentError(f"rating must be between 0 and 9999, got {rating}")
        if len(federation) > 3:
            raise TournamentError(f"federation is a 3-letter code, got {federation!r}")
        with self._tx() as s:
            # Only the name, the size of the field and the number of rounds are read: a
            # desk or import adding a field of 100 loaded the field (and more) each time.
            ev = self._event(s, event, full=False)
            if self._find_entrant(s, ev, name) is not None:
                raise TournamentError(f"{name!r} is already registered in {ev.name!r}")
            self._refuse_look_alike_entrant(s, ev, name)
            paired = self._count(s, Round, ev)
            if paired and ev.system != "swiss":
                raise TournamentError(f"a {ev.system} takes no entrant after round 1 is paired")
            if ev.rounds is not None and paired >= ev.rounds:
                raise TournamentError("every round is already paired")
            field = self._count(s, Entrant, ev)
            entrant = Entrant(
                event_id=ev.id,
                registered=field + 1,
                number=field + 1,
                name=name,
                club=club,
                federation=federation.upper(),
                rating=rating,
                first_round=paired + 1,
            )
            s.add(entrant)
            s.flush()
            return outcomes.entrant_summary(entrant)

    def withdraw(
        self, name: str, *, event: EventRef = None, reason: str = ""
    ) -> outcomes.EntrantSummary:
        """Withdraw an entrant from the rounds not yet paired (logged). In a round robin
        their remaining games are lost by forfeit."""
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            entrant = self._entrant_named(s, ev, name)
            if entrant.status == "withdrawn":
                raise TournamentError(f"{name!r} has already withdrawn")
            entrant.status = "withdrawn"
            entrant.withdrawn_after = self._count(s, Round, ev)
            self._log(s, ev, "withdrawal", reason, entrant_id=entrant.id)
            return outcomes.entrant_summary(entrant)

    def withdrawal_ruling(self, name: str, *, event: EventRef = None) -> dict[str, Any]:
        """The article-20 ruling that applies to a withdrawn entrant (`withdrawal_event`)."""
        with self._tx(write=False) as s:
            ev = self._event(s, event)
            found = withdrawal_event.as_dict(ev, self._entrant(ev, name))
            if found is None:
                raise TournamentError(f"{name!r} has not withdrawn")
            return {"name": name, **found}

    def request_bye(
        self, name: str, round_number: int, kind: str = "half", *, event: EventRef = None
    ) -> None:
        """Record a bye the entrant asked for (`half` or `zero` point) before the round is
        paired; the pairing leaves them out and gives them that bye."""
        if kind not in ("half", "zero"):
            raise TournamentError("a requested bye is 'half' or 'zero'")
        _bounded(round_number, "round")
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            entrant = self._entrant_named(s, ev, name)
            if round_number <= self._count(s, Round, ev):
                raise TournamentError(f"round {round_number} is already paired")
            # One request per entrant and round (a unique key); say so in words rather than
            # let the database's constraint message reach the arbiter.
            earlier = s.scalar(
                select(ByeRequest.kind).where(
                    ByeRequest.entrant_id == entrant.id, ByeRequest.round_number == round_number
                )
            )
            if earlier is not None:
                raise TournamentError(
                    f"{name!r} has already asked for a {earlier}-point bye in round {round_number}"
                )
            s.add(
                ByeRequest(
                    event_id=ev.id, entrant_id=entrant.id, round_number=round_number, kind=kind
                )
            )

    # ------------------------------------------------------------------ pairing

    def pair_next_round(self, *, event: EventRef = None) -> list[outcomes.TableOutcome]:
        """Pair the next round by the event's system and return its tables (`b` is None
        for a bye)."""
        with self._tx() as s:
            ev = self._paired_event(s, event)
            refuse_two_player(ev, "seat its sessions ('ball round pair' / seat_session)")
            tie_service.refuse_pairing(ev)
            number = self._next_round_number(ev)
            active = [e for e in ev.entrants if e.status == "active"]
            if number == 1:
                if len(active) < 2:
                    raise TournamentError("at least two active entrants are needed to pair")
                self._assign_numbers(ev)
            requests = {
                r.entrant_id: r.kind
                for r in s.scalars(
                    select(ByeRequest).where(
                        ByeRequest.event_id == ev.id, ByeRequest.round_number == number
                    )
                )
            }
            team_event = team_service.team_event(s, ev)
            stage = group_service.group_stage(s, ev)
            if stage is not None:
                pairs, method = self._pair_group_event(s, ev, stage, number)
            elif team_event is not None:
                pairs, method = self._pair_team_round(s, ev, team_event, number)
            elif ev.system == "swiss":
                pairs, method = self._pair_swiss(ev, number, requests)
            elif ev.system in ("round-robin", "double-round-robin"):
                pairs, method = self._pair_round_robin(ev, number)
            else:
                pairs, method = knockout.pair_round(ev, number)
            bracket = ev.system == "knockout" or method.startswith(group_service.FINAL_METHOD)
            if bracket and "knockout" in method:  # a bracket's matches: colours by toss (13.4)
                pairs = self._toss_colours(s, ev, number, pairs, method)
            rnd = self._store_round(s, ev, number, pairs, method, manual=False)
            return outcomes.round_tables(rnd.pairings)

    def set_pairing(
        self,
        round_number: int,
        tables: list[tuple[str, str | None]],
        *,
        byes: dict[str, str] | None = None,
        reason: str = "",
        event: EventRef = None,
    ) -> list[outcomes.TableOutcome]:
        """The arbiter's manual pairing or override of `round_number` (the next round, or
        the latest one while it has no result): `tables` are (coach A, coach B or None) by
        name in table order; `byes` names the kind of each bye (default pairing-allocated).
        No pair may meet twice unless the system is a double round robin."""
        byes = byes or {}
        _bounded(round_number, "round")
        with self._tx() as s:
            ev = self._paired_event(s, event)
            refuse_two_player(ev, "seat its sessions ('ball round pair --seating FILE.csv')")
            last = len(ev.rounds_)
            if round_number == last and last:
                self._drop_round(s, ev, ev.rounds_[-1])
            elif round_number != last + 1:
                raise TournamentError(
                    f"round {round_number} cannot be set: the next round is {last + 1}"
                )
            else:
                self._next_round_number(ev)
            if round_number == 1:
                self._assign_numbers(ev)
            seen: set[str] = set()
            pairs: list[tuple[Entrant, Entrant | None, str | None]] = []
            met = _met_pairs(ev)
            for a_name, b_name in tables:
                a = self._entrant(ev, a_name)
                b = self._entrant(ev, b_name) if b_name else None
                for x in (a, b):
                    if x is None:
                        continue
                    if x.name in seen:
                        raise TournamentError(f"{x.name!r} is paired twice in round {round_number}")
                    if x.status != "active":
                        raise TournamentError(f"{x.name!r} has withdrawn")
                    seen.add(x.name)
                if (
                    b is not None
                    and ev.system != "double-round-robin"
                    and (frozenset((a.id, b.id)) in met)
                ):
                    raise TournamentError(f"{a.name!r} and {b.name!r} have already met")
                kind = None if b else byes.get(a.name, "pab")
                if kind is not None and kind not in BYE_KINDS:
                    raise TournamentError(
                        f"unknown bye kind {kind!r}; choose {', '.join(BYE_KINDS)}"
                    )
                pairs.append((a, b, kind))
            rnd = self._store_round(s, ev, round_number, pairs, "manual (arbiter)", manual=True)
            self._log(s, ev, "override", reason or "manual pairing", round_number=round_number)
            return outcomes.round_tables(rnd.pairings)

    def unpair_round(self, *, event: EventRef = None) -> int:
        """Undo the latest round while none of its tables has a result; returns its number."""
        with self._tx() as s:
            ev = self._paired_event(s, event)
            if not ev.rounds_:
                raise TournamentError("no round is paired")
            rnd = ev.rounds_[-1]
            refuse_undo_with_sheets(s, ev, rnd)
            self._drop_round(s, ev, rnd)
            self._log(s, ev, "unpair", f"round {rnd.number} undone", round_number=rnd.number)
            return rnd.number

    def pairings(
        self, round_number: int | None = None, *, event: EventRef = None
    ) -> list[outcomes.TableOutcome]:
        """Tables of a round (default: the latest), with results where entered."""
        with self._tx(write=False) as s:
            ev = self._event(s, event)
            rnd = self._round(ev, round_number or len(ev.rounds_))
            return outcomes.round_tables(rnd.pairings)

    # ------------------------------------------------------------------ results

    def enter_result(
        self,
        round_number: int,
        table: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        event: EventRef = None,
    ) -> outcomes.TableOutcome:
        """Enter the result of one table: a score sheet (coach A first, decided by the
        game), a forfeit by coach "A" or "B" (0-2), or a double forfeit. A second result for
        the same table is refused (use `correct_result`)."""
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            pairing = self._table_row(s, ev, round_number, table)
            tie_service.refuse_whole_result(ev, round_number, table)
            if pairing.result is not None:
                raise TournamentError(
                    f"round {round_number} table {table} already has a result (correct it instead)"
                )
            pairing.result = self._make_result(ev, pairing, sheet, forfeit, double_forfeit)
            s.flush()
            return outcomes.table_outcome(pairing)

    def correct_result(
        self,
        round_number: int,
        table: int,
        *,
        reason: str,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        event: EventRef = None,
    ) -> outcomes.TableOutcome:
        """Replace an entered result; the old one and the reason are kept in the log."""
        if not (reason or "").strip():
            raise TournamentError("a correction needs a reason")
        reason = table_result.check_correction_reason(reason)
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            pairing = self._table_row(s, ev, round_number, table)
            tie_service.refuse_whole_result(ev, round_number, table)
            if pairing.result is None:
                raise TournamentError(
                    f"round {round_number} table {table} has no result to correct"
                )
            new = self._make_result(ev, pairing, sheet, forfeit, double_forfeit)
            self._replace_result(s, ev, round_number, table, pairing.result, new, reason.strip())
            return outcomes.table_outcome(pairing)

    def record_table_result(
        self,
        round_number: int,
        table: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        steals: list[dict[str, Any]] | None = None,
        sanctions: list[dict[str, Any]] = (),  # type: ignore[assignment]
        reason: str = "",
        expected_version: int | None = None,
        must_exist: bool = False,
        at: float | None = None,
        event: EventRef = None,
        late: dict[str, int | None] | None = None,
    ) -> table_result.RecordedResult:
        """Record a table's result with the steals and sanctions of its sheet, all in one
        transaction (the desk's result form and `ball result enter|correct`).

        Everything is checked before anything is written: the result (decided by the
        game), the steals (`{"half", "side", "choice"}`; None keeps the stored ones), the
        sanctions (`{"side", "step", "reason"}`, on the ladder, reason at most 500
        characters, loss of match only with its forfeit) and the correction's reason.
        The very submission already stored (a retry after a crash) returns the stored
        result and writes nothing. A different result over a stored one is a correction:
        it needs `reason` (`CorrectionWithoutReason`) and is kept with it. With
        `expected_version`, a table saved since that version is a `VersionConflict`.
        `must_exist` refuses a table without a result (a correction of nothing).
        `late` (side -> minutes late, None: never came) applies articles 21-22: past the
        event's default time the side loses by forfeit (`lateness_service`)."""
        reason = table_result.check_correction_reason(reason)
        now = time.time() if at is None else at
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            return self._write_table_result(
                s, ev, round_number, table, sheet=sheet, forfeit=forfeit,
                double_forfeit=double_forfeit, steals=steals, sanctions=sanctions,
                reason=reason, expected_version=expected_version, must_exist=must_exist,
                now=now, late=late,
            )  # fmt: skip

    def _write_table_result(
        self,
        s: Session,
        ev: Event,
        round_number: int,
        table: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        steals: list[dict[str, Any]] | None = None,
        sanctions: list[dict[str, Any]] = (),  # type: ignore[assignment]
        reason: str = "",
        expected_version: int | None = None,
        must_exist: bool = False,
        now: float,
        late: dict[str, int | None] | None = None,
        entered_by: str = "desk",
    ) -> table_result.RecordedResult:
        """`record_table_result` inside the caller's transaction `s` (the players' entry
        accepted by itself is written in the transaction that confirms it). `entered_by`
        names who entered the result when the table's players had entered one too
        (`table_links.settle`: the log says who entered what)."""
        pairing = self._table_row(s, ev, round_number, table)
        tie_service.refuse_whole_result(ev, round_number, table)
        # `_table_row` refuses a bye, so the table has its coach B.
        assert pairing.b is not None and pairing.b_id is not None
        names = {"A": pairing.a.name, "B": pairing.b.name}
        entered, ruling = self._late_ruling(
            s, ev, late, {"sheet": sheet, "forfeit": forfeit, "double_forfeit": double_forfeit}
        )
        new = self._make_result(ev, pairing, **entered)
        kind = table_result.result_kind(new)
        stolen = None if steals is None else table_result.check_steals(steals, names)
        given = table_result.check_sanctions(sanctions, kind, names, game(ev.game).ladder)
        state = table_result.lock_state(s, pairing.id)  # from here on: serialised
        if table_result.already_stored(s, pairing, round_number, state, new, stolen, given):
            s.refresh(pairing)
            return table_result.RecordedResult(
                table=outcomes.table_outcome(pairing),
                version=state.version,
                steals=json.loads(state.steals or "[]"),
                written=False,
            )
        if expected_version is not None and state.version != expected_version:
            raise table_result.VersionConflict(
                f"round {round_number} table {table} was saved by someone else "
                f"(version {state.version}, the form has {expected_version})"
            )
        old = table_result.stored_result(s, pairing.id)
        if old is None and must_exist:
            raise TournamentError(f"round {round_number} table {table} has no result to correct")
        if old is not None and not reason:
            raise table_result.CorrectionWithoutReason(
                f"round {round_number} table {table} already has a result "
                "(correct it instead, with a reason)"
            )
        if old is None:
            new.pairing_id = pairing.id
            s.add(new)
        else:
            self._replace_result(s, ev, round_number, table, old, new, reason)
        state.version += 1
        state.updated_at = now
        if late and ruling is not None:
            self._store_lateness(s, ev, pairing, round_number, late, ruling)
        if stolen is not None:
            state.steals = json.dumps(stolen)
        ids = {"A": pairing.a_id, "B": pairing.b_id}
        for g in given:
            sanction_log.record(
                s, ev.id, ids[g["side"]], g["step"], g["reason"], now,
                round_number=round_number, table=table, ladder=game(ev.game).ladder,
            )  # fmt: skip
            self._log(
                s, ev, "sanction", f"{g['step']}: {g['reason']}", entrant_id=ids[g["side"]],
                round_number=round_number, table=table,
            )  # fmt: skip
        table_links.settle(s, ev, pairing, entered_by, now)
        s.flush()
        s.refresh(pairing)
        return table_result.RecordedResult(
            table=outcomes.table_outcome(pairing),
            version=state.version,
            steals=json.loads(state.steals or "[]"),
            sanctions=given,
            correction=old is not None,
        )

    @staticmethod
    def _replace_result(
        s: Session, ev: Event, round_number: int, table: int, old: Result, new: Result, why: str
    ) -> None:
        """Overwrite a stored result with a new one, keeping both and the reason."""
        before = outcomes.result_summary(old).as_dict()
        for attr in ("kind", "forfeit_by", "sheet", "decision", "outcome", "entered_at"):
            value = getattr(new, attr)
            setattr(old, attr, "" if value is None and attr in ("sheet", "decision") else value)
        s.add(
            ResultCorrection(
                event_id=ev.id,
                round_number=round_number,
                table=table,
                before=json.dumps(before),
                after=json.dumps(outcomes.result_summary(old).as_dict()),
                reason=why,
                at=time.time(),
            )
        )

    def corrections(self, *, event: EventRef = None) -> list[outcomes.Correction]:
        with self._tx(write=False) as s:
            ev = self._event(s, event)
            rows = s.scalars(
                select(ResultCorrection)
                .where(ResultCorrection.event_id == ev.id)
                .order_by(ResultCorrection.id)
            )
            return [outcomes.correction(r) for r in rows]

    def record(
        self,
        kind: str,
        detail: str,
        *,
        name: str | None = None,
        round_number: int | None = None,
        table: int | None = None,
        event: EventRef = None,
    ) -> None:
        """Append to the arbiter's log (`kind`: sanction, signal, note, ...)."""
        if not check_name(kind, "log kind", 40):
            raise TournamentError("a log entry needs a kind")
        if (why := too_long(detail or "", "detail", FREE_TEXT_MAX)) is not None:
            raise TournamentError(why)
        if kind.strip().lower() in ("sanction", "signal"):
            # Free text would skip the ladder and the signal rules (and miss the forms).
            raise TournamentError(f"a {kind.strip()} is given with give_{kind.strip().lower()}")
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            entrant_id = self._entrant_named(s, ev, name).id if name else None
            self._log(
                s,
                ev,
                kind.strip(),
                detail,
                entrant_id=entrant_id,
                round_number=round_number,
                table=table,
            )

    def give_sanction(
        self,
        step: str,
        reason: str,
        *,
        player: str | None = None,
        entrant_id: int | None = None,
        round_number: int | None = None,
        table: int | None = None,
        at: float | None = None,
        event: EventRef = None,
    ) -> SanctionGiven:
        """Give an entrant (by name or id) a step of the sanction ladder, with its reason:
        the checked entry of the desk's sanction log (`sanction_log.record`: the step on the
        ladder, a reason of at most 500 characters) and its line in the arbiter's log, in
        one transaction."""
        _bounded(round_number, "round")
        _bounded(table, "table")
        _bounded(entrant_id, "entrant")
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            if player is not None:
                entrant_id = self._entrant_named(s, ev, player).id
            if entrant_id is None:
                raise TournamentError("sanction: name the entrant sanctioned")
            if table is not None:
                # The forms print the sanction at this table: the entrant must sit there.
                if round_number is None:
                    raise TournamentError("sanction: a table needs its round")
                pairing = self._table_row(s, ev, round_number, table)
                if entrant_id not in (pairing.a_id, pairing.b_id):
                    raise TournamentError(
                        f"sanction: entrant {entrant_id} does not play at round {round_number} "
                        f"table {table}"
                    )
            entry = sanction_log.record(
                s, ev.id, entrant_id, step, reason, time.time() if at is None else at,
                round_number=round_number, table=table, ladder=game(ev.game).ladder,
            )  # fmt: skip
            self._log(
                s, ev, "sanction", f"{entry.step}: {entry.reason}", entrant_id=entrant_id,
                round_number=round_number, table=table,
            )  # fmt: skip
            return SanctionGiven(
                entrant_id=entrant_id,
                step=entry.step,
                reason=entry.reason,
                round=entry.round_number,
                table=entry.table,
                at=entry.at,
            )

    def give_signal(
        self,
        round_number: int | None,
        which: int,
        *,
        at: float | None = None,
        gap: float | None = None,
        event: EventRef = None,
    ) -> SignalGiven:
        """Give start signal `which` (1 or 2) of a round (default: the latest) at `at`
        (default now), refused when too early (`signals.give_signal`: signal 2 only after
        every first half ended plus the ruleset's gap); logged in the same transaction."""
        _bounded(round_number, "round")
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            number = round_number if round_number is not None else self._count(s, Round, ev)
            gap = signals.gap_seconds() if gap is None else gap
            row = signals.give_signal(
                s, ev.id, number, which, time.time() if at is None else at, gap
            )
            self._log(s, ev, "signal", f"signal {which} of round {number}", round_number=number)
            return SignalGiven(round=number, signal=row.signal, at=row.at)

    def record_half_end(
        self,
        round_number: int | None,
        table: int,
        *,
        at: float | None = None,
        source: str = "arbiter",
        event: EventRef = None,
    ) -> HalfEnd:
        """Record when a table finished its first half (`signals.record_half_end`)."""
        _bounded(round_number, "round")
        _bounded(table, "table")
        now = time.time()
        when = now if at is None else at
        if when > now:
            raise TournamentError(f"table {table}: a first half cannot end in the future")
        with self._tx() as s:
            ev = self._event(s, event, full=False)
            number = round_number if round_number is not None else self._count(s, Round, ev)
            row = signals.record_half_end(s, ev.id, number, table, when, source)
            return HalfEnd(round=number, table=row.table, at=row.at, source=row.source)

    def log(self, *, event: EventRef = None) -> list[outcomes.LogLine]:
        with self._tx(write=False) as s:
            ev = self._event(s, event, full=False)  # the names: entrants, not rounds
            # A log entry without an entrant (None) gets no name.
            names: dict[int | None, str] = {e.id: e.name for e in ev.entrants}
            rows = s.scalars(
                select(LogEntry).where(LogEntry.event_id == ev.id).order_by(LogEntry.id)
            )
            return [outcomes.log_line(r, names) for r in rows]

    # ------------------------------------------------------------------ standings, TRF

    def standings(
        self, *, event: EventRef = None, upto: int | None = None
    ) -> outcomes.StandingsTable:
        """Ranking after the last round with every result in (or after round `upto` when
        it is earlier: `standings.after_round`), with the event's tie-break chain and the
        description of the tie-break rules applied."""
        _bounded(upto, "round")
        with self._tx(write=False) as s:
            ev = self._event(s, event, full=False)
            refuse_two_player(ev, "its standings are by table points (session_standings)")
            # Most events rank from plain rows, without loading the event as ORM objects
            # (issue 15: the first public view after a result); the rules are the same code.
            data = event_rows.read(s, ev.id) if event_rows.plain_ranks(s, ev) else None
            if data is None:
                ev = self._event(s, ev.id)
            ranked: event_rows.EventData = data or ev
            # one round for every table below: the last complete one (`after_round`)
            table = outcomes.standings_table(ranked, upto, standings.of_event(ranked, upto, s))
            after = table.rounds
            teams = self.team_standings(s, ev, after) if team_service.team_event(s, ev) else None
            withdrawals = withdrawal_event.summary(ranked) or None
            in_groups = self.group_section(s, ev, upto)
            return replace(table, withdrawals=withdrawals, teams=teams, groups=in_groups)

    def cross_table(
        self, *, event: EventRef = None, upto: int | None = None
    ) -> outcomes.Crosstable:
        """The crosstable after the rounds the standings count (`standings.after_round`):
        each entrant's games in rank order, opponents by rank."""
        _bounded(upto, "round")
        with self._tx(write=False) as s:
            ev = self._event(s, event)
            refuse_two_player(ev, "its standings are by table points (session_standings)")
            after = standings.after_round(ev, upto)
            ranked = standings.of_event(ev, after, s)
            return outcomes.crosstable(ev, after, ranked, crosstable.build(ev, after))

    def export_trf(self, *, event: EventRef = None) -> str:
        """FIDE TRF-16 of the event with every round that has all its results."""
        with self._tx(write=False) as s:
            ev = self._event(s, event)
            refuse_two_player(ev, "TRF holds two-player events only")
            upto = standings.complete_rounds(ev)
            return trf_event.export(ev, upto, team=self.trf_team(s, ev))

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
        with self._tx() as s:
            name = name or parsed.name or "Imported event"
            self._refuse_taken_name(s, name)
            ev = trf_event.new_event(
                parsed, name=name, plugin=plugin, tiebreak_rules=tiebreak_rules, chain=chain
            )
            trf_event.store(s, ev, parsed, plugin)
            s.refresh(ev)
            team_service.import_teams(s, ev, parsed.extras)
            return outcomes.event_summary(ev)

    # ------------------------------------------------------------------ internals

    def _next_round_number(self, ev: Event) -> int:
        if ev.rounds_:
            last = ev.rounds_[-1]
            missing = [p.table for p in last.pairings if p.b_id is not None and p.result is None]
            if missing:
                raise TournamentError(
                    f"round {last.number} still has tables without a result: "
                    f"{', '.join(map(str, missing))}"
                )
        number = len(ev.rounds_) + 1
        if ev.rounds is not None and number > ev.rounds and ev.system not in ("knockout", GROUPS):
            raise TournamentError(f"all {ev.rounds} rounds are paired")
        return number

    def _assign_numbers(self, ev: Event) -> None:
        """Pairing numbers at round 1: rating order (then registration) for a Swiss and for
        knockout seeds, registration order for a round robin; for a round robin or a
        knockout `--draw-lots` shuffles them instead (seeded, recorded on the event)."""
        entrants = sorted(ev.entrants, key=lambda e: e.registered)
        if ev.system in ("swiss", GROUPS) or (
            ev.system == "knockout" and ev.draw_lots_seed is None
        ):
            entrants.sort(key=lambda e: (-(e.rating or 0), e.registered))
        elif ev.draw_lots_seed is not None:
            random.Random(ev.draw_lots_seed).shuffle(entrants)
            ev.lots = json.dumps({"seed": ev.draw_lots_seed, "order": [e.name for e in entrants]})
        # Who withdrew before the start takes a number after the field's (out of the table).
        entrants.sort(key=lambda e: not crosstable.in_field(ev, e))
        for number, e in enumerate(entrants, start=1):
            e.number = number

    def _pair_swiss(
        self, ev: Event, number: int, requests: dict[int, str]
    ) -> tuple[list[knockout.Table], str]:
        if ev.rounds is None:
            ev.rounds = max(1, math.ceil(math.log2(max(2, len(ev.entrants)))))
        by_number = {e.number: e for e in ev.entrants}
        absent = [e.number for e in ev.entrants if e.status != "active" or e.id in requests]
        text = trf_event.export(ev, number - 1, absent=absent, ranked=False)
        pairs = swiss.pair_dutch(text, number, ev.rounds)
        out: list[tuple[Entrant, Entrant | None, str | None]] = []
        for w, b in pairs:
            out.append((by_number[w], by_number.get(b), None if b else "pab"))
        for e in sorted(ev.entrants, key=lambda e: e.number):
            if e.id in requests and e.status == "active":
                out.append((e, None, requests[e.id]))
        return out, swiss.engine_name()

    def _pair_round_robin(self, ev: Event, number: int) -> tuple[list[knockout.Table], str]:
        cycles = 2 if ev.system == "double-round-robin" else 1
        n = sum(1 for e in ev.entrants if crosstable.in_field(ev, e))
        total = berger.berger_rounds(n) * cycles
        if ev.rounds is None:
            ev.rounds = total
        if number > total:
            raise TournamentError(f"all {total} rounds are paired")
        by_number = {e.number: e for e in ev.entrants}
        out = []
        for w, b in berger.round_robin_round(n, number, cycles):
            out.append((by_number[w], by_number[b] if b else None, None if b else "pab"))
        return out, f"FIDE Berger tables ({'double' if cycles == 2 else 'single'})"

    def _store_round(
        self,
        s: Session,
        ev: Event,
        number: int,
        pairs: list[knockout.Table],
        method: str,
        manual: bool,
    ) -> Round:
        rnd = Round(event_id=ev.id, number=number, method=method, paired_at=time.time())
        s.add(rnd)
        s.flush()
        for table, (a, b, kind) in enumerate(pairs, start=1):
            pairing = Pairing(
                round_id=rnd.id,
                table=table,
                a_id=a.id,
                b_id=b.id if b is not None else None,
                bye=kind if b is None else None,
                manual=manual,
            )
            s.add(pairing)
            s.flush()
            # A withdrawn entrant left in a fixed schedule (round robin) loses by forfeit.
            if b is not None and (a.status != "active" or b.status != "active"):
                both = a.status != "active" and b.status != "active"
                by = None if both else ("A" if a.status != "active" else "B")
                result = forfeit_result(game(ev.game), by, time.time())
                result.pairing_id = pairing.id
                s.add(result)
        s.flush()
        s.refresh(ev)
        stored = s.scalars(
            select(Round)
            .where(Round.id == rnd.id)
            .options(selectinload(Round.pairings).selectinload(Pairing.result))
        ).one()
        # Every pairing proves itself (issue 35 §2): a failed check keeps it unpublished.
        pairing_check.record(stored, pairing_check.check(s, ev, stored))
        return stored

    def _drop_round(self, s: Session, ev: Event, rnd: Round) -> None:
        with_result = [
            p.table
            for p in rnd.pairings
            if (p.result is not None or p.tie_games)
            and p.a.status == "active"
            and (p.b is None or p.b.status == "active")
        ]
        if with_result:
            raise TournamentError(
                f"round {rnd.number} has results (tables {', '.join(map(str, with_result))}); "
                "it cannot be undone"
            )
        ev.rounds_.remove(rnd)
        s.delete(rnd)
        s.flush()
        if rnd.number == 1:
            for e in ev.entrants:
                e.number = e.registered
            if ev.system != "swiss":
                ev.lots = ""

    @staticmethod
    def _round(ev: Event, number: int) -> Round:
        for r in ev.rounds_:
            if r.number == number:
                return r
        raise TournamentError(f"round {number} is not paired")

    @staticmethod
    def _table_row(s: Session, ev: Event, number: int, table: int) -> Pairing:
        """One table, fetched by itself (result entry must not load the whole event)."""
        refuse_two_player(ev, "its tables take session sheets ('ball result enter --sheet')")
        _bounded(number, "round")
        _bounded(table, "table")
        rnd = s.scalars(
            select(Round).where(Round.event_id == ev.id, Round.number == number)
        ).first()
        if rnd is None:
            raise TournamentError(f"round {number} is not paired")
        pairing = s.scalars(
            select(Pairing).where(Pairing.round_id == rnd.id, Pairing.table == table)
        ).first()
        if pairing is None:
            raise TournamentError(f"round {number} has no table {table}")
        if pairing.b_id is None:
            raise TournamentError(f"round {number} table {table} is a bye; it takes no result")
        return pairing

    def _make_result(
        self, ev: Event, pairing: Pairing, sheet: Any, forfeit: Any, double_forfeit: Any
    ) -> Result:
        given = sum(
            x is not None and x is not False for x in (sheet, forfeit, double_forfeit or None)
        )
        if given != 1:
            raise TournamentError(
                "give exactly one of: a sheet, a forfeit (A or B), a double forfeit"
            )
        plugin = game(ev.game)
        now = time.time()
        if double_forfeit:
            return forfeit_result(plugin, None, now)
        if forfeit is not None:
            if forfeit not in ("A", "B"):
                raise TournamentError(f"forfeit is by coach A or B, got {forfeit!r}")
            return forfeit_result(plugin, forfeit, now)
        if not isinstance(sheet, dict):
            raise TournamentError("illegal sheet: the score sheet must be a JSON object")
        decided = plugin.decide(sheet)
        # A game whose document names the players checks them against the table's
        # (Xiangqi's: Red = player A).
        if pairing.b is not None:
            plugin.check_players(sheet, pairing.a.name, pairing.b.name)
        # A sheet that records a forfeit is a forfeit (TRF + / -), its halves kept for research.
        forfeited = decided.decision.get("reason") == "forfeit"
        return Result(
            kind="forfeit" if forfeited else "sheet",
            forfeit_by=("B" if decided.outcome == "A" else "A") if forfeited else None,
            sheet=json.dumps(sheet, sort_keys=True),
            decision=json.dumps({"decision": decided.decision, "figures": decided.figures}),
            outcome=decided.outcome,
            entered_at=now,
        )


# ---------------------------------------------------------------------- helpers


def _driver_autocommit(engine: Engine) -> None:
    """Let `_tx` emit BEGIN itself (pysqlite would otherwise begin late, at the first write,
    leaving the reads before it outside the transaction)."""
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def _no_implicit_begin(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    engine.dispose()  # connections opened by the migration get the new settings too


def _is_iso_date(value: str) -> bool:
    try:
        time.strptime(value, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def _no_entrant(event: Event, name: str) -> TournamentError:
    return TournamentError(f"no entrant named {name!r} in event {event.name!r}")


def _met_pairs(ev: Event) -> set[frozenset[int]]:
    return {
        frozenset((p.a_id, p.b_id)) for r in ev.rounds_ for p in r.pairings if p.b_id is not None
    }
