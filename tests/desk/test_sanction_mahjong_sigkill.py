"""SIGKILL campaign, continued (issue 30): a live `ball serve` is killed at random moments
while the desk gives sanctions (`POST /desk/{id}/sanctions`) and while it enters Mahjong
hands hand by hand (`POST /desk/{id}/sessions/{n}/tables/{t}/hand`), and started again on
the same database.

- Sanctions: every acknowledged sanction (303) is stored exactly once, with its line in
  the arbiter's log; none is stored without that line or the line without it.
- Mahjong hands: every table's stored sheet is its acknowledged hands in order (plus at most
  the one hand whose answer the crash lost), its version counts them, and the form the
  arbiter sends again after the crash is stored once (recognised, not a second hand).

The first test of the pattern is tests/desk/test_result_sigkill.py."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time

import pytest

from ball.tournament import TournamentService
from ball.web.core import security

from .test_result_sigkill import PIN, Desk

KILLS = 6
WINDS = "ESWN"


def _check_db(con: sqlite3.Connection) -> None:
    assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert con.execute("pragma foreign_key_check").fetchall() == []


def _campaign(server, rng, work, check) -> None:
    """KILLS rounds of: `work(stop)` in a thread, SIGKILL at a random moment, restart,
    `check()` on the database."""
    for kill in range(KILLS):
        if kill:
            server.start()
        stop = threading.Event()
        worker = threading.Thread(target=work, args=(stop,))
        worker.start()
        time.sleep(rng.uniform(0.05, 1.0))
        server.kill()
        stop.set()
        worker.join(timeout=60)
        assert not worker.is_alive()
        check()


# ----------------------------------------------------------------------------- sanctions


def stored_sanctions(db: str) -> tuple[list[str], list[str]]:
    """The reasons of the stored sanctions, and the reasons in the arbiter's log's lines."""
    con = sqlite3.connect(db)
    try:
        _check_db(con)
        reasons = [r for (r,) in con.execute("select reason from desk_sanctions order by id")]
        lines = [
            d.split(": ", 1)[1]
            for (d,) in con.execute("select detail from tournament_log where kind = 'sanction'")
        ]
    finally:
        con.close()
    return reasons, lines


@pytest.mark.slow
def test_sanctions_survive_sigkill_once_each_with_their_log_line(
    server_process, tmp_path, monkeypatch
):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    db = str(tmp_path / "sanctions.sqlite")
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Sanction Open", system="round-robin")["id"]
    for i in range(8):
        svc.entrants.add_player(f"P{i}", event=event_id)
    svc.rounds.pair_next_round(event=event_id)
    with svc.store.sessions() as s:
        security.set_pin(s, event_id, PIN, time.time())
        s.commit()
    con = sqlite3.connect(db)
    entrants = [i for (i,) in con.execute("select id from tournament_entrants order by id")]
    con.close()
    server = server_process(db)
    desk = Desk(server.url, event_id)
    desk.login()
    steps = ["warning", "loss-of-turn", "loss-of-possession"]
    acked: list[str] = []
    sent = iter(range(10_000))

    def give(stop: threading.Event) -> None:
        while not stop.is_set():
            n = next(sent)
            reason = f"sanction {n}: phone rang"
            form = {
                "entrant": entrants[n % len(entrants)],
                "step": steps[n % len(steps)],
                "reason": reason,
                "csrf": desk.csrf,
            }
            try:
                status = desk.request("POST", f"/desk/{event_id}/sanctions", form)[0]
            except OSError:  # the server died under the request: its answer is lost
                return
            assert status == 303, status
            acked.append(reason)

    def check() -> None:
        reasons, lines = stored_sanctions(db)
        assert len(reasons) == len(set(reasons)), "a sanction was stored twice"
        assert sorted(reasons) == sorted(lines), "a sanction without its log line, or back"
        missing = set(acked) - set(reasons)
        assert not missing, f"acknowledged sanctions lost: {sorted(missing)[:3]}"
        assert len(reasons) - len(acked) <= KILLS  # at most the one lost answer per kill

    _campaign(server, random.Random(30), give, check)
    assert len(acked) >= KILLS, f"only {len(acked)} sanctions acknowledged"


# ------------------------------------------------------------------------- Mahjong hands


def hand_form(table: int, number: int) -> dict:
    """The `number`-th hand (0-based) of a table: a win on a discard, unique to the table."""
    winner = WINDS[(table + number) % 4]
    discarder = WINDS[(table + number + 1) % 4]
    return {"outcome": "discard", "winner": winner, "discarder": discarder,
            "fan": str(8 + (table * 7 + number) % 20)}  # fmt: skip


def expected_hand(table: int, number: int) -> dict:
    form = hand_form(table, number)
    return {"winner": form["winner"], "discarder": form["discarder"], "fan": int(form["fan"])}


def stored_sheets(db: str, round_id: int) -> dict[int, tuple[int, list[dict]]]:
    con = sqlite3.connect(db)
    try:
        _check_db(con)
        rows = con.execute(
            'select "table", version, sheet from desk_mahjong_drafts where round_id = ?',
            (round_id,),
        ).fetchall()
    finally:
        con.close()
    return {table: (version, json.loads(sheet).get("hands", [])) for table, version, sheet in rows}


@pytest.mark.slow
def test_mahjong_hands_survive_sigkill_in_order_and_once(server_process, tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    db = str(tmp_path / "mahjong.sqlite")
    svc = TournamentService(db)
    made = svc.sessions.create_mahjong_event(name="Hands Open", sessions=2, hands_per_session=16)
    event_id = int(made["id"])
    for i in range(16):
        svc.entrants.add_player(f"M{i:02d}", event=event_id)
    with svc.store.sessions() as s:
        security.set_pin(s, event_id, PIN, time.time())
        s.commit()
    server = server_process(db)
    desk = Desk(server.url, event_id)
    desk.login()
    status, headers, _ = desk.request(
        "POST", f"/desk/{event_id}/sessions", {"method": "random", "csrf": desk.csrf}
    )
    assert status == 303, status
    round_id = _round_id(db, event_id)
    tables = [1, 2, 3, 4]
    acked = {t: 0 for t in tables}  # hands acknowledged per table
    pending: dict[int, int] = {}  # table -> the hand whose answer was lost (sent again)
    rng = random.Random(18)

    def enter(stop: threading.Event) -> None:
        order = [t for t in tables if acked[t] < 16]
        rng.shuffle(order)
        while not stop.is_set() and order:
            for table in list(order):
                if stop.is_set():
                    return
                number = pending.get(table, acked[table])
                if number >= 16:
                    order.remove(table)
                    continue
                form = {**hand_form(table, number), "version": number, "csrf": desk.csrf}
                path = f"/desk/{event_id}/sessions/1/tables/{table}/hand"
                try:
                    status = desk.request("POST", path, form)[0]
                except OSError:
                    pending[table] = number
                    return
                assert status == 303, (table, number, status)
                pending.pop(table, None)
                acked[table] = number + 1

    def check() -> None:
        sheets = stored_sheets(db, round_id)
        for table in tables:
            version, hands = sheets.get(table, (0, []))
            assert version == len(hands), (table, version, len(hands))
            assert acked[table] <= len(hands) <= acked[table] + 1, (table, acked[table], hands)
            assert hands == [expected_hand(table, n) for n in range(len(hands))], table

    _campaign(server, rng, enter, check)
    assert sum(acked.values()) >= KILLS, f"only {sum(acked.values())} hands acknowledged"
    server.start()
    for table, number in list(pending.items()):  # the last lost answers, sent again: once
        form = {**hand_form(table, number), "version": number, "csrf": desk.csrf}
        path = f"/desk/{event_id}/sessions/1/tables/{table}/hand"
        assert desk.request("POST", path, form)[0] == 303
        acked[table] = number + 1
    check()
    assert all(len(stored_sheets(db, round_id)[t][1]) == acked[t] for t in tables)


def _round_id(db: str, event_id: int) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "select id from tournament_rounds where event_id = ? and number = 1", (event_id,)
        ).fetchone()[0]
    finally:
        con.close()
