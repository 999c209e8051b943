"""What-if standings on PostgreSQL (issue 35 §3): the same figures as on SQLite, read in a
transaction PostgreSQL itself keeps from writing, and nothing stored."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from ball.tournament import TournamentService, whatif

NAMES = ["Ann", "Bob", "Cid", "Dan"]


def won_by(side: str) -> dict:
    """A BALL score sheet that coach `side` ("A" or "B") wins by one touchdown."""
    pb = {"A": {"atk": 3, "def": 2}, "B": {"atk": 2, "def": 3}}
    return {
        "coaches": ["A", "B"],
        "halves": [
            {"atk_first": "A", "td": side, "pb": pb},
            {"atk_first": "B", "td": None, "pb": pb},
        ],
        "forfeit": None,
    }


def club(db: str) -> tuple[TournamentService, list]:
    """A round robin of four, rounds 1-2 entered, round 3 paired; what-if and the needs."""
    svc = TournamentService(db)
    svc.events.create_event(
        name="Club", system="round-robin", tiebreaks=["sonneborn-berger", "wins"]
    )
    for name in NAMES:
        svc.entrants.add_player(name)
    for number in (1, 2, 3):
        tables = svc.rounds.pair_next_round()
        if number < 3:
            for t in tables:
                svc.results.enter_result(number, t["table"], sheet=won_by("A"))
    table, placed = svc.what_if.what_if_standings(
        [whatif.Hypothesis(3, 1, short="0-1"), whatif.Hypothesis(3, 2, short="1/2")]
    )
    seen = [
        [(s.rank, s.name, s.points, s.tiebreaks) for s in table.standings],
        [a.as_dict() for a in placed],
        [n.as_dict() for n in svc.what_if.what_i_need(NAMES)],
    ]
    return svc, seen


def test_what_if_on_postgres_equals_sqlite_and_stores_nothing(fresh_postgres_url, tmp_path):
    on_postgres, seen_pg = club(fresh_postgres_url)
    sqlite, seen_sqlite = club(str(tmp_path / "club.db"))
    sqlite.engine.dispose()
    assert seen_pg == seen_sqlite
    # hand-computed in tests/tournament/test_whatif.py: Ann 2.5, Dan 2, Bob 1, Cid 0.5
    assert [(r, n, p) for r, n, p, _ in seen_pg[0]] == [
        (1, "Ann", 2.5), (2, "Dan", 2.0), (3, "Bob", 1.0), (4, "Cid", 0.5)
    ]  # fmt: skip
    assert [t.result for t in on_postgres.rounds.pairings(3)] == [None, None]
    assert on_postgres.ranking.standings().rounds == 2
    read_only = on_postgres.store.read_only
    with pytest.raises(DBAPIError, match="read-only transaction"), read_only() as s:
        s.execute(text("UPDATE tournament_events SET name = 'Gone'"))
    assert [e["name"] for e in on_postgres.events.list_events()] == ["Club"]
    on_postgres.engine.dispose()
