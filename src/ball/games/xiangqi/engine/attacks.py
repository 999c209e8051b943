"""Who attacks a point: every piece of a colour that could move there by its movement rules
(seed 2.2–2.3), and the facing-kings test (flying general, 4.1.2). Pins are not considered.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import ADVISOR, BLACK_BIT, CANNON, ELEPHANT, FILES, HORSE, KING, PAWN, ROOK
from .tables import (
    ADVISOR_STEPS,
    ELEPHANT_STEPS,
    HORSE_ATTACKERS,
    KING_STEPS,
    PAWN_ATTACKERS,
    RAYS,
)


def kings_face(board: Sequence[int], red_king: int, black_king: int) -> bool:
    """Do the two kings stand on one file with no piece between them?"""
    if red_king % FILES != black_king % FILES:
        return False
    low, high = sorted((red_king, black_king))
    return not any(board[s] for s in range(low + FILES, high, FILES))


def _ray_attackers(board: Sequence[int], sq: int, bit: int) -> list[int]:
    out = []
    for ray in RAYS[sq]:
        seen = 0
        for t in ray:
            c = board[t]
            if not c:
                continue
            seen += 1
            if (seen == 1 and c == ROOK | bit) or (seen == 2 and c == CANNON | bit):
                out.append(t)
            if seen == 1 and c == KING | bit and board[sq] == KING | (bit ^ BLACK_BIT):
                out.append(t)  # the flying general: facing kings "attack" each other
            if seen == 2:
                break
    return out


def attackers_of(board: Sequence[int], sq: int, side: int) -> list[int]:
    """Sorted squares of `side`'s pieces that could move to `sq`."""
    bit = BLACK_BIT if side else 0
    out = _ray_attackers(board, sq, bit)
    out += [h for h, leg in HORSE_ATTACKERS[sq] if board[h] == HORSE | bit and not board[leg]]
    out += [p for p in PAWN_ATTACKERS[side][sq] if board[p] == PAWN | bit]
    out += [e for e, eye in ELEPHANT_STEPS[sq] if board[e] == ELEPHANT | bit and not board[eye]]
    out += [a for a in ADVISOR_STEPS[sq] if board[a] == ADVISOR | bit]
    out += [k for k in KING_STEPS[sq] if board[k] == KING | bit]
    return sorted(set(out))
