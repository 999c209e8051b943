"""The one error type of the Xiangqi engine: every fault in a FEN, a move or a rules file."""

from __future__ import annotations


class XiangqiError(ValueError):
    """Bad input for the Xiangqi engine; the message names what was wrong."""
