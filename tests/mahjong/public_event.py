"""A 16-player Mahjong event seated and with its first session entered through the service
(the public pages', the forms' and the browser test's data): one false win (WC 6, seed 003),
one dead hand (LS 4), one time penalty (TL 2) and table points with ties.

The event is built once per test process and its database file copied for each test
(tests/built_once.py)."""

from __future__ import annotations

from typing import Any

from ball.tournament import TournamentService
from built_once import copy_of_built

# Accented, Cyrillic and Hangul names: "find my table" ignores case and accents.
NAMES = [
    "Zoë Ångström", "Chloé Dubois", "Иван Петров", "김민준",
    *(f"Player {i:02d}" for i in range(5, 17)),
]  # fmt: skip
TEAMS = ["Lions", "Tigers", "Cranes", "Dragons"]


def hands_for(table: int) -> dict[str, Any]:
    """Table 1: a win on a discard and a false win; 2: draws only (a four-way tie);
    3: a self-drawn win, a dead hand and a turn overrun; 4: a win on a discard (a tie for
    second place)."""
    if table == 1:
        return {
            "hands": [{"winner": "E", "discarder": "S", "fan": 8}, {"draw": True}],
            "penalties": [{"hand": 2, "seat": "N", "kind": "false-win", "at": "10:42"}],
        }
    if table == 2:
        return {"hands": [{"draw": True}, {"draw": True}]}
    if table == 3:
        return {
            "hands": [{"winner": "W", "fan": 10}, {"draw": True}],
            "penalties": [{"hand": 1, "seat": "S", "kind": "long-hand", "at": "10:15"}],
            "time_penalties": [
                {"hand": 2, "seat": "E", "at": "10:30", "over_seconds": 20, "limit": "turn"}
            ],
        }
    return {"hands": [{"winner": "S", "discarder": "N", "fan": 12}]}


def make_event(path: str, *, enter: bool = True) -> tuple[TournamentService, int]:
    """The event in a new database at `path`: 16 players in four teams, 4 sessions, the first
    seated and (with `enter`) its four sheets entered."""
    event_id = copy_of_built(path, _built_event, enter)
    return TournamentService(path), event_id


def _built_event(path: str, enter: bool) -> int:
    svc = TournamentService(path)
    event_id = svc.sessions.create_mahjong_event(
        name="MJ Open", sessions=4, seed=7, place="Seoul", arbiter="Ref Kim"
    )["id"]
    for i, name in enumerate(NAMES):
        svc.entrants.add_player(name, club=TEAMS[i % 4])
    seated = svc.sessions.seat_session()
    if enter:
        for table in seated["tables"]:
            sheet = {"table": table["table"], "seats": table["seats"]}
            svc.sessions.enter_session_sheet({**sheet, **hands_for(table["table"])})
    svc.engine.dispose()
    return event_id
