"""One match of BALL: halves, time, sanctions, the result and game records.

- `decide(sheet) -> Decision` (result.py): the result of an arbiter's score sheet.
- `Match` (flow.py): two halves over the engine, with time, sanctions and forfeits.
- `parse`/`write` (record.py) and `replay_record` (replay.py): BALL game notation (.bgn);
  `ball.match.replay` also has the step-by-step API for viewers.
"""

from ball.match.flow import Match, MatchError
from ball.match.record import GameRecord, RecordError, parse, write
from ball.match.replay import replay as replay_record
from ball.match.replay import replay_text
from ball.match.result import Decision, SheetError, decide
from ball.match.timing import ManualClock, SystemClock, Timing, load_timing

__all__ = [
    "Decision",
    "GameRecord",
    "ManualClock",
    "Match",
    "MatchError",
    "RecordError",
    "SheetError",
    "SystemClock",
    "Timing",
    "decide",
    "load_timing",
    "parse",
    "replay_record",
    "replay_text",
    "write",
]
