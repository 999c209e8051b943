"""One match of BALL: halves, time, sanctions, the result and game records."""

from ball.match.result import Decision, SheetError, decide

__all__ = ["Decision", "SheetError", "decide"]
