"""The standings ranked from plain rows (`event_rows.read`, issue 15) are exactly the
standings ranked from the ORM event: every rank, point, tie-break value, tie and
withdrawal ruling, after every round. The oracle is the ORM path the service used before
(`standings.of_event` over the fully loaded `Event`), run on the same database; the rules
are one code path, so what is compared is what each read hands to it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.cli import app
from ball.tournament import event_rows, outcomes, standings, trf, withdrawal_event
from ball.tournament.errors import Unpairable
from ball.tournament.groups import Setup
from ball.tournament.service import TournamentService

from .generator import generate_swiss
from .test_xiangqi_game import doc


def orm_standings(svc: TournamentService, event_id: int, upto: int | None):
    """The ranking as `TournamentService.standings` computed it before: from the ORM."""
    with svc.store.tx(write=False) as s:
        ev = svc.store.event(s, event_id)
        table = outcomes.standings_table(ev, upto, standings.of_event(ev, upto))
        return table, withdrawal_event.summary(ev)


def plain_standings(svc: TournamentService, event_id: int, upto: int | None):
    with svc.store.tx(write=False) as s:
        rows = event_rows.read(s, event_id)
        assert rows is not None
        table = outcomes.standings_table(rows, upto, standings.of_event(rows, upto, s))
        return table, withdrawal_event.summary(rows)


def assert_same(svc: TournamentService, event_id: int) -> int:
    """Compare both paths after every round (and the service's answer); the rounds seen."""
    rounds = svc.ranking.standings(event=event_id).rounds
    for upto in [None, *range(1, rounds + 1)]:
        plain = plain_standings(svc, event_id, upto)
        assert plain == orm_standings(svc, event_id, upto), upto
    served = svc.ranking.standings(event=event_id)
    orm, summary = orm_standings(svc, event_id, None)
    assert served.standings == orm.standings
    assert (served.withdrawals or []) == summary
    assert served.as_dict()["standings"] == orm.as_dict()["standings"]
    return rounds


def assert_rows_match_the_orm(svc: TournamentService, event_id: int) -> None:
    """Every field the protocols name reads the same from the rows as from the ORM."""
    entrant_fields = ("id", "number", "name", "federation", "rating", "status",
                      "first_round", "withdrawn_after", "registered")  # fmt: skip
    with svc.store.tx(write=False) as s:
        rows = event_rows.read(s, event_id)
        ev = svc.store.event(s, event_id)
        assert rows is not None
        for name in ("id", "name", "system", "game", "scoring", "tiebreaks", "tiebreak_rules",
                     "late_entry_bye", "knockout_replays", "games_per_tie"):  # fmt: skip
            assert getattr(rows, name) == getattr(ev, name), name
        assert [[getattr(e, f) for f in entrant_fields] for e in rows.entrants] == [
            [getattr(e, f) for f in entrant_fields] for e in ev.entrants
        ]
        assert [(r.number, r.method) for r in rows.rounds_] == [
            (r.number, r.method) for r in ev.rounds_
        ]
        for mine, theirs in zip(rows.rounds_, ev.rounds_, strict=True):
            for p, q in zip(mine.pairings, theirs.pairings, strict=True):
                assert (p.a_id, p.b_id, p.bye, p.a.id, p.b.id if p.b else None) == (
                    q.a_id, q.b_id, q.bye, q.a.id, q.b.id if q.b else None
                )  # fmt: skip
                mine_r = p.result and (p.result.kind, p.result.forfeit_by, p.result.outcome,
                                       p.result.decision)  # fmt: skip
                theirs_r = q.result and (q.result.kind, q.result.forfeit_by, q.result.outcome,
                                         q.result.decision)  # fmt: skip
                assert mine_r == theirs_r


@pytest.mark.hypothesis
@pytest.mark.slow  # generated events with their standings after every round: 5-15 s
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(5, 12),
    rounds=st.integers(1, 4),
    rules=st.sampled_from(["fide-2024", "fide-2026"]),
)
def test_a_generated_swiss_ranks_the_same_from_rows_as_from_the_orm(
    tmp_path_factory, seed, players, rounds, rules
):
    # byes (half, zero, full, pab), forfeits and double forfeits, withdrawals, late entries
    db = tmp_path_factory.mktemp("rank") / "swiss.sqlite"
    svc = generate_swiss(
        db, players=players, rounds=rounds, seed=seed, byes=0.15, withdrawals=0.1, late=2,
        rules=rules, date="2026-06-01" if rules == "fide-2026" else "2025-06-01",
    )  # fmt: skip
    assert assert_same(svc, 1) >= 1
    assert_rows_match_the_orm(svc, 1)
    svc.engine.dispose()


def test_an_event_the_dutch_rules_cannot_pair_further_ends_and_still_ranks_the_same(tmp_path):
    """Found by the generated test above: in round 4 requested byes and a withdrawal leave
    four players, three of whom all met already, so no pairing exists (FIDE C.04.1, no
    repeat game). The round is refused as `Unpairable` and nothing is written."""
    svc = generate_swiss(tmp_path / "u.sqlite", players=5, rounds=4, seed=5, byes=0.15,
                         withdrawals=0.1, late=2)  # fmt: skip
    played = trf.read(svc.trf.export_trf()).players
    assert {len(p.cells) for p in played} == {3}
    with pytest.raises(Unpairable, match="round 4 cannot be paired by the Dutch rules"):
        svc.rounds.pair_next_round()
    assert trf.read(svc.trf.export_trf()).players == played  # nothing written
    assert assert_same(svc, 1) == 3
    assert_rows_match_the_orm(svc, 1)
    svc.engine.dispose()


