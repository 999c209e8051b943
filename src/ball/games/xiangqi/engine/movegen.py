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
    LEG_HORSES,
    PAWN_ATTACKERS,
    PAWN_STEPS,
    RAY_THROUGH,
    RAYS,
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


EMPTY = 90  # index of the always-empty point after the board: the "block" of unblocked steps


def work_board(board: tuple[int, ...] | list[int]) -> Board:
    """A mutable copy for the generator: the 90 points plus the always-empty point EMPTY."""
    return [*board, 0]


def _step_table(code: int) -> tuple[tuple[tuple[int, int, int], ...], ...] | None:
    # For each from-point: (to, point that must be empty, move code). Steps that nothing can
    # block name EMPTY, so every stepping piece runs the same loop. None for rook and cannon.
    kind, side = code & 7, 1 if code & BLACK_BIT else 0
    if kind in (ROOK, CANNON) or kind not in (KING, ADVISOR, ELEPHANT, HORSE, PAWN):
        return None
    rows = []
    for f in range(90):
        if kind == HORSE:
            steps = HORSE_STEPS[f]
        elif kind == ELEPHANT:
            steps = ELEPHANT_STEPS[f]
        else:
            plain = {KING: KING_STEPS, ADVISOR: ADVISOR_STEPS}.get(kind) or PAWN_STEPS[side]
            steps = tuple((t, EMPTY) for t in plain[f])
        rows.append(tuple((t, block, f << 7 | t) for t, block in steps))
    return tuple(rows)


STEP_TABLES = tuple(_step_table(code) for code in range(16))


def pseudo_moves(b: Board, side: int) -> list[int]:
    """Every move that obeys the pieces' movement (2.2) and capture (2.3) rules, checks aside.

    `b` is a work board (see `work_board`)."""
    ok = TARGET_OK[side]
    bit = BLACK_BIT if side else 0
    out: list[int] = []
    append = out.append
    for f in range(90):
        c = b[f]
        if not c or (c & BLACK_BIT) != bit:
            continue
        table = STEP_TABLES[c]
        if table is not None:
            for t, block, m in table[f]:
                if not b[block] and ok[b[t]]:
                    append(m)
        elif c & 7 == ROOK:
            _slides(b, f, ok, out)
        else:
            _cannon(b, f, ok, out)
    return out


def _ray_attacks(b: Board, ray: tuple[int, ...], rook: int, cannon: int, king: int) -> bool:
    """Does an enemy rook or king (first piece) or cannon (second piece) stand on `ray`?"""
    screened = False
    for t in ray:
        c = b[t]
        if c:
            if screened:
                return c == cannon
            if c == rook or c == king:  # noqa: SIM109 (no tuple built in the hot loop)
                return True
            screened = True
    return False


def legal_moves(b: Board, side: int, king: int) -> list[int]:
    """The legal move codes of `side` whose king stands on `king` (b is restored on return).

    Out of check, a move by another piece can expose the king only along the ray from the
    king through its from- or to-point, or by emptying the leg of a horse aimed at the king,
    so only those are tested; king moves and every move in check get the full test.
    """
    pseudo = pseudo_moves(b, side)
    out: list[int] = []
    if king_attacked(b, king, side):
        for m in pseudo:
            f = m >> 7
            t = m & 127
            piece = b[f]
            captured = b[t]
            b[t] = piece
            b[f] = 0
            if not king_attacked(b, t if f == king else king, side):
                out.append(m)
            b[f] = piece
            b[t] = captured
        return out
    e = 0 if side else BLACK_BIT
    rook, cannon, eking, horse = ROOK | e, CANNON | e, KING | e, HORSE | e
    base = king * 90
    for m in pseudo:
        f = m >> 7
        t = m & 127
        if f == king:
            captured = b[t]
            b[t] = b[f]
            b[f] = 0
            if not king_attacked(b, t, side):
                out.append(m)
            b[f] = b[t]
            b[t] = captured
            continue
        ray_f = RAY_THROUGH[base + f]
        ray_t = RAY_THROUGH[base + t]
        legs = LEG_HORSES[base + f]
        if ray_f is None and ray_t is None and not legs:
            out.append(m)
            continue
        piece = b[f]
        captured = b[t]
        b[t] = piece
        b[f] = 0
        exposed = (
            (ray_f is not None and _ray_attacks(b, ray_f, rook, cannon, eking))
            or (
                ray_t is not None
                and ray_t is not ray_f
                and _ray_attacks(b, ray_t, rook, cannon, eking)
            )
            or (legs and any(b[h] == horse for h in legs))
        )
        b[f] = piece
        b[t] = captured
        if not exposed:
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
