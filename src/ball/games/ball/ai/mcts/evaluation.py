"""The static evaluation the search stands on: how good a state is for side S, in [0, 1].

It reads the ball (who holds it and how far the carrier is from its end zone, with extra
weight on the last rows), the threats on the carrier (active opposing pieces within two
squares, i.e. able to dodge, tackle or block it), a free ball's worth to the side nearer
to it, knocked-down pieces, the ATK role and PB (the side's SD, which decides a 0-0 match,
R-result). The figures are `Weights` from levels.toml. A finished half is exact: 1 if S
scored, 0 if N did.
"""

from __future__ import annotations

import math

from ball.games.ball.engine.board import COLUMNS, ROWS, SIZE
from ball.games.ball.engine.state import ACTIVE, DOWN, OVER, STEAL, State

from .levels import Weights

# D-02 distance between every two squares, one row of the table per square: the evaluation
# runs on every child of every expanded node, so it reads tables instead of computing.
DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        max(abs(a % COLUMNS - b % COLUMNS), abs(a // COLUMNS - b // COLUMNS)) for b in range(SIZE)
    )
    for a in range(SIZE)
)


def score_for(s: State, side: int, w: Weights) -> float:
    """The evaluation of `s` for `side`, in evaluation points (0 is even)."""
    other = 1 - side
    value = w.touchdown * (s.score[side] - s.score[other])
    value += _ball_terms(s, side, w)
    st = s.st
    n = s.t.n
    # range(...) rather than s.pieces_of(...): a literal range is a native loop when compiled
    for i in range(other * n, other * n + n):
        if st[i] == DOWN:
            value += w.down
    for i in range(side * n, side * n + n):
        if st[i] == DOWN:
            value -= w.down
    if s.attack == side and s.phase != STEAL:
        value += w.attack_role
    pb = s.pb  # S atk, S def, N atk, N def
    sd = (pb[1] - pb[0]) if side == 0 else (pb[3] - pb[2])
    value += w.pb * sd
    return value


def _ball_terms(s: State, side: int, w: Weights) -> float:
    carrier = s.carrier
    if carrier >= 0:
        holder = s.side_of(carrier)
        v = _held(s, holder, s.pos[carrier], w)
        return v if holder == side else -v
    if s.ball_sq >= 0:
        # A free ball is worth a share of holding it, to the side that reaches it first
        # (the side to move on equal distance): a pass toward the end zone is progress.
        near_s, near_n = _nearest(s, 0), _nearest(s, 1)
        owner = 0 if near_s < near_n or (near_s == near_n and s.to_move == 0) else 1
        v = w.free_share * _held(s, owner, s.ball_sq, w)
        return v if owner == side else -v
    return 0.0


def _held(s: State, holder: int, sq: int, w: Weights) -> float:
    """The worth to `holder` of the ball on `sq`: progress, the last rows, threats on it."""
    row = sq // COLUMNS
    progress = row if holder == 0 else ROWS - 1 - row
    near = max(0, progress - (ROWS - 1 - w.near_rows))
    threats = 0
    st, pos, dist = s.st, s.pos, DIST[sq]
    n, other = s.t.n, 1 - holder
    for i in range(other * n, other * n + n):
        if st[i] == ACTIVE and dist[pos[i]] <= 2:
            threats += 1
    return w.possession + w.progress * progress + w.near_zone * near - w.threat * threats


def _nearest(s: State, side: int) -> int:
    best = ROWS
    st, pos, dist = s.st, s.pos, DIST[s.ball_sq]
    n = s.t.n
    for i in range(side * n, side * n + n):
        if st[i] == ACTIVE and dist[pos[i]] < best:
            best = dist[pos[i]]
    return best


def value_s(s: State, w: Weights) -> float:
    """Win probability for S: exact when the half is over, else a logistic of the score."""
    if s.phase == OVER and s.score[0] != s.score[1]:
        return 1.0 if s.score[0] > s.score[1] else 0.0
    x = score_for(s, 0, w) / w.scale
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))
