"""Why a piece cannot act, or a move is refused, in one line a player understands.

Legality is decided only by `Position.legal_codes()`; this module runs after a refusal (a
tap on the board that did nothing) and names the most specific rule: the horse is hobbled,
the elephant's eye is blocked, the generals would face each other, the move leaves the
mover's general in check, …

Each answer is a `Refusal`: a stable `code` a page turns into a translated sentence (the
codes are the keys of `REASONS`), the piece it is about, and the same sentence in English.

    from ball.games.xiangqi.engine.explain import why_not
    why_not(position, "b0", "b3").code   # "shape": the horse does not move that way
    why_not(position, "b9")              # Black's piece while Red is to move: "not-yours"
"""

from __future__ import annotations

from dataclasses import dataclass

from .attacks import kings_face
from .board import (
    ADVISOR,
    BLACK_BIT,
    CANNON,
    COLORS,
    ELEPHANT,
    HORSE,
    KIND_OF_CODE,
    KING,
    PAWN,
    ROOK,
    in_palace,
    own_half,
    parse_square,
)
from .errors import XiangqiError
from .movegen import pseudo_moves, work_board
from .position import Position
from .tables import ELEPHANT_STEPS, HORSE_STEPS

# code -> the English sentence ({piece} is the piece's kind). Pages translate by code.
REASONS: dict[str, str] = {
    "empty": "There is no piece there.",
    "not-yours": "That piece is {owner}'s; it is {turn}'s move.",
    "stuck": "That {piece} has no move now: every way is blocked.",
    "pinned": "That {piece} cannot move: any move would leave your general in check.",
    "own-piece": "A piece cannot capture one of its own side.",
    "shape": "The {piece} does not move that way.",
    "palace": "The {piece} may not leave the palace.",
    "river": "The elephant may not cross the river.",
    "eye": "The elephant's eye is blocked: a piece stands between.",
    "hobbled": "The horse is hobbled: a piece stands on its leg.",
    "pawn-back": "A soldier never moves backwards.",
    "pawn-side": "A soldier moves sideways only after crossing the river.",
    "in-the-way": "A piece stands in the way.",
    "cannon-screen": "A cannon captures only by jumping exactly one piece.",
    "face": "The generals may not face each other on an open file.",
    "check": "That would leave your general in check.",
}


@dataclass(frozen=True, slots=True)
class Refusal:
    code: str  # a key of REASONS
    piece: str  # the kind of the piece concerned ("horse"), "" when there is none
    text: str  # the English sentence

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "piece": self.piece, "text": self.text}


def _refusal(code: str, piece: str = "", **words: str) -> Refusal:
    return Refusal(code, piece, REASONS[code].format(piece=piece, **words))


def why_not(position: Position, frm: str, to: str | None = None) -> Refusal | None:
    """Why the piece on `frm` cannot move (to is None) or cannot move to `to`; None when it
    can. Squares are ICCS names ("h2"); a bad name raises XiangqiError."""
    f = parse_square(frm)
    code = position.board[f]
    if not code:
        return _refusal("empty")
    piece = str(KIND_OF_CODE[code & 7])
    mover = 1 if code & BLACK_BIT else 0
    if mover != position.turn.side:
        names = ("Red", "Black")
        return _refusal("not-yours", piece, owner=names[mover], turn=names[1 - mover])
    if to is None:
        return _why_stuck(position, f, piece)
    t = parse_square(to)
    if (f << 7 | t) in position.legal_codes():
        return None
    target = position.board[t]
    if target and bool(target & BLACK_BIT) == bool(mover):
        return _refusal("own-piece", piece)
    shape = _movement(position.board, code, f, t, mover)
    if shape is not None:
        return _refusal(shape, piece)
    board = list(position.board)
    board[t], board[f] = code, 0
    kings = [position.king_square(c) for c in COLORS]  # Red's, Black's
    if code & 7 == KING:
        kings[mover] = t
    if kings_face(board, kings[0], kings[1]):
        return _refusal("face", piece)
    return _refusal("check", piece)


def _why_stuck(position: Position, f: int, piece: str) -> Refusal | None:
    if any(c >> 7 == f for c in position.legal_codes()):
        return None
    if any(c >> 7 == f for c in pseudo_moves(work_board(position.board), position.turn.side)):
        return _refusal("pinned", piece)
    return _refusal("stuck", piece)


def _movement(board: tuple[int, ...], code: int, f: int, t: int, side: int) -> str | None:
    """The movement rule (seed 2.2–2.3) the step f -> t breaks, as a REASONS code; None when
    the piece may make it (so the refusal is about the general's safety)."""
    kind = code & 7
    df, dr = t % 9 - f % 9, t // 9 - f // 9
    adf, adr = abs(df), abs(dr)
    if kind in (KING, ADVISOR):
        if (adf, adr) not in ((0, 1), (1, 0)) if kind == KING else (adf, adr) != (1, 1):
            return "shape"
        return "palace" if not in_palace(t) else None
    if kind == ELEPHANT:
        if (adf, adr) != (2, 2):
            return "shape"
        if own_half(t, 0) != own_half(f, 0):
            return "river"
        eye = dict(ELEPHANT_STEPS[f]).get(t)
        return "eye" if eye is not None and board[eye] else None
    if kind == HORSE:
        leg = dict(HORSE_STEPS[f]).get(t)
        if leg is None:
            return "shape"
        return "hobbled" if board[leg] else None
    if kind == PAWN:
        forward = 1 if side == 0 else -1
        if adf + adr != 1:
            return "shape"
        if dr == -forward:
            return "pawn-back"
        crossed = not own_half(f, side)
        return "pawn-side" if dr == 0 and not crossed else None
    # rook and cannon: one straight line
    if df and dr or not (df or dr):
        return "shape"
    step = (df > 0) - (df < 0) + 9 * ((dr > 0) - (dr < 0))
    between = sum(1 for sq in range(f + step, t, step) if board[sq])
    if kind == ROOK:
        return "in-the-way" if between else None
    assert kind == CANNON
    if board[t]:
        return "cannon-screen" if between != 1 else None
    return "in-the-way" if between else None


__all__ = ["REASONS", "Refusal", "XiangqiError", "why_not"]
