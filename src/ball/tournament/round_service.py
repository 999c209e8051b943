"""Pairing the rounds of a two-player event: the next round by the event's system (round
robin by Berger tables, Swiss by the Dutch engine, knockout bracket, teams, groups), the
arbiter's manual pairing or override, undoing the latest round, a round's tables.

The rules that need no use case are functions here (`next_round_number`,
`assign_numbers`, `store_round`, `drop_round`), shared with the knockout's drawn rounds
(`tie_service`).
"""

from __future__ import annotations

import json
import math
import random
import time

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ball.games import game
from ball.tournament import (
    berger,
    crosstable,
    group_service,
    knockout,
    outcomes,
    pairing_check,
    swiss,
    team_service,
    trf_event,
)
from ball.tournament.errors import TournamentError
from ball.tournament.forfeits import forfeit_result
from ball.tournament.group_service import GroupUseCases
from ball.tournament.knockout_draws import refuse_pairing, toss_colours
from ball.tournament.models import ByeRequest, Entrant, Event, Pairing, Round
from ball.tournament.session_refusals import refuse_two_player, refuse_undo_with_sheets
from ball.tournament.store import EventRef, Store, bounded
from ball.tournament.team_service import TeamUseCases

SYSTEMS = ("round-robin", "double-round-robin", "swiss", "knockout")
# Seeded groups then a final (`group_service`): created with its setup, so not offered where
# a bare system is chosen (the desk's form).
GROUPS = "groups"
BYE_KINDS = ("pab", "half", "zero", "full")


class RoundUseCases:
    """Pairing and unpairing rounds."""

    def __init__(self, store: Store, teams: TeamUseCases, groups: GroupUseCases) -> None:
        self.store = store
        self.teams = teams
        self.groups = groups

    def pair_next_round(self, *, event: EventRef = None) -> list[outcomes.TableOutcome]:
        """Pair the next round by the event's system and return its tables (`b` is None
        for a bye)."""
        with self.store.tx() as s:
            ev = self.store.paired_event(s, event)
            refuse_two_player(ev, "seat its sessions ('ball round pair' / seat_session)")
            refuse_pairing(ev)
            number = next_round_number(ev)
            active = [e for e in ev.entrants if e.status == "active"]
            if number == 1:
                if len(active) < 2:
                    raise TournamentError("at least two active entrants are needed to pair")
                assign_numbers(ev)
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
                pairs, method = self.groups.pair_group_event(s, ev, stage, number)
            elif team_event is not None:
                pairs, method = self.teams.pair_team_round(s, ev, team_event, number)
            elif ev.system == "swiss":
                pairs, method = pair_swiss(ev, number, requests)
            elif ev.system in ("round-robin", "double-round-robin"):
                pairs, method = pair_round_robin(ev, number)
            else:
                pairs, method = knockout.pair_round(ev, number)
            bracket = ev.system == "knockout" or method.startswith(group_service.FINAL_METHOD)
            if bracket and "knockout" in method:  # a bracket's matches: colours by toss (13.4)
                pairs = toss_colours(s, ev, number, pairs, method)
            rnd = store_round(s, ev, number, pairs, method, manual=False)
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
        bounded(round_number, "round")
        with self.store.tx() as s:
            ev = self.store.paired_event(s, event)
            refuse_two_player(ev, "seat its sessions ('ball round pair --seating FILE.csv')")
            last = len(ev.rounds_)
            if round_number == last and last:
                drop_round(s, ev, ev.rounds_[-1])
            elif round_number != last + 1:
                raise TournamentError(
                    f"round {round_number} cannot be set: the next round is {last + 1}"
                )
            else:
                next_round_number(ev)
            if round_number == 1:
                assign_numbers(ev)
            seen: set[str] = set()
            pairs: list[tuple[Entrant, Entrant | None, str | None]] = []
            met = _met_pairs(ev)
            for a_name, b_name in tables:
                a = self.store.entrant(ev, a_name)
                b = self.store.entrant(ev, b_name) if b_name else None
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
            rnd = store_round(s, ev, round_number, pairs, "manual (arbiter)", manual=True)
            self.store.log(s, ev, "override", reason or "manual pairing", round_number=round_number)
            return outcomes.round_tables(rnd.pairings)

    def unpair_round(self, *, event: EventRef = None) -> int:
        """Undo the latest round while none of its tables has a result; returns its number."""
        with self.store.tx() as s:
            ev = self.store.paired_event(s, event)
            if not ev.rounds_:
                raise TournamentError("no round is paired")
            rnd = ev.rounds_[-1]
            refuse_undo_with_sheets(s, ev, rnd)
            drop_round(s, ev, rnd)
            self.store.log(s, ev, "unpair", f"round {rnd.number} undone", round_number=rnd.number)
            return rnd.number

    def pairings(
        self, round_number: int | None = None, *, event: EventRef = None
    ) -> list[outcomes.TableOutcome]:
        """Tables of a round (default: the latest), with results where entered."""
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            rnd = self.store.round(ev, round_number or len(ev.rounds_))
            return outcomes.round_tables(rnd.pairings)


def next_round_number(ev: Event) -> int:
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

def assign_numbers(ev: Event) -> None:
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

def pair_swiss(
    ev: Event, number: int, requests: dict[int, str]
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

def pair_round_robin(ev: Event, number: int) -> tuple[list[knockout.Table], str]:
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

def store_round(
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

def drop_round(s: Session, ev: Event, rnd: Round) -> None:
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


def _met_pairs(ev: Event) -> set[frozenset[int]]:
    return {
        frozenset((p.a_id, p.b_id)) for r in ev.rounds_ for p in r.pairings if p.b_id is not None
    }
