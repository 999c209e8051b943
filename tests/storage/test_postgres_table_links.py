"""The players' table links on PostgreSQL (issue 35 §1): an entry confirmed by the other
side is stored by itself when the event says so, read back by another process's service;
the desk's save racing the players' confirmation leaves one result and an entry whose state
says whose it is; a stranger's wrong links are throttled from the stored counts."""

from __future__ import annotations

import threading

from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError


def _event(url: str) -> tuple[TournamentService, int]:
    svc = TournamentService(url)
    event_id = svc.events.create_event(name="Links", system="round-robin").id
    for name in ("Ann", "Bo", "Cy", "Di"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    return svc, event_id


def _sheet(svc: TournamentService, event_id: int, table: int, winner_side: str) -> dict:
    t = svc.desk.table(event_id, 1, table)
    a, b = t.a.name, t.b.name
    td = a if winner_side == "A" else b
    return {
        "coaches": [a, b],
        "halves": [
            {"atk_first": a, "td": td, "pb": {a: {"atk": 3, "def": 2}, b: {"atk": 2, "def": 3}}},
            {"atk_first": b, "td": None, "pb": {a: {"atk": 1, "def": 4}, b: {"atk": 4, "def": 1}}},
        ],
    }


def test_a_confirmed_entry_is_stored_by_itself_and_read_back(fresh_postgres_url):
    svc, event_id = _event(fresh_postgres_url)
    svc.table_links.set_accepts_confirmed(event_id, True)
    links = svc.table_links.table_link_tokens(event_id, 1)[1]
    sheet = _sheet(svc, event_id, 1, "B")
    svc.table_links.enter_by_link(links["B"], sheet, {}, 1.0)
    svc.table_links.answer_by_link(links["A"], True, 2.0)
    other = TournamentService(fresh_postgres_url)
    assert other.desk.table(event_id, 1, 1).result["outcome"] == "B"
    assert other.table_links.player_entries(event_id, 1)[1].state == "accepted"
    assert other.table_links.open_table_link(links["A"]).closed == "result-in"


def test_the_desk_racing_a_confirmation_leaves_one_consistent_result(fresh_postgres_url):
    svc, event_id = _event(fresh_postgres_url)
    svc.table_links.set_accepts_confirmed(event_id, True)
    links = svc.table_links.table_link_tokens(event_id, 1)[2]
    players = _sheet(svc, event_id, 2, "A")
    desk = _sheet(svc, event_id, 2, "B")
    svc.table_links.enter_by_link(links["A"], players, {}, 1.0)
    start = threading.Barrier(2, timeout=60)
    errors: list[str] = []

    def confirm() -> None:
        start.wait()
        try:
            TournamentService(fresh_postgres_url).table_links.answer_by_link(links["B"], True, 2.0)
        except TournamentError as exc:
            errors.append(f"players: {exc}")

    def arbiter() -> None:
        start.wait()
        try:
            TournamentService(fresh_postgres_url).results.record_table_result(
                1, 2, sheet=desk, expected_version=0, event=event_id
            )
        except TournamentError as exc:
            errors.append(f"desk: {exc}")

    threads = [threading.Thread(target=confirm), threading.Thread(target=arbiter)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 1, errors  # whoever came second was refused
    result = svc.desk.table(event_id, 1, 2).result
    state = svc.table_links.player_entries(event_id, 1)[2].state
    if errors[0].startswith("players"):  # the desk's entry came first and wins
        assert (state, result["outcome"]) == ("replaced", "B")
    else:
        assert (state, result["outcome"]) == ("accepted", "A")


def test_wrong_links_are_counted_in_the_database(fresh_postgres_url):
    from sqlalchemy.orm import sessionmaker

    from ball.storage import open_database
    from ball.web.core.security import PinThrottle

    engine, sessions = open_database(fresh_postgres_url)
    try:
        throttle = PinThrottle(sessions, "table-link", event_cap=False)
        for _ in range(5):
            throttle.failed(0, "10.0.0.9", 100.0)
        again: sessionmaker = sessions
        assert PinThrottle(again, "table-link", event_cap=False).wait(0, "10.0.0.9", 101.0) > 0
        assert throttle.wait(0, "10.0.0.8", 101.0) == 0
    finally:
        engine.dispose()
