"""SIGKILL campaign against a live `ball serve` (issue 11, item 9): the desk's result form is
posted with steals and sanctions while the server process is killed at random moments and
started again on the same database. Every acknowledged save (303) is stored with its steals
and sanctions, no result is stored without them, and the form the arbiter sends again after
a crash (its answer lost) is stored once and is no correction."""

from __future__ import annotations

import http.client
import json
import random
import re
import sqlite3
import threading
import time
from urllib.parse import urlencode, urlsplit

import pytest

from ball.tournament import TournamentService
from ball.web.core import security

KILLS = 40
PLAYERS = 40  # 20 tables a round
PIN = "8642"


class Desk:
    """One arbiter's browser: the session cookie and CSRF token survive server restarts
    (sessions are stored in the database)."""

    def __init__(self, url: str, event_id: int):
        parts = urlsplit(url)
        self.host, self.port, self.event_id = parts.hostname, parts.port, event_id
        self.cookie = ""
        self.csrf = ""

    def request(self, method: str, path: str, form: dict | None = None, timeout: float = 30):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            body = None
            if form is not None:
                body = urlencode(form)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read().decode()
        finally:
            conn.close()

    def login(self) -> None:
        status, headers, _ = self.request("POST", f"/desk/{self.event_id}/login", {"pin": PIN})
        assert status == 303, status
        self.cookie = headers["set-cookie"].split(";", 1)[0]
        status, _, page = self.request("GET", f"/desk/{self.event_id}")
        assert status == 200
        self.csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)

    def save(self, round_number: int, table: int, form: dict) -> int:
        path = f"/desk/{self.event_id}/rounds/{round_number}/tables/{table}"
        return self.request("POST", path, {**form, "csrf": self.csrf})[0]


def result_form(round_number: int, table: int) -> dict:
    """A played result with two steals and two sanctions, unique to the table."""
    a1, b1, b2, a2 = 3, table % 4, 2 + round_number % 3, 1
    return {
        "kind": "sheet",
        "version": 0,
        "h1_td": "A",
        "h1_A_atk": a1,
        "h1_A_def": b1,
        "h1_B_atk": b1,
        "h1_B_def": a1,
        "h2_td": "",
        "h2_B_atk": b2,
        "h2_B_def": a2,
        "h2_A_atk": a2,
        "h2_A_def": b2,
        "h1_steal0_by": "B",
        "h1_steal0_choice": "reset",
        "h2_steal0_by": "A",
        "h2_steal0_choice": "continue",
        "sanction0_side": "A",
        "sanction0_step": "warning",
        "sanction0_reason": f"r{round_number} t{table}: slow play",
        "sanction1_side": "B",
        "sanction1_step": "loss-of-turn",
        "sanction1_reason": f"r{round_number} t{table}: phone",
    }


def stored_tables(db: str) -> dict[tuple[int, int], dict]:
    """Per (round, table) with two coaches: result, steals, sanctions, version, as stored."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert con.execute("pragma foreign_key_check").fetchall() == []
        rows = con.execute(
            'select r.number, p."table", ea.name, eb.name, x.outcome, s.steals, s.version '
            "from tournament_pairings p join tournament_rounds r on r.id = p.round_id "
            "join tournament_entrants ea on ea.id = p.a_id "
            "join tournament_entrants eb on eb.id = p.b_id "
            "left join tournament_results x on x.pairing_id = p.id "
            "left join desk_result_state s on s.pairing_id = p.id where p.b_id is not null"
        ).fetchall()
        sanctions = con.execute(
            'select round_number, "table", step, reason from desk_sanctions order by id'
        ).fetchall()
        corrections = con.execute("select count(*) from tournament_corrections").fetchone()[0]
    finally:
        con.close()
    assert corrections == 0, "a retried save was stored as a correction"
    out = {}
    for number, table, a, b, outcome, steals, version in rows:
        out[(number, table)] = {
            "a": a,
            "b": b,
            "outcome": outcome,
            "steals": json.loads(steals) if steals else [],
            "version": version or 0,
            "sanctions": sorted((s, r) for n, t, s, r in sanctions if (n, t) == (number, table)),
        }
    return out


def expected_sanctions(number: int, table: int) -> list[tuple[str, str]]:
    form = result_form(number, table)
    return sorted((form[f"sanction{i}_step"], form[f"sanction{i}_reason"].strip()) for i in (0, 1))


@pytest.mark.slow
def test_results_survive_sigkill_whole_or_not_at_all(server_process, tmp_path, monkeypatch):
    # Forty starts of `ball serve` dominate the run: let the first one cache its bytecode
    # (this environment sets PYTHONDONTWRITEBYTECODE, so each start compiled every module).
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    db = str(tmp_path / "crash.sqlite")
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Crash Open", system="round-robin")["id"]
    for i in range(PLAYERS):
        svc.entrants.add_player(f"P{i:02d}", event=event_id)
    svc.rounds.pair_next_round(event=event_id)
    with svc.store.sessions() as s:
        security.set_pin(s, event_id, PIN, time.time())
        s.commit()

    server = server_process(db)
    desk = Desk(server.url, event_id)
    desk.login()
    rng = random.Random(11)
    acked: set[tuple[int, int]] = set()
    pending: list[tuple[int, int]] = []  # sent, answer lost in the crash: sent again
    refused: list[tuple[tuple[int, int], int]] = []
    for kill in range(KILLS):
        if kill:
            server.start()
        tables = svc.rounds.pairings(event=event_id)  # the latest round
        number = _latest_round(db)
        todo = _todo(pending, acked, number, tables)
        pending = []
        stop = threading.Event()

        worker = threading.Thread(target=enter, args=(desk, todo, stop, pending, acked, refused))
        worker.start()
        time.sleep(rng.uniform(0.0, 1.2))
        server.kill()
        stop.set()
        worker.join(timeout=60)
        assert not worker.is_alive()
        assert refused == [], "a save (or its retry) was not answered 303"
        stored = stored_tables(db)
        for key, row in stored.items():
            if row["outcome"] is None:  # nothing of an unsaved table is stored
                assert row["steals"] == [] and row["sanctions"] == [] and row["version"] == 0
                assert key not in acked
            else:  # a stored result has its steals and sanctions, once
                assert row["version"] == 1
                assert row["steals"] == [
                    {"half": 1, "by": row["b"], "choice": "reset"},
                    {"half": 2, "by": row["a"], "choice": "continue"},
                ]
                assert row["sanctions"] == expected_sanctions(*key), key
        assert all(stored[key]["outcome"] == "A" for key in acked)
        if all(stored[(number, t["table"])]["outcome"] for t in tables if t["b"] is not None):
            svc.rounds.pair_next_round(event=event_id)
    assert len(acked) >= KILLS, f"only {len(acked)} saves acknowledged"


def enter(desk, todo, stop, pending, acked, refused) -> None:
    """Save the tables in turn until the server dies; what is not answered is pending."""
    for key in todo:
        if stop.is_set():
            pending.append(key)
            continue
        try:
            status = desk.save(*key, result_form(*key))
        except OSError:  # the server died under the request
            pending.append(key)
            continue
        if status != 303:
            refused.append((key, status))
        acked.add(key)


def _latest_round(db: str) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("select max(number) from tournament_rounds").fetchone()[0]
    finally:
        con.close()


def _todo(pending, acked, number, tables) -> list[tuple[int, int]]:
    fresh = [
        (number, t["table"])
        for t in tables
        if t["b"] is not None and (number, t["table"]) not in acked
        and (number, t["table"]) not in pending
    ]  # fmt: skip
    return pending + fresh