def test_a_fixed_swiss_with_every_kind_of_unplayed_round_ranks_the_same(tmp_path):
    svc = generate_swiss(tmp_path / "s.sqlite", players=9, rounds=4, seed=15, byes=0.2,
                         withdrawals=0.1, late=2)  # fmt: skip
    assert assert_same(svc, 1) == 4
    assert_rows_match_the_orm(svc, 1)
    svc.engine.dispose()


def test_round_robin_knockout_and_groups_rank_the_same(tmp_path):
    svc = TournamentService(tmp_path / "many.sqlite")
    svc.events.create_event(name="RR", system="round-robin")
    for i in range(5):
        svc.entrants.add_player(f"R{i}", rating=1500 + i, event="RR")
    for number in (1, 2):
        for t in svc.rounds.pair_next_round(event="RR"):
            if t.b is not None:
                svc.results.enter_result(number, t.table, forfeit="AB"[t.table % 2], event="RR")
    svc.entrants.withdraw("R2", event="RR")  # fewer than half played: results cancelled (20.3)
    svc.events.create_event(name="KO", system="knockout")
    for i in range(6):
        svc.entrants.add_player(f"K{i}", rating=1500 + i, event="KO")
    for t in svc.rounds.pair_next_round(event="KO"):
        if t.b is not None:
            svc.results.enter_result(1, t.table, forfeit="A", event="KO")
    svc.rounds.pair_next_round(event="KO")
    svc.events.create_event(name="Cup", system="groups", groups=Setup(2, qualifiers=2))
    for i in range(8):
        svc.entrants.add_player(f"P{i}", rating=2000 - i, event="Cup")
    svc.rounds.pair_next_round(event="Cup")
    with svc.store.tx(write=False) as s:
        # which events rank from rows: not the groups event (its group stage is elsewhere)
        assert [
            event_rows.plain_ranks(s, svc.store.event(s, i, full=False)) for i in (1, 2, 3)
        ] == [
            True, True, False
        ]  # fmt: skip
    for event_id in (1, 2, 3):
        assert_same(svc, event_id)
        assert_rows_match_the_orm(svc, event_id)
    assert svc.ranking.standings(event="RR").withdrawals[0]["action"] == "cancel-results"
    # round 2 is paired without a result: the standings are after round 1 (issue 36)
    ko = svc.ranking.standings(event="KO")
    assert (ko.rounds, ko.in_progress) == (1, 2)
    svc.engine.dispose()


def test_a_xiangqi_event_with_sanctions_ranks_the_same_18_4(tmp_path):
    svc = TournamentService(tmp_path / "x.db")
    svc.events.create_event(name="XQ", system="swiss", game_name="xiangqi")
    for name in ("P1", "P2", "P3", "P4", "P5"):
        svc.entrants.add_player(name)
    for rnd in (1, 2):
        svc.rounds.pair_next_round()
        for t in svc.rounds.pairings(rnd):
            if t.get("b"):
                svc.results.record_table_result(rnd, t["table"], sheet=doc(
                    "1/2-1/2", "agreement", players=(t["a"], t["b"]),
                    fouls={t["a"]: 1}))  # fmt: skip
    svc.arbiter.give_sanction("warning", "spoke to a spectator", player="P1", round_number=1)
    svc.arbiter.give_sanction("warning", "again", player="P2", round_number=2)
    assert assert_same(svc, 1) == 2
    values = [x.tiebreaks["sanctions"] for x in svc.ranking.standings().standings]
    assert any(values) and not all(values)  # the sanction tie-break counts from the log
    # up to round 1 P2's warning of round 2 is not counted (as the ORM path does)
    after_1 = {x.name: x.tiebreaks["sanctions"] for x in svc.ranking.standings(upto=1).standings}
    after_2 = {x.name: x.tiebreaks["sanctions"] for x in svc.ranking.standings().standings}
    assert after_1["P2"] != after_2["P2"]
    svc.engine.dispose()


def test_a_team_event_ranks_from_the_orm_and_the_same(tmp_path):
    svc = TournamentService(tmp_path / "t.db")
    svc.events.create_event(name="T", system="round-robin", teams=2)
    for team in "ABCD":
        svc.teams.add_team(team, [f"{team}1", f"{team}2"])
    tables = svc.rounds.pair_next_round()
    for t in tables:
        if t.b is not None:
            svc.results.enter_result(1, t.table, forfeit="AB"[t.table % 2])
    with svc.store.tx(write=False) as s:
        assert not event_rows.plain_ranks(s, svc.store.event(s, 1, full=False))
    assert assert_same(svc, 1) == 1
    assert svc.ranking.standings().teams  # the team section comes from the ORM event as before
    svc.engine.dispose()


def test_ball_standings_json_is_byte_identical_from_rows(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    db = tmp_path / "cli.sqlite"
    generate_swiss(
        db, players=8, rounds=3, seed=7, byes=0.2, withdrawals=0.1, late=1
    ).engine.dispose()

    def printed() -> str:
        r = CliRunner().invoke(app, ["standings", "--db", str(db), "--json"])
        assert r.exit_code == 0, r.output
        return r.output

    plain = printed()
    monkeypatch.setattr(event_rows, "plain_ranks", lambda s, ev: False)  # the ORM path
    orm = printed()
    assert plain == orm
    assert len(json.loads(plain)) >= 8


def test_no_such_event_reads_as_none(tmp_path):
    svc = TournamentService(tmp_path / "none.sqlite")
    with svc.store.tx(write=False) as s:
        assert event_rows.read(s, 1) is None
    svc.engine.dispose()
