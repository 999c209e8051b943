"""An independent oracle for the search tests: exhaustive enumeration of one coach's turn.

`can_score(state, side)` tries every sequence of actions until the turn changes (both
coaches' decisions inside it, a steal decision included) and says whether `side` can end
it with a touchdown. It shares nothing with ball.games.ball.ai.mcts but the engine's `legal`/`play`.
"""

from __future__ import annotations

from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.resolve import play
from ball.games.ball.engine.state import OVER, State


def can_score(s: State, side: int) -> bool:
    turn, half = s.turn, s.half
    return _search(s, side, turn, half)


def _search(s: State, side: int, turn: int, half: int) -> bool:
    if s.phase == OVER:
        return s.score[side] > 0
    if s.turn != turn or s.half != half:
        return False
    for a in legal(s):
        c = s.copy()
        play(c, a, None)
        if _search(c, side, turn, half):
            return True
    return False
