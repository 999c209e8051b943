"""The pages' event read from plain rows (`views.read_event`, issue 15) gives exactly what
the ORM read gives (`views.event_view` of the fully loaded event): the oracle is the ORM's
own relationships and their order (entrants by pairing number, rounds by number, tables by
table number), on events with byes, forfeits, double forfeits, withdrawals, late entries,
a round robin, a knockout, groups and Mahjong."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.tournament.groups import Setup
from ball.tournament.service import TournamentService
from ball.tournament.views import event_view, read_event

from .generator import generate_swiss


def both(svc: TournamentService, event_id: int):
    with svc.store.tx(write=False) as s:
        plain = read_event(s, event_id)
        orm = event_view(svc.store.event(s, event_id))
    return plain, orm


@pytest.mark.hypothesis
@pytest.mark.slow  # three generated events: 3-8 s on the shared machine
@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), players=st.integers(5, 11), rounds=st.integers(1, 3))
def test_a_generated_swiss_reads_the_same_from_rows_as_from_the_orm(
    tmp_path_factory, seed, players, rounds
):
    db = tmp_path_factory.mktemp("read") / "swiss.sqlite"
    svc = generate_swiss(db, players=players, rounds=rounds, seed=seed, byes=0.15, late=2)
    plain, orm = both(svc, 1)
    assert plain is not None and plain.rounds_  # something to compare
    assert plain == orm
    # every kind of table the generator makes is in the comparison at least once over runs;
    # here: the rows of each round are the ORM's, table by table
    for mine, theirs in zip(plain.rounds_, orm.rounds_, strict=True):
        assert [p.table for p in mine.pairings] == [p.table for p in theirs.pairings]
    svc.engine.dispose()


def test_round_robin_knockout_groups_and_mahjong_read_the_same(tmp_path):
    from mahjong.public_event import make_event

    svc = TournamentService(tmp_path / "many.sqlite")
    svc.events.create_event(name="RR", system="round-robin")
    for i in range(5):
        svc.entrants.add_player(f"R{i}", rating=1500 + i, event="RR")
    for number in (1, 2):
        for t in svc.rounds.pair_next_round(event="RR"):
            if t.b is not None:
                svc.results.enter_result(number, t.table, forfeit="AB"[t.table % 2], event="RR")
    svc.entrants.withdraw("R2", event="RR")
    svc.events.create_event(name="KO", system="knockout")
    for i in range(6):
        svc.entrants.add_player(f"K{i}", rating=1500 + i, event="KO")
    for t in svc.rounds.pair_next_round(event="KO"):
        if t.b is not None:
            svc.results.enter_result(1, t.table, double_forfeit=True, event="KO")
    svc.events.create_event(name="Cup", system="groups", groups=Setup(2, qualifiers=2))
    for i in range(8):
        svc.entrants.add_player(f"P{i}", rating=2000 - i, event="Cup")
    svc.rounds.pair_next_round(event="Cup")
    svc.engine.dispose()
    mj, mj_id = make_event(str(tmp_path / "mj.sqlite"))
    for service, event_id in [(svc, 1), (svc, 2), (svc, 3), (mj, mj_id)]:
        plain, orm = both(service, event_id)
        assert plain == orm, event_id
    assert [e.status for e in both(svc, 1)[0].entrants].count("withdrawn") == 1
    mj.engine.dispose()


def test_no_such_event_reads_as_none(tmp_path):
    svc = TournamentService(tmp_path / "none.sqlite")
    with svc.store.tx(write=False) as s:
        assert read_event(s, 1) is None
    svc.engine.dispose()


def test_a_write_rebuilds_the_rounds_it_changes_and_only_those(tmp_path):
    # the tables' views of a round are kept across reads (`views._round_tables`): each kind
    # of write must still show at once, and an untouched round is the same views again
    svc = TournamentService(tmp_path / "kept.sqlite")
    svc.events.create_event(name="S", system="swiss", rounds=3)
    for i in range(6):
        svc.entrants.add_player(f"S{i}", rating=1800 - i, event="S")
    first = svc.rounds.pair_next_round(event="S")
    for t in first:
        svc.results.enter_result(1, t.table, forfeit="A", event="S")
    second = svc.rounds.pair_next_round(event="S")
    before, _ = both(svc, 1)

    svc.results.enter_result(2, second[0].table, double_forfeit=True, event="S")
    plain, orm = both(svc, 1)
    assert plain == orm
    assert all(
        a is b for a, b in zip(before.rounds_[0].pairings, plain.rounds_[0].pairings, strict=True)
    )
    assert plain.rounds_[1].pairings[0].result is not None
    assert before.rounds_[1].pairings[0].result is None  # the earlier read is unchanged

    svc.results.correct_result(1, first[0].table, forfeit="B", reason="wrong side", event="S")
    plain, orm = both(svc, 1)
    assert plain == orm
    assert plain.rounds_[0].pairings[0].result["forfeit_by"] == "B"

    svc.entrants.withdraw("S5", event="S")  # an entrant's row: every round that names them
    plain, orm = both(svc, 1)
    assert plain == orm
    assert "withdrawn" in {p.a.status for r in plain.rounds_ for p in r.pairings} | {
        p.b.status for r in plain.rounds_ for p in r.pairings if p.b is not None
    }
    svc.engine.dispose()
