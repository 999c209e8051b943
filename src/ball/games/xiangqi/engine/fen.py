"""Xiangqi FEN: reading (both letter sets, every fault named) and writing (seed §1 layout).

Board field first, from Black's back rank (rank 9) down to Red's (rank 0), files a..i left to
right; Red upper case. Horse and elephant are read as `n`/`b` or `h`/`e` and always written
`n`/`b` (the letters Fairy-Stockfish and most engines use). Then the side to move (`w` or `r`
for Red, `b` for Black), two unused fields (`-`), the half-move clock (plies since the last
capture) and the full-move number. The first two fields are required.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import (
    ADVISOR,
    BLACK_BIT,
    CANNON,
    ELEPHANT,
    FILES,
    HORSE,
    KING,
    NAMES,
    PAWN,
    PIECE_OF_CODE,
    RANKS,
    ROOK,
    SIZE,
    file_of,
    in_palace,
    own_half,
    rank_of,
    square,
)
from .errors import XiangqiError

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_CODE_OF_LETTER = {
    "k": KING,
    "a": ADVISOR,
    "b": ELEPHANT,
    "e": ELEPHANT,
    "n": HORSE,
    "h": HORSE,
    "r": ROOK,
    "c": CANNON,
    "p": PAWN,
}
_SIDE_OF_LETTER = {"w": 0, "r": 0, "b": 1}
_MAX_COUNT = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2, PAWN: 5}
# Where advisors and elephants can ever stand (seed 1.3 start + 2.2.2/2.2.3 moves), Red side.
_ADVISOR_POINTS = {square(3, 0), square(5, 0), square(4, 1), square(3, 2), square(5, 2)}
_ELEPHANT_POINTS = {
    square(2, 0), square(6, 0), square(0, 2), square(4, 2), square(8, 2), square(2, 4),
    square(6, 4),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ParsedFen:
    board: tuple[int, ...]
    side: int
    halfmove: int
    fullmove: int


def _mirror(sq: int) -> int:
    # The same point seen from Black's side: rank r -> 9 - r (files stay: palaces symmetric).
    return square(file_of(sq), RANKS - 1 - rank_of(sq))


def _parse_rank(text: str, rank: int, board: list[int]) -> None:
    f = 0
    for ch in text:
        if ch in "0123456789":  # ASCII only (str.isdigit() accepts "²", which int() refuses)
            if ch == "0":
                raise XiangqiError(f"FEN rank {rank}: '0' is not a run of empty points")
            f += int(ch)
        elif ch.lower() in _CODE_OF_LETTER:
            if f < FILES:
                code = _CODE_OF_LETTER[ch.lower()]
                board[square(f, rank)] = code | (0 if ch.isupper() else BLACK_BIT)
            f += 1
        else:
            raise XiangqiError(f"FEN rank {rank}: bad character '{ch}'")
    if f != FILES:
        raise XiangqiError(f"FEN rank {rank}: {f} files instead of {FILES}")


def _parse_board(field: str) -> list[int]:
    rows = field.split("/")
    if len(rows) != RANKS:
        raise XiangqiError(f"FEN board has {len(rows)} ranks instead of {RANKS}")
    board = [0] * SIZE
    for i, row in enumerate(rows):
        _parse_rank(row, RANKS - 1 - i, board)
    return board


def _check_placement(sq: int, code: int) -> None:
    piece = PIECE_OF_CODE[code]
    assert piece is not None
    side = 1 if code & BLACK_BIT else 0
    red_view = _mirror(sq) if side else sq
    kind = code & 7
    where = f"{piece.color} {piece.kind} on {NAMES[sq]}"
    if kind == KING and not (in_palace(sq) and own_half(sq, side)):
        raise XiangqiError(f"{where} is outside its palace")
    if kind == ADVISOR and red_view not in _ADVISOR_POINTS:
        raise XiangqiError(f"{where} is not on a palace diagonal point of its side")
    if kind == ELEPHANT and red_view not in _ELEPHANT_POINTS:
        raise XiangqiError(f"{where} is not on an elephant point of its side")
    if kind == PAWN:
        _check_pawn(where, rank_of(red_view), file_of(sq))


def _check_pawn(where: str, rank: int, file: int) -> None:
    # `rank` counted from the pawn's own side (0..9). A pawn starts on its rank 3 on files
    # a, c, e, g, i; it only moves forward until it has crossed the river (rank 5), so it
    # never stands behind rank 3, nor on its own half on files b, d, f, h (the files are
    # symmetric, so the parity holds for both colours).
    if rank < 3:
        raise XiangqiError(f"{where} is behind its starting points (pawns never retreat)")
    if rank <= 4 and file % 2 == 1:
        raise XiangqiError(
            f"{where} is on its own side of the river off its starting files "
            "(a pawn moves sideways only after crossing the river)"
        )


def check_board(board: list[int]) -> None:
    """Piece counts, one king each, and every piece on a point it can ever reach."""
    counts: dict[int, int] = {}
    for sq, code in enumerate(board):
        if code:
            counts[code] = counts.get(code, 0) + 1
            _check_placement(sq, code)
    for code in sorted(counts):
        limit = _MAX_COUNT[code & 7]
        if counts[code] > limit:
            piece = PIECE_OF_CODE[code]
            assert piece is not None
            raise XiangqiError(f"{counts[code]} {piece.color} {piece.kind}s (at most {limit})")
    for side, name in ((0, "red"), (1, "black")):
        if KING | (BLACK_BIT if side else 0) not in counts:
            raise XiangqiError(f"no {name} king")


def _count(text: str, what: str, minimum: int) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) < minimum:
        raise XiangqiError(f"FEN {what} '{text}' is not a whole number from {minimum}")
    return int(text)


def parse_fen(text: str) -> ParsedFen:
    """Read a FEN (board and side required); raise XiangqiError naming the first fault."""
    fields = text.split()
    if not fields:
        raise XiangqiError("empty FEN")
    if len(fields) > 6:
        raise XiangqiError(f"FEN has {len(fields)} fields (at most 6)")
    board = _parse_board(fields[0])
    check_board(board)
    if len(fields) < 2:
        raise XiangqiError("FEN has no side to move (second field: w or b)")
    side_text = fields[1]
    if side_text not in _SIDE_OF_LETTER:
        raise XiangqiError(f"FEN side to move '{side_text}' is not w, r or b")
    halfmove = _count(fields[4], "half-move clock", 0) if len(fields) > 4 else 0
    fullmove = _count(fields[5], "move number", 1) if len(fields) > 5 else 1
    return ParsedFen(tuple(board), _SIDE_OF_LETTER[side_text], halfmove, fullmove)


def board_field(board: tuple[int, ...] | list[int]) -> str:
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            piece = PIECE_OF_CODE[board[square(f, rank)]]
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece.symbol
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def write_fen(board: tuple[int, ...], side: int, halfmove: int, fullmove: int) -> str:
    return f"{board_field(board)} {'b' if side else 'w'} - - {halfmove} {fullmove}"
