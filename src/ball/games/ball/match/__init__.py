"""One match of BALL: halves, time, sanctions, the result and game records.

- `decide(sheet) -> Decision` (result.py): the result of an arbiter's score sheet.
- `Match` (flow.py): two halves over the engine, with time, sanctions and forfeits.
- `parse` (record.py, which also writes) and `replay_record` (replay.py): BALL game
  notation (.bgn); `ball.games.ball.match.replay` also has the step-by-step API for viewers.

The names below are loaded on first use (PEP 562 `__getattr__`), not when the package is:
the tournament's results and standings need only `result` and `sanctions`, and importing
`flow` would import the whole rules engine into every `ball result enter` and `ball
standings` (issue 15, target 1).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ball.games.ball.match.flow import Match, MatchError
    from ball.games.ball.match.record import parse
    from ball.games.ball.match.replay import replay as replay_record
    from ball.games.ball.match.result import SheetError, decide
    from ball.games.ball.match.timing import Timing, load_timing

# Public name -> (submodule, its name there).
_LAZY: dict[str, tuple[str, str]] = {
    "Match": ("flow", "Match"),
    "MatchError": ("flow", "MatchError"),
    "SheetError": ("result", "SheetError"),
    "Timing": ("timing", "Timing"),
    "decide": ("result", "decide"),
    "load_timing": ("timing", "load_timing"),
    "parse": ("record", "parse"),
    "replay_record": ("replay", "replay"),
}

__all__ = [
    "Match",
    "MatchError",
    "SheetError",
    "Timing",
    "decide",
    "load_timing",
    "parse",
    "replay_record",
]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'ball.games.ball.match' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"ball.games.ball.match.{module}"), attr)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
