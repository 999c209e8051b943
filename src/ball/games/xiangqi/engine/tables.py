"""Move tables per square, computed once at import (seed 2.2): where each kind may step from
each point, with the point that must be empty for the step (horse's leg, elephant's eye),
the palace and river limits, and the reverse tables the check test reads.
"""

from __future__ import annotations

from .board import SIZE, file_of, in_palace, on_board, own_half, rank_of, square

Steps = tuple[int, ...]
BlockedSteps = tuple[tuple[int, int], ...]  # (target, point that must be empty)

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _offset(sq: int, df: int, dr: int) -> int | None:
    f, r = file_of(sq) + df, rank_of(sq) + dr
    return square(f, r) if on_board(f, r) else None


def _palace_steps(sq: int, deltas: tuple[tuple[int, int], ...]) -> Steps:
    # King and advisor stay in the palace they stand in (seed 2.2.1, 2.2.2).
    out = []
    for df, dr in deltas:
        t = _offset(sq, df, dr)
        if t is not None and in_palace(t) and in_palace(sq) and own_half(t, 0) == own_half(sq, 0):
            out.append(t)
    return tuple(out)


def _elephant(sq: int) -> BlockedSteps:
    # Two points diagonally, never across the river, blocked by a piece on the eye (2.2.3).
    out = []
    for df, dr in DIAGONAL:
        t = _offset(sq, 2 * df, 2 * dr)
        if t is not None and own_half(t, 0) == own_half(sq, 0):
            eye = _offset(sq, df, dr)
            assert eye is not None
            out.append((t, eye))
    return tuple(out)


def _horse(sq: int) -> BlockedSteps:
    # One point straight then one diagonally outward; the straight point is the leg (2.2.4).
    out = []
    for df, dr in ORTHOGONAL:
        leg = _offset(sq, df, dr)
        if leg is None:
            continue
        for side in (-1, 1):
            t = _offset(sq, 2 * df + side * dr, 2 * dr + side * df)
            if t is not None:
                out.append((t, leg))
    return tuple(out)


def _ray(sq: int, df: int, dr: int) -> Steps:
    out = []
    t = _offset(sq, df, dr)
    while t is not None:
        out.append(t)
        t = _offset(t, df, dr)
    return tuple(out)


def _pawn(sq: int, side: int) -> Steps:
    # Forward one point; after crossing the river also sideways; never backward (2.2.7).
    forward = 1 if side == 0 else -1
    out = []
    t = _offset(sq, 0, forward)
    if t is not None:
        out.append(t)
    if not own_half(sq, side):
        for df in (-1, 1):
            t = _offset(sq, df, 0)
            if t is not None:
                out.append(t)
    return tuple(out)


KING_STEPS: tuple[Steps, ...] = tuple(_palace_steps(s, ORTHOGONAL) for s in range(SIZE))
ADVISOR_STEPS: tuple[Steps, ...] = tuple(_palace_steps(s, DIAGONAL) for s in range(SIZE))
ELEPHANT_STEPS: tuple[BlockedSteps, ...] = tuple(_elephant(s) for s in range(SIZE))
HORSE_STEPS: tuple[BlockedSteps, ...] = tuple(_horse(s) for s in range(SIZE))
RAYS: tuple[tuple[Steps, ...], ...] = tuple(
    tuple(r for r in (_ray(s, df, dr) for df, dr in ORTHOGONAL) if r) for s in range(SIZE)
)
PAWN_STEPS: tuple[tuple[Steps, ...], ...] = tuple(
    tuple(_pawn(s, side) for s in range(SIZE)) for side in (0, 1)
)


def _reverse_horse() -> tuple[BlockedSteps, ...]:
    # HORSE_ATTACKERS[t]: (horse square, its leg) for every horse that could step onto t.
    table: list[list[tuple[int, int]]] = [[] for _ in range(SIZE)]
    for h in range(SIZE):
        for t, leg in HORSE_STEPS[h]:
            table[t].append((h, leg))
    return tuple(tuple(x) for x in table)


def _reverse_pawn(side: int) -> tuple[Steps, ...]:
    table: list[list[int]] = [[] for _ in range(SIZE)]
    for p in range(SIZE):
        for t in PAWN_STEPS[side][p]:
            table[t].append(p)
    return tuple(tuple(x) for x in table)


HORSE_ATTACKERS = _reverse_horse()
PAWN_ATTACKERS: tuple[tuple[Steps, ...], ...] = (_reverse_pawn(0), _reverse_pawn(1))


def _ray_through() -> list[Steps | None]:
    # RAY_THROUGH[k * 90 + s]: the ray from k (outward) that passes s, or None. A move from
    # or to s can only change what reaches a king on k along that one ray (a rook or the
    # other king uncovered, a cannon screen removed or added).
    table: list[Steps | None] = [None] * (SIZE * SIZE)
    for k in range(SIZE):
        for ray in RAYS[k]:
            for s in ray:
                table[k * SIZE + s] = ray
    return table


def _leg_horses() -> list[Steps]:
    # LEG_HORSES[k * 90 + leg]: squares of horses that would attack k once `leg` is empty.
    table: list[list[int]] = [[] for _ in range(SIZE * SIZE)]
    for k in range(SIZE):
        for h, leg in HORSE_ATTACKERS[k]:
            table[k * SIZE + leg].append(h)
    return [tuple(x) for x in table]


RAY_THROUGH = _ray_through()
LEG_HORSES = _leg_horses()
