"""`record_table_result` on PostgreSQL: racing saves of one table write once (the version row
is locked, not only the unique result), the identical ones are answered with the stored
result, and a refused sanction leaves nothing behind."""

from __future__ import annotations

import threading

import pytest

from ball.tournament import TournamentService, sanction_log
from ball.tournament.errors import TournamentError
from ball.tournament.table_result import VersionConflict


def _event(url: str) -> TournamentService:
    svc = TournamentService(url)
    svc.events.create_event(name="Race", system="round-robin")
    for name in ("Ann", "Bo", "Cy", "Di"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    return svc


def test_racing_saves_of_one_table_write_once(fresh_postgres_url):
    svc = _event(fresh_postgres_url)
    writers = [TournamentService(fresh_postgres_url) for _ in range(4)]
    start = threading.Barrier(len(writers), timeout=60)
    outcomes: dict[int, str] = {}

    def save(i: int) -> None:
        start.wait()
        try:
            done = writers[i].results.record_table_result(
                1,
                1,
                forfeit="AB"[i % 2],
                steals=[{"half": 1, "side": "B", "choice": "reset"}],
                sanctions=[{"side": "A", "step": "warning", "reason": "late"}],
                expected_version=0,
            )
            outcomes[i] = f"{'AB'[i % 2]} written" if done.written else f"{'AB'[i % 2]} same"
        except VersionConflict:
            outcomes[i] = "conflict"

    threads = [threading.Thread(target=save, args=(i,)) for i in range(len(writers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    written = [o for o in outcomes.values() if o.endswith("written")]
    assert len(written) == 1, outcomes
    winner = written[0][0]
    assert sorted(outcomes.values()) == sorted(
        [f"{winner} written", f"{winner} same"] + ["conflict"] * 2
    )
    assert svc.rounds.pairings(1)[0]["result"]["forfeit_by"] == winner
    assert svc.results.corrections() == []
    with svc.store.sessions() as s:
        assert [(e.step, e.reason) for e in sanction_log.event_log(s, 1)] == [("warning", "late")]


def test_a_refused_sanction_leaves_nothing(fresh_postgres_url):
    svc = _event(fresh_postgres_url)
    with pytest.raises(TournamentError, match="sanction 1: reason: at most 500 characters"):
        svc.results.record_table_result(
            1, 1, forfeit="A", sanctions=[{"side": "A", "step": "warning", "reason": "x" * 501}]
        )
    assert "result" not in svc.rounds.pairings(1)[0]
    with svc.store.sessions() as s:
        assert sanction_log.event_log(s, 1) == []
