"""A 16-player Mahjong event seated and with its first session entered through the service
(the public pages', the forms' and the browser test's data): one false win (WC 6, seed 003),
one dead hand (LS 4), one time penalty (TL 2) and table points with ties.

The event is built through the service once per test process (and `enter` value) and its
database file copied for each test: building it is ~0.2 s of CPU, a copy a few milliseconds,
and some thirty quick-lane tests ask for it. See docs/testing.md, "Fast lane"."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from typing import Any

from ball.tournament import TournamentService

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
    if os.path.exists(path) or not os.path.isdir(os.path.dirname(path) or "."):
        return _build_event(path, enter=enter)  # not a new file: as the service finds it
    template, event_id = _template(enter)
    shutil.copyfile(template, path)
    return TournamentService(path), event_id


_TEMPLATES: dict[bool, tuple[str, int]] = {}  # enter -> (database file, event id)


def _template(enter: bool) -> tuple[str, int]:
    """The event built once in this process, its WAL checkpointed into the file."""
    if enter not in _TEMPLATES:
        folder = tempfile.mkdtemp(prefix="mahjong-event-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = os.path.join(folder, "event.sqlite")
        svc, event_id = _build_event(path, enter=enter)
        svc.engine.dispose()  # closing the last connection checkpoints the WAL
        if os.path.exists(f"{path}-wal"):
            raise RuntimeError("the Mahjong event template's WAL was not checkpointed")
        _TEMPLATES[enter] = (path, event_id)
    return _TEMPLATES[enter]


def _build_event(path: str, *, enter: bool) -> tuple[TournamentService, int]:
    svc = TournamentService(path)
    event_id = svc.create_mahjong_event(
        name="MJ Open", sessions=4, seed=7, place="Seoul", arbiter="Ref Kim"
    )["id"]
    for i, name in enumerate(NAMES):
        svc.add_player(name, club=TEAMS[i % 4])
    seated = svc.seat_session()
    if enter:
        for table in seated["tables"]:
            sheet = {"table": table["table"], "seats": table["seats"]}
            svc.enter_session_sheet({**sheet, **hands_for(table["table"])})
    return svc, event_id
