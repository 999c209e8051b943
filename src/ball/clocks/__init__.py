"""Clocks for BALL, Xiangqi and Mahjong tables.

- `ball.clocks.controls`: time controls as data (`controls/*.toml`), validated on load.
- `ball.clocks.events`: the logged events (kinds, fields, checks) and ClockRejected.
- `ball.clocks.state`: the clock's player and turn records, set-up, time left and views.
- `ball.clocks.clock`: the clock as a pure fold of its event log (flags, stages, overruns,
  penalty points and the Final Drive are computed, never typed in).
- `ball.clocks.store`: clocks and their event logs in the shared database, so a restart loses
  neither time nor events.
"""

from ball.clocks.clock import Clock, replay
from ball.clocks.controls import (
    ControlError,
    TimeControl,
    builtin_controls,
    get_control,
    parse_control,
)
from ball.clocks.events import ARBITER_KINDS, EVENT_KINDS, ClockEvent, ClockRejected

__all__ = [
    "ARBITER_KINDS",
    "EVENT_KINDS",
    "Clock",
    "ClockEvent",
    "ClockRejected",
    "ControlError",
    "TimeControl",
    "builtin_controls",
    "get_control",
    "parse_control",
    "replay",
]
