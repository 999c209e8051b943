"""Move ordering without making the moves: a cheap prior per action, from its tuple alone.

Expanding a node used to make, evaluate and take back every child, yet only a few percent
of them were ever selected. The search now orders a node's actions by these priors and
evaluates a child only when progressive widening admits it (`ball.games.ball.ai.mcts.search`).

A prior reads the action's kind and squares against the state before it: the carrier's
progress toward its end zone, a free ball taken, knockdowns and blocks (most of all on the
opposing carrier), passes by the rows they gain, other pieces closing in on the ball; PE
and END come last. The one exact look-ahead kept is the touchdown: an action that lands
in the actor's end zone is made and taken back, and one that scores is put first
(`scoring`), so a touchdown available now is always found.
"""

from __future__ import annotations

import random

from ball.games.ball.engine.actions import (
    DODGE,
    END,
    HANDOFF,
    LONG,
    MOVE,
    PE,
    SHORT,
    TDODGE,
    Action,
)
from ball.games.ball.engine.board import COLUMNS, ROWS, SIZE
from ball.games.ball.engine.state import OVER, STEAL, State
from ball.games.ball.engine.undo import make, unmake

from .evaluation import DIST

# Prior points (only their order matters): a touchdown, then taking or winning the ball.
SCORES = 1e9
TAKE_BALL = 60.0
HIT_CARRIER = 60.0
KNOCKDOWN = 25.0
BLOCK = 20.0
PROTECT = 2.0
CARRIER_ROW = 10.0  # per row the carrier gains
PASS_ROW = 6.0  # per row the ball gains in the air
SHORT_RISK = 5.0  # a loose ball can be taken by either side
LONG_RISK = 15.0
CLOSER = 3.0  # per square a piece comes nearer to the ball
PE_PRIOR = -5.0
END_PRIOR = -100.0


def actor_of(s: State) -> int:
    """The side that decides now: the stealer during a steal decision, else the side to move."""
    return s.steal_by if s.phase == STEAL else s.to_move


# RANK[side][sq]: how far `sq` is from `side`'s own end (S scores on the last row, N on the
# first); read for every action of every new node, so a table.
RANK: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(sq // COLUMNS for sq in range(SIZE)),
    tuple(ROWS - 1 - sq // COLUMNS for sq in range(SIZE)),
)


def _rows(sq: int, side: int) -> int:
    return RANK[side][sq]


def prior(s: State, a: Action, side: int) -> float:
    """Prior points of action `a` for `side`, the actor (higher first)."""
    kind = a[0]
    if kind == END:
        return END_PRIOR
    if kind == PE:
        return PE_PRIOR
    if kind not in (MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG):
        return 0.0  # release tasks, steal decisions, cards: few, and widening reaches them
    origin = a[1]
    occ, carrier = s.occ, s.carrier
    n = s.t.n
    i = occ[origin]
    if kind == MOVE:
        to = a[2]
        o = occ[to]
        if o >= 0:
            if o // n == side:
                return PROTECT
            return BLOCK + (HIT_CARRIER if o == carrier else 0.0)
        return _arrival(s, i, origin, to, side)
    if kind == DODGE:
        victim = occ[a[2]]
        hit = KNOCKDOWN + (HIT_CARRIER if victim == carrier else 0.0)
        return hit + _arrival(s, i, origin, a[3], side)
    if kind == TDODGE:
        victim = occ[(origin + a[2]) // 2]
        hit = KNOCKDOWN + (HIT_CARRIER if victim == carrier else 0.0)
        return hit + _arrival(s, i, origin, a[2], side)
    if kind == HANDOFF:
        return CARRIER_ROW * (_rows(a[2], side) - _rows(origin, side))
    if kind == SHORT:
        return PASS_ROW * (_rows(a[3], side) - _rows(origin, side)) - SHORT_RISK
    return PASS_ROW * (_rows(a[2], side) - _rows(origin, side)) - LONG_RISK


def _arrival(s: State, i: int, origin: int, to: int, side: int) -> float:
    """A piece `i` going from `origin` to the empty square `to`."""
    if i == s.carrier:
        return CARRIER_ROW * (_rows(to, side) - _rows(origin, side))
    ball = s.ball_sq if s.carrier < 0 else s.pos[s.carrier]
    if ball < 0:
        return 0.0
    if to == ball:
        return TAKE_BALL
    return CLOSER * (DIST[origin][ball] - DIST[to][ball])


def scoring(s: State, a: Action, side: int) -> bool:
    """Whether `a` scores a touchdown for `side` now. Only an action whose landing square is
    in `side`'s end zone can, so only those are made (and taken back)."""
    kind = a[0]
    if kind in (MOVE, HANDOFF, TDODGE):
        land = a[2]
    elif kind == DODGE:
        land = a[3]
    else:
        return False
    if land not in s.t.zone[side]:
        return False
    before = s.score[side]
    undo = make(s, a)
    scored = s.phase == OVER and s.score[side] > before
    unmake(s, undo)
    return scored


def ordered_actions(
    s: State, actions: list[Action], rng: random.Random
) -> tuple[list[Action], bool]:
    """`actions` best first for the actor by prior, and whether the first one scores a
    touchdown for the actor (a won node). Ties are broken by a seeded shuffle, so each
    seed plays a game of its own."""
    side = actor_of(s)
    rng.shuffle(actions)
    zone = s.t.zone[side]
    rank = RANK[side]
    occ, carrier, dist = s.occ, s.carrier, DIST
    ball = s.ball_sq if carrier < 0 else s.pos[carrier]
    keyed: list[tuple[float, Action]] = []
    wins = False
    for a in actions:
        kind = a[0]
        if kind == LONG:  # the commonest kinds, inlined: see `prior` for the rules
            keyed.append((PASS_ROW * (rank[a[2]] - rank[a[1]]) - LONG_RISK, a))
            continue
        if (
            kind == MOVE and occ[a[2]] < 0 and a[2] not in zone and ball >= 0
            and occ[a[1]] != carrier and a[2] != ball
        ):  # fmt: skip
            keyed.append((CLOSER * (dist[a[1]][ball] - dist[a[2]][ball]), a))
            continue
        # only an action landing in the end zone can score (see `scoring`)
        land = a[3] if kind == DODGE else a[2] if kind in (MOVE, HANDOFF, TDODGE) else -1
        if land in zone and scoring(s, a, side):
            keyed.append((SCORES, a))
            wins = True
        else:
            keyed.append((prior(s, a, side), a))
    keyed.sort(key=_first, reverse=True)  # stable: equal priors keep the shuffled order
    return [a for _, a in keyed], wins


def _first(item: tuple[float, Action]) -> float:
    return item[0]
