"""The demo event of `ball serve --demo`: a 4-player round robin under way (PIN 1234).

Seed data, not a request: it writes through `TournamentService` and, for the PIN and the
round's signals, through the modules that own those rows.
"""

from __future__ import annotations

import time

from ball.tournament import signals
from ball.tournament.names import name_key
from ball.tournament.service import TournamentService
from ball.web.core import security

DEMO_EVENT = "BALL Demo Open"
DEMO_PIN = "1234"
DEMO_PLAYERS = (
    ("Ana Petrova", "Sofia", "BUL", 1850),
    ("Kim Min-jun", "Seoul", "KOR", 1790),
    ("Georgi Ivanov", "Plovdiv", "BUL", 1720),
    ("Lee Seo-yeon", "Busan", "KOR", 1700),
)


def _demo_sheet(a: str, b: str, td1: str | None, td2: str | None, pb: list[int]) -> dict:
    # pb = [A atk, B atk] of half 1 then [B atk, A atk] of half 2; dual entry mirrors them.
    h1 = {a: {"atk": pb[0], "def": pb[1]}, b: {"atk": pb[1], "def": pb[0]}}
    h2 = {b: {"atk": pb[2], "def": pb[3]}, a: {"atk": pb[3], "def": pb[2]}}
    return {
        "coaches": [a, b],
        "halves": [
            {"atk_first": a, "td": td1, "pb": h1},
            {"atk_first": b, "td": td2, "pb": h2},
        ],
    }


def seed_demo_event(sessions) -> int:
    """A 4-player round robin for `ball serve --demo`: round 1 decided, round 2 under way
    (signal 1 given, one table finished its first half). PIN 1234. Idempotent."""
    svc = TournamentService.from_sessions(sessions.kw["bind"], sessions)
    for event in reversed(svc.desk.event_list()):  # oldest first
        if name_key(event.name) == name_key(DEMO_EVENT):  # its name is taken: that is the demo
            return event.id
    event_id = svc.events.create_event(
        name=DEMO_EVENT, system="round-robin", arbiter="demo", place="Demo hall"
    ).id
    for name, club, fed, rating in DEMO_PLAYERS:
        svc.entrants.add_player(name, club=club, federation=fed, rating=rating, event=event_id)
    tables = svc.rounds.pair_next_round(event=event_id)
    first = tables[0]
    svc.results.enter_result(
        1,
        1,
        sheet=_demo_sheet(first.a, first.b or "", first.a, None, [3, 0, 0, 2]),
        event=event_id,
    )
    svc.results.enter_result(1, 2, forfeit="B", event=event_id)
    svc.rounds.pair_next_round(event=event_id)
    now = time.time()
    with sessions() as session:
        security.set_pin(session, event_id, DEMO_PIN, now)
        gap = signals.gap_seconds(svc.events.event_game(event_id))
        signals.give_signal(session, event_id, 2, 1, now - 24 * 60, gap)
        signals.record_half_end(session, event_id, 2, 1, now - 3 * 60, "arbiter")
        session.commit()
    return event_id
