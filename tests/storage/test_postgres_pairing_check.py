"""The pairing check on PostgreSQL (issue 35 §2): a Swiss round checked by FIDE's Dutch
checker from the rows stored there, a round robin round changed behind the toolbox's back
failing its check, held back and refused publication, as on SQLite."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import create_engine, text

from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError


def test_the_check_reads_and_keeps_its_verdict_on_postgres(fresh_postgres_url):
    svc = TournamentService(fresh_postgres_url)
    svc.events.create_event(name="PG Swiss", system="swiss", rounds=3)
    rng = random.Random(4)
    for i in range(9):
        svc.entrants.add_player(f"S{i}", rating=1500 + 30 * i)
    for number in (1, 2):
        tables = svc.rounds.pair_next_round()
        checked = svc.checks.round_verdict(number)
        assert checked.check is not None and checked.check.ok is True, checked
        assert checked.published
        for t in tables:
            if t.b is not None:
                svc.results.enter_result(number, t.table, forfeit=rng.choice("AB"))

    # round 2's two first tables exchange their coach B in the database itself
    engine = create_engine(fresh_postgres_url)
    with engine.begin() as con:
        rows = con.execute(
            text(
                "SELECT p.id, p.b_id FROM tournament_pairings p JOIN tournament_rounds r "
                "ON r.id = p.round_id WHERE r.number = 2 AND p.b_id IS NOT NULL "
                'ORDER BY p."table" LIMIT 2'
            )
        ).all()
        (first, b1), (second, b2) = rows
        con.execute(
            text("UPDATE tournament_pairings SET b_id = :b WHERE id = :i"), {"b": b2, "i": first}
        )
        con.execute(
            text("UPDATE tournament_pairings SET b_id = :b WHERE id = :i"), {"b": b1, "i": second}
        )
    engine.dispose()

    checked = svc.checks.check_round(2)
    assert checked.check.ok is False and not checked.published
    with pytest.raises(TournamentError, match="round 2 is not published"):
        svc.checks.publish_round(2)
    assert TournamentService(fresh_postgres_url).checks.round_verdict(2).published is False
