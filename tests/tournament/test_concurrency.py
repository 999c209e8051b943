"""Two processes entering results at the same time: every result lands, none is refused."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from ball.tournament import TournamentService

WRITER = textwrap.dedent(
    """
    import sys
    from ball.tournament import TournamentService
    svc = TournamentService(sys.argv[1])
    for table in map(int, sys.argv[2:]):
        svc.results.enter_result(1, table, forfeit="B")
    """
)


def test_two_writers_at_once(tmp_path):
    db = tmp_path / "busy.db"
    svc = TournamentService(db)
    svc.events.create_event(name="Busy", system="swiss", rounds=3)
    for i in range(80):
        svc.entrants.add_player(f"P{i}", rating=2000 - i)
    tables = [t["table"] for t in svc.rounds.pair_next_round() if t["b"] is not None]
    halves = [tables[0::2], tables[1::2]]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), *map(str, half)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for half in halves
    ]
    errors = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    assert all("result" in t for t in svc.rounds.pairings(1))
