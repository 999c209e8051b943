"""The writes that read only the rows they need (an entrant by name, the number of rounds or
entrants, one session's seats) decide exactly as when they read the whole event: the same
refusals with the same words, the same rows written, nothing written when refused."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from ball.storage import ids
from ball.tournament import TournamentService, outcomes
from ball.tournament.errors import TournamentError
from ball.tournament.models import ByeRequest, Entrant, HalfEnd, LogEntry, SanctionEntry, Signal
from built_once import copy_of_built

from .generator import random_sheet


def _built(db: str) -> None:
    svc = TournamentService(db)
    svc.events.create_event(name="Open", system="swiss", rounds=3)
    for name, rating in (("Ann", 2000), ("Bo", 1900), ("Cy", 1800), ("Di", 1700)):
        svc.entrants.add_player(name, rating=rating)
    svc.rounds.pair_next_round()
    svc.engine.dispose()


@pytest.fixture
def svc(tmp_path) -> TournamentService:
    """A Swiss of four with round 1 paired (no result yet): built once per test process,
    each test on its own copy."""
    db = str(tmp_path / "narrow.db")
    copy_of_built(db, _built)
    return TournamentService(db)


def stored(svc: TournamentService) -> dict[str, list[tuple]]:
    """Every row the named writes may add or change, as plain tuples."""
    with svc.store.sessions() as s:
        return {
            "entrants": [
                (e.registered, e.number, e.name, e.status, e.withdrawn_after, e.first_round)
                for e in s.scalars(select(Entrant).order_by(Entrant.id))
            ],
            "log": [
                (x.kind, x.detail, x.entrant_id, x.round_number, x.table)
                for x in s.scalars(select(LogEntry).order_by(LogEntry.id))
            ],
            "byes": [(b.entrant_id, b.round_number, b.kind) for b in s.scalars(select(ByeRequest))],
            "sanctions": [(x.entrant_id, x.step) for x in s.scalars(select(SanctionEntry))],
        }


# Each write that names an entrant, called with a name no entrant has.
NAMED = {
    "withdraw": lambda svc, name: svc.entrants.withdraw(name, reason="ill"),
    "request_bye": lambda svc, name: svc.entrants.request_bye(name, 2, "half"),
    "record": lambda svc, name: svc.arbiter.record("note", "late", name=name),
    "give_sanction": lambda svc, name: svc.arbiter.give_sanction("warning", "noise", player=name),
}


@pytest.mark.parametrize("use_case", sorted(NAMED))
# Names match exactly, as Python's `==`: no case folding, no trimming, no collation.
@pytest.mark.parametrize("name", ["Zed", "ann", "Ann ", " Ann", "Ann\x00"])
def test_an_unknown_name_is_refused_and_nothing_is_written(svc, use_case, name):
    before = stored(svc)
    with pytest.raises(TournamentError) as refused:
        NAMED[use_case](svc, name)
    assert str(refused.value) == f"no entrant named {name!r} in event 'Open'"
    assert stored(svc) == before


def test_the_named_writes_act_on_that_entrant(svc):
    svc.entrants.request_bye("Cy", 2, "zero")
    svc.arbiter.record("note", "arrived late", name="Bo", round_number=1, table=1)
    svc.arbiter.give_sanction("warning", "noise", player="Di")
    withdrawn = svc.entrants.withdraw("Ann", reason="ill")
    rows = stored(svc)
    ids = {name: i for i, (_, _, name, *_) in enumerate(rows["entrants"], start=1)}
    assert withdrawn.status == "withdrawn" and withdrawn.withdrawn_after == 1
    assert rows["byes"] == [(ids["Cy"], 2, "zero")]
    assert rows["sanctions"] == [(ids["Di"], "warning")]
    assert [line[:3] for line in rows["log"]] == [
        ("note", "arrived late", ids["Bo"]),
        ("sanction", "warning: noise", ids["Di"]),
        ("withdrawal", "ill", ids["Ann"]),
    ]
    with pytest.raises(TournamentError, match="^'Ann' has already withdrawn$"):
        svc.entrants.withdraw("Ann")
    with pytest.raises(TournamentError, match="^round 1 is already paired$"):
        svc.entrants.request_bye("Bo", 1)
    # A second request for the same round is refused in words, the first one kept.
    with pytest.raises(
        TournamentError, match="^'Cy' has already asked for a zero-point bye in round 2$"
    ):
        svc.entrants.request_bye("Cy", 2, "half")
    assert stored(svc)["byes"] == [(ids["Cy"], 2, "zero")]


def test_a_late_entry_counts_the_field_and_the_rounds(svc):
    with pytest.raises(TournamentError, match="^'Bo' is already registered in 'Open'$"):
        svc.entrants.add_player("Bo")
    late = svc.entrants.add_player("Eve", rating=1500)
    assert (late.number, late.first_round) == (5, 2)
    assert stored(svc)["entrants"][-1] == (5, 5, "Eve", "active", None, 2)
    # A name that differs only in case or spaces is another entrant, as before.
    assert svc.entrants.add_player("eve").number == 6


def test_signals_and_half_ends_without_a_round_go_to_the_latest(svc):
    rng = random.Random(3)
    for table in svc.rounds.pairings(1):
        svc.results.enter_result(1, table.table, sheet=random_sheet(rng))
    svc.rounds.pair_next_round()
    given = svc.arbiter.give_signal(None, 1, at=100.0)
    ended = svc.arbiter.record_half_end(None, 1, at=200.0)
    assert (given.round, ended.round, ended.table) == (2, 2, 1)
    with svc.store.sessions() as s:
        assert [(x.round_number, x.signal) for x in s.scalars(select(Signal))] == [(2, 1)]
        assert [(x.round_number, x.table) for x in s.scalars(select(HalfEnd))] == [(2, 1)]
    with pytest.raises(TournamentError, match="^signal 1 of round 2 was already given$"):
        svc.arbiter.give_signal(None, 1)
    # The read of the event and its entrants answers as from the whole event loaded.
    with svc.store.sessions() as s:
        assert svc.events.event_info() == outcomes.event_info(svc.store.event(s, None))


def test_a_half_end_is_checked_against_its_own_table(tmp_path):
    svc = TournamentService(tmp_path / "half.db")
    event = svc.events.create_event(name="Five", system="swiss", rounds=3).id
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        svc.entrants.add_player(name)
    tables = svc.rounds.pair_next_round()
    played, forfeited = (t.table for t in tables if t.b is not None)
    bye = next(t.table for t in tables if t.b is None)
    svc.results.enter_result(1, forfeited, forfeit="A")

    def refused(table: int, at: float, message: str, round_number: int = 1) -> None:
        # The service's path (a table number out of range is refused before the checks) and
        # the desk's (any integer from the page's address), the same checks.
        if ids.in_range(table):
            with pytest.raises(TournamentError) as raised:
                svc.arbiter.record_half_end(round_number, table, at=at)
            assert str(raised.value) == message
        with pytest.raises(TournamentError) as raised:
            svc.desk.record_half_end_by(
                event, round_number, table, at=at, now=1e9, source="arbiter"
            )
        assert str(raised.value) == message

    refused(played, 150.0, "round 1: give signal 1 before recording half ends")
    refused(played, 150.0, f"round 2 of event {event} has not been paired", 2)
    svc.arbiter.give_signal(1, 1, at=100.0)
    for table in (bye, forfeited, 9, 0, -1, 10**30, ids.MAX_ID + 1):
        refused(table, 150.0, f"round 1: table {table} has no game being played")
    refused(played, 50.0, f"table {played}: a first half cannot end before signal 1")
    assert svc.arbiter.record_half_end(1, played, at=150.0).at == 150.0
    # a sheet: still played
    svc.results.enter_result(1, played, sheet=random_sheet(random.Random(5)))
    assert svc.arbiter.record_half_end(1, played, at=160.0, source="table").source == "table"
    svc.arbiter.give_signal(1, 2, at=170.0, gap=0)
    refused(played, 165.0, "round 1: signal 2 was given; half ends are closed")
    with svc.store.sessions() as s:
        assert [(h.table, h.at, h.source) for h in s.scalars(select(HalfEnd))] == [
            (played, 160.0, "table")
        ]
