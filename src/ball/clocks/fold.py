"""The clock fold's state as a plain JSON document, so a clock resumes without a replay.

`ball.clocks.clock` computes a clock's state by folding its whole event log. A press at
1,000 events then replays 1,000 events (issue 15). `save(clock)` writes down what the fold
has reached — every attribute of the clock except its control (fixed), the events (only
counted) and the timeline (only its last clock notices kept, which is all a state view
shows) — and `resume(control, players, doc)` rebuilds a clock from it, on which the events
after it are then applied as usual. The log stays the authority: a snapshot is a cache of
the fold at one place in the log, and `tests/clocks/test_fold_snapshot.py` checks for random
logs of every kind of control that snapshot plus tail gives exactly the full fold's state.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ball.clocks.clock import Clock, restore_records
from ball.clocks.controls import TimeControl
from ball.half_timer import FinalDrive

FORMAT = 1  # bump when the saved attributes change: an unknown format is replayed instead
NOTICES_KEPT = 20  # `Clock.snapshot` shows the last 20 clock notices
# Attributes copied as they are (numbers, texts, None, lists of ints, the result object).
_PLAIN = (
    "status",
    "t",
    "period",
    "period_started_at",
    "period_paused",
    "paused_at",
    "first_of_period",
    "attack",
    "half_expired",
    "result",
)
_RECORDS = ("players", "turn", "final_drive")
_NOT_SAVED = ("control", "events", "timeline")


class SnapshotUnusable(ValueError):
    """A stored snapshot this code cannot resume from (another format); replay instead."""


def save(clock: Clock) -> dict[str, Any]:
    """The fold's state after the clock's events, as JSON-ready data. (Where in the log
    that is, the caller keeps: a resumed clock's `events` list holds only the tail.)"""
    unknown = set(vars(clock)) - set(_PLAIN) - set(_RECORDS) - set(_NOT_SAVED)
    if unknown:  # a new attribute must be saved too, or resumed clocks would drift
        raise TypeError(f"fold.save does not know clock attributes {sorted(unknown)}")
    notices = [e for e in clock.timeline if e["source"] == "clock"][-NOTICES_KEPT:]
    return {
        "format": FORMAT,
        "plain": {name: getattr(clock, name) for name in _PLAIN},
        "players": [asdict(p) for p in clock.players],
        "turn": None if clock.turn is None else asdict(clock.turn),
        "final_drive": None if clock.final_drive is None else asdict(clock.final_drive),
        "notices": notices,
    }


def resume(control: TimeControl, players: list[str], doc: dict[str, Any]) -> Clock:
    """A clock in the state `doc` was saved in; apply the later events to it as usual.

    Its timeline starts with the saved notices (the earlier history is only in a full
    replay), and its `events` list starts empty."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SnapshotUnusable("snapshot of another format")
    try:
        clock = Clock(control, players)
        for name in _PLAIN:
            setattr(clock, name, doc["plain"][name])
        restore_records(clock, doc["players"], doc["turn"])
        if len(clock.players) != len(players):
            raise SnapshotUnusable("snapshot of another number of players")
        drive = doc["final_drive"]
        clock.final_drive = None if drive is None else FinalDrive(**drive)
        clock.timeline = list(doc["notices"])
    except (KeyError, TypeError) as exc:
        raise SnapshotUnusable(f"snapshot unreadable: {exc}") from None
    return clock
