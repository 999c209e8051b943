"""The Mahjong seats' links (issue 35 §1, `ball.games.mahjong.tournament.seat_links`) on PostgreSQL:
one seat enters, another confirms, the desk approves through its own close; two seats
entering at once are serialised by the table's draft lock (one enters, the other
confirms or disputes it, never two entries); the arbiter's sheet settles the entry."""

from __future__ import annotations

import threading

import pytest

from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError

pytestmark = pytest.mark.postgres

TEMPLATE = "session,table,E,S,W,N\n1,1,1,2,3,4\n1,2,5,6,7,8\n"
HANDS = [{"winner": "S", "discarder": "E", "fan": 12}, {"draw": True}]  # S 36, E -20, W/N -8


def _event(url: str) -> TournamentService:
    svc = TournamentService(url)
    svc.sessions.create_mahjong_event(name="MJ", sessions=2, seed=5)
    for i in range(1, 9):
        svc.entrants.add_player(f"P{i}")
    svc.sessions.seat_session(template=TEMPLATE)
    return svc


def test_enter_confirm_approve_and_the_desks_sheet_on_postgres(fresh_postgres_url):
    svc = _event(fresh_postgres_url)
    tokens = svc.seat_links.seat_link_tokens(1, 1)
    assert sorted(tokens) == [1, 2]
    svc.seat_links.enter_by_seat_link(
        tokens[1]["W"], HANDS, {"E": -20, "S": 36, "W": -8, "N": -8}, {}, 1.0
    )
    with pytest.raises(TournamentError, match="another seat"):
        svc.seat_links.answer_by_seat_link(tokens[1]["W"], True, 2.0)  # not its own entry
    linked = svc.seat_links.answer_by_seat_link(tokens[1]["N"], True, 3.0)
    assert linked.entry is not None and linked.entry.state == "confirmed"
    svc.seat_links.approve_seat_entry(1, 1, 1, 4.0)
    assert svc.sessions.session_standings()["standings"][0]["name"] == "P2"
    assert svc.seat_links.open_seat_link(tokens[1]["E"]).closed == "result-in"
    # table 2: entered by a seat, then the arbiter's own sheet (the CLI's) wins
    svc.seat_links.enter_by_seat_link(tokens[2]["E"], HANDS, None, {}, 5.0)
    seats = {"E": "P5", "S": "P6", "W": "P7", "N": "P8"}
    svc.sessions.enter_session_sheet({"table": 2, "seats": seats, "hands": [{"draw": True}]})
    entry = svc.seat_links.seat_entries(1, 1)[2]
    assert (entry.state, entry.answered_by) == ("replaced", "desk")


def test_two_seats_entering_at_once_are_serialised(fresh_postgres_url):
    svc = _event(fresh_postgres_url)
    tokens = svc.seat_links.seat_link_tokens(1, 1)[1]
    writers = {w: TournamentService(fresh_postgres_url) for w in ("E", "S")}
    start = threading.Barrier(2, timeout=60)
    errors: list[BaseException] = []

    def enter(wind: str) -> None:
        start.wait()
        try:
            writers[wind].seat_links.enter_by_seat_link(tokens[wind], HANDS, None, {}, 1.0)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=enter, args=(w,)) for w in writers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    entry = svc.seat_links.seat_entries(1, 1)[1]
    # whichever came second found the first's entry and confirmed it (the same hands)
    assert entry.state == "confirmed" and {entry.side, entry.answered_by} == {"E", "S"}
