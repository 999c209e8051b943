"""Move generation and the check test on a flat board (seed 2.2–2.3, 3.1, 4.1.2).

Boards here are mutable lists of 90 piece codes (see `board`); a move is the int code
`from << 7 | to`. Legal moves are the pseudo-legal ones (table steps with their blocks) that
do not leave the mover's king attacked, found by making the move on the list, testing the
one king square and unmaking it. The facing kings (flying general) are tested as an attack
of the enemy king along the file, so a move that opens the file between the kings, or a king
step onto an open file facing the other king, is illegal like any self-check.
"""

from __future__ import annotations

from .board import ADVISOR, BLACK_BIT, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK
from .tables import (
    ADVISOR_STEPS,
    ELEPHANT_STEPS,
    HORSE_ATTACKERS,
    HORSE_STEPS,
    KING_STEPS,
    PAWN_ATTACKERS,
    PAWN_STEPS,
    RAYS,
    SENSITIVE,
)

Board = list[int]

# TARGET_OK[side][code]: may a piece of `side` move onto a point holding `code`?
TARGET_OK: tuple[tuple[bool, ...], ...] = tuple(
    tuple(code == 0 or bool(code & BLACK_BIT) != (side == 1) for code in range(16))
    for side in (0, 1)
)


def king_attacked(b: Board, k: int, side: int) -> bool:
    """Is the point `k` (where `side`'s king stands or would stand) attacked by the enemy?"""
    e = 0 if side else BLACK_BIT
    rook, cannon, king = ROOK | e, CANNON | e, KING | e
    for ray in RAYS[k]:
        screened = False
        for t in ray:
            c = b[t]
            if c:
                if screened:
                    if c == cannon:
                        return True
                    break
                if c == rook or c == king:  # noqa: SIM109 (no tuple built in the hot loop)
                    return True
                screened = True
    horse = HORSE | e
    for h, leg in HORSE_ATTACKERS[k]:
        if b[h] == horse and not b[leg]:
            return True
    pawn = PAWN | e
    return any(b[p] == pawn for p in PAWN_ATTACKERS[1 - side][k])


def _slides(b: Board, f: int, ok: tuple[bool, ...], out: list[int]) -> None:
    base = f << 7
    for ray in RAYS[f]:
        for t in ray:
            c = b[t]
            if c:
                if ok[c]:
                    out.append(base | t)
                break
            out.append(base | t)


def _cannon(b: Board, f: int, ok: tuple[bool, ...], out: list[int]) -> None:
    # Moves like a rook without capturing; captures only by jumping exactly one screen (2.3).
    base = f << 7
    for ray in RAYS[f]:
        screened = False
        for t in ray:
            c = b[t]
            if screened:
                if c:
                    if ok[c]:
                        out.append(base | t)
                    break
            elif c:
                screened = True
            else:
                out.append(base | t)


def pseudo_moves(b: Board, side: int) -> list[int]:
    """Every move that obeys the pieces' movement (2.2) and capture (2.3) rules, checks aside."""
    ok = TARGET_OK[side]
    bit = BLACK_BIT if side else 0
    out: list[int] = []
    for f in range(90):
        c = b[f]
        if not c or (c & BLACK_BIT) != bit:
            continue
        kind = c & 7
        base = f << 7
        if kind == ROOK:
            _slides(b, f, ok, out)
        elif kind == CANNON:
            _cannon(b, f, ok, out)
        elif kind == HORSE:
            out.extend(base | t for t, leg in HORSE_STEPS[f] if not b[leg] and ok[b[t]])
        elif kind == PAWN:
            out.extend(base | t for t in PAWN_STEPS[side][f] if ok[b[t]])
        elif kind == ELEPHANT:
            out.extend(base | t for t, eye in ELEPHANT_STEPS[f] if not b[eye] and ok[b[t]])
        elif kind == ADVISOR:
            out.extend(base | t for t in ADVISOR_STEPS[f] if ok[b[t]])
        else:
            out.extend(base | t for t in KING_STEPS[f] if ok[b[t]])
    return out


def legal_moves(b: Board, side: int, king: int) -> list[int]:
    """The legal move codes of `side` whose king stands on `king` (b is restored on return)."""
    in_check = king_attacked(b, king, side)
    sensitive = SENSITIVE[king]
    out: list[int] = []
    for m in pseudo_moves(b, side):
        f = m >> 7
        t = m & 127
        if not in_check and f != king and not sensitive[f] and not sensitive[t]:
            out.append(m)
            continue
        piece = b[f]
        captured = b[t]
        b[t] = piece
        b[f] = 0
        safe = not king_attacked(b, t if f == king else king, side)
        b[f] = piece
        b[t] = captured
        if safe:
            out.append(m)
    return out


def perft_count(b: Board, side: int, kings: list[int], depth: int) -> int:
    """Leaf count of the legal move tree below this position (bulk-counted at depth 1)."""
    if depth <= 0:
        return 1
    moves = legal_moves(b, side, kings[side])
    if depth == 1:
        return len(moves)
    total = 0
    other = 1 - side
    king = kings[side]
    for m in moves:
        f = m >> 7
        t = m & 127
        piece = b[f]
        captured = b[t]
        b[t] = piece
        b[f] = 0
        if f == king:
            kings[side] = t
            total += perft_count(b, other, kings, depth - 1)
            kings[side] = f
        else:
            total += perft_count(b, other, kings, depth - 1)
        b[f] = piece
        b[t] = captured
    return total
