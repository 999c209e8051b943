"""SIGKILL in the middle of entering results loses no acknowledged result and leaves the
database consistent."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

from ball.tournament import TournamentService

WRITER = textwrap.dedent(
    """
    import sys
    from ball.tournament import TournamentService
    svc = TournamentService(sys.argv[1])
    for number in range(1, 40):
        tables = svc.rounds.pair_next_round()
        for t in tables:
            if t["b"] is not None:
                svc.results.enter_result(number, t["table"], forfeit="B")
                print(f"ack {number} {t['table']}", flush=True)
    """
)


def test_sigkill_while_entering_results(tmp_path):
    db = tmp_path / "crash.db"
    svc = TournamentService(db)
    svc.events.create_event(name="Crash", system="swiss", rounds=39)
    for i in range(40):
        svc.entrants.add_player(f"P{i}", rating=2000 - i)
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True
    )
    acked = []
    deadline = time.monotonic() + 120
    while len(acked) < 45 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked.append(tuple(int(x) for x in line.split()[1:]))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(acked) >= 45, "the writer did not get far enough"

    con = sqlite3.connect(db)
    try:
        assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert con.execute("pragma foreign_key_check").fetchall() == []
        stored = set(
            con.execute(
                'select r.number, p."table" from tournament_results x '
                "join tournament_pairings p on p.id = x.pairing_id "
                "join tournament_rounds r on r.id = p.round_id"
            ).fetchall()
        )
    finally:
        con.close()
    assert set(acked) <= stored
    # The service still works on what was left: finish the round and pair on.
    svc = TournamentService(db)
    last = svc.rounds.pairings()
    table = svc.ranking.standings()  # the round being played is not counted: it is named
    number = table.in_progress or table.rounds
    for t in last:
        if t["b"] is not None and "result" not in t:
            svc.results.enter_result(number, t["table"], forfeit="A")
    assert svc.rounds.pair_next_round()
