"""The playout policy: what the search looks at below a new leaf, and in what order.

BALL's random playouts are long and say little (a half of random play rarely scores), so a
leaf is judged by a one-action look-ahead instead: every legal action of the leaf is made,
the resulting state evaluated and the action taken back (`ball.engine.undo`: cheaper than a
copy of the state per action). Those values are the children's priors; sorted
best first (for the coach who acts) they are the move ordering that progressive widening
consumes, and the best of them is the leaf's value. Ties are broken by a seeded shuffle.
"""

from __future__ import annotations

import random

from ball.engine.actions import END, Action
from ball.engine.generate import legal
from ball.engine.state import OVER, STEAL, State
from ball.engine.undo import make, unmake

from .evaluation import value_s
from .levels import Weights

# Ending the action phase early is rarely right; a hair of penalty keeps it behind an equal
# action that does something (the greedy player does the same).
END_PENALTY = 1e-4


def actor_of(s: State) -> int:
    """The side that decides now: the stealer during a steal decision, else the side to move."""
    return s.steal_by if s.phase == STEAL else s.to_move


def ordered_children(s: State, w: Weights, rng: random.Random) -> list[tuple[Action, float, bool]]:
    """Every legal action with its prior (S's win probability after it) and whether it ends
    the half, best first for the actor."""
    actor = actor_of(s)
    actions = legal(s)
    rng.shuffle(actions)
    out: list[tuple[Action, float, bool]] = []
    for a in actions:
        undo = make(s, a)
        v = value_s(s, w)
        over = s.phase == OVER
        unmake(s, undo)
        if a[0] == END:
            v += -END_PENALTY if actor == 0 else END_PENALTY
        out.append((a, v, over))
    out.sort(key=lambda item: -item[1] if actor == 0 else item[1])
    return out
