"""Move notations: ICCS (`h2e2`, the canonical text), WXF (`C2=5`, `H8+7`, `R-+2`, `17+1`) and
Chinese (`炮二平五` for Red, `炮8平5` for Black; seed 1.1 and 7.5), each read and written
against a position, so that every text names exactly one legal move.

WXF and Chinese describe a move the same way: which piece (by kind and file, or by its place
among same-kind pieces on one file), the direction (forward, back, sideways) and a number
(the new file, or the points moved along the file). This module computes that description
once (`_designation`) and renders it with one grammar table per notation; reading parses the
text into the same description and keeps the legal moves that fit it (docs/xiangqi.md,
decisions X-20…X-24).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .board import (
    ADVISOR,
    CANNON,
    ELEPHANT,
    FILES,
    HORSE,
    KING,
    PAWN,
    RANKS,
    ROOK,
    file_of,
    in_palace,
    own_half,
    rank_of,
    square,
)
from .errors import XiangqiError
from .move import Move
from .position import Position


class Notation(StrEnum):
    ICCS = "iccs"
    WXF = "wxf"
    CHINESE = "chinese"


# --- the grammars as data ------------------------------------------------------------------

# WXF piece letters: written K A E H R C P; B (elephant) and N (horse) are read too.
WXF_LETTER = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", ROOK: "R", CANNON: "C", PAWN: "P"}
WXF_READ = {**{v: k for k, v in WXF_LETTER.items()}, "B": ELEPHANT, "N": HORSE}

# Chinese characters written, by side (seed 1.2 names the pieces by colour).
CHINESE_PIECE = (
    {KING: "帥", ADVISOR: "仕", ELEPHANT: "相", HORSE: "傌", ROOK: "俥", CANNON: "炮", PAWN: "兵"},
    {KING: "將", ADVISOR: "士", ELEPHANT: "象", HORSE: "馬", ROOK: "車", CANNON: "砲", PAWN: "卒"},
)
# Read for either side: both sets and the common simplified and variant characters.
CHINESE_PIECE_READ = {
    **{ch: kind for table in CHINESE_PIECE for kind, ch in table.items()},
    "帅": KING, "将": KING, "马": HORSE, "车": ROOK, "包": CANNON,
}  # fmt: skip
CHINESE_NUMERAL = "一二三四五六七八九"
FULLWIDTH_DIGIT = "１２３４５６７８９"
CHINESE_ACTION = {"+": "進", "-": "退", "=": "平"}
CHINESE_ACTION_READ = {"進": "+", "进": "+", "退": "-", "平": "="}
# Tandem markers: front/rear of two, front/middle/rear of three, numbered from the front for
# four or five pawns on one file.
FRONT, MIDDLE, REAR = "front", "middle", "rear"
CHINESE_MARKER = {FRONT: "前", MIDDLE: "中", REAR: "後"}
CHINESE_MARKER_READ = {"前": FRONT, "中": MIDDLE, "後": REAR, "后": REAR}

_ICCS_RE = re.compile(r"[a-i][0-9]-?[a-i][0-9]", re.IGNORECASE)
_WXF_PLAIN = re.compile(r"([A-Z])([1-9])([+\-=])([1-9])")
_WXF_TANDEM = re.compile(r"([A-Z])([+\-])([+\-=])([1-9])")
_WXF_TANDEM_PREFIX = re.compile(r"([+\-])([A-Z])([+\-=])([1-9])")
_WXF_INDEXED = re.compile(r"([1-5])([1-9])([+\-=])([1-9])")


# --- the description shared by WXF and Chinese -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Description:
    """What a WXF or Chinese move text says: the piece (kind; file and/or marker), the
    direction `op` (`+` forward, `-` back, `=` sideways) and the number `n`."""

    kind: int  # internal kind code 1..7
    file: int | None  # file number as the mover counts it (1..9), None when not given
    marker: str | int | None  # FRONT/MIDDLE/REAR, or 1-based index from the front
    op: str
    n: int


def file_number(f: int, side: int) -> int:
    """The file as the mover counts it: Red 1..9 from its right (ICCS i..a), Black from its
    right too, which is ICCS a..i (seed 1.1)."""
    return FILES - f if side == 0 else f + 1


def _forward(side: int) -> int:
    return 1 if side == 0 else -1


def _column(board: tuple[int, ...], code: int, f: int, side: int) -> list[int]:
    """Squares of the pieces `code` on file `f`, front (nearest the enemy) first."""
    squares = [square(f, r) for r in range(RANKS) if board[square(f, r)] == code]
    return sorted(squares, key=lambda s: -rank_of(s) * _forward(side))


def _multi_tandem(board: tuple[int, ...], code: int) -> bool:
    """Do two or more files each hold two or more of these pieces?"""
    files = [f for f in range(FILES) if sum(board[square(f, r)] == code for r in range(RANKS)) > 1]
    return len(files) > 1


def _may_stand(kind: int, sq: int, side: int) -> bool:
    # Where a piece of this kind may ever stand: king and advisor in their palace, elephant
    # on its side of the river, the rest anywhere (the regions Fairy-Stockfish uses, X-21).
    if kind in (KING, ADVISOR):
        return in_palace(sq) and own_half(sq, side)
    if kind == ELEPHANT:
        return own_half(sq, side)
    return True


def _other_could(move: Move, other: int, kind: int, side: int) -> bool:
    """Could the other piece on the file make the same displacement on the board? Only then
    do the two need telling apart as front and rear (X-21)."""
    df = file_of(move.to_sq) - file_of(move.from_sq)
    dr = rank_of(move.to_sq) - rank_of(move.from_sq)
    f, r = file_of(other) + df, rank_of(other) + dr
    return 0 <= f < FILES and 0 <= r < RANKS and _may_stand(kind, square(f, r), side)


def _op_and_n(move: Move, side: int) -> tuple[str, int]:
    fr, tr = rank_of(move.from_sq), rank_of(move.to_sq)
    ff, tf = file_of(move.from_sq), file_of(move.to_sq)
    op = "=" if fr == tr else ("+" if (tr - fr) * _forward(side) > 0 else "-")
    n = abs(tr - fr) if ff == tf else file_number(tf, side)
    return op, n


def describe(position: Position, move: Move) -> Description:
    """The canonical description of a legal `move` (X-21: the WXF rules Fairy-Stockfish
    writes): plain kind and file; front/rear when exactly two share the file and both could
    make this displacement; numbered from the front when three or more pawns share the file,
    or two when another file also holds two or more (then the file is given too)."""
    _check_legal(position, move)
    board, side = position.board, position.turn.side
    code = board[move.from_sq]
    kind = code & 7
    f = file_of(move.from_sq)
    column = _column(board, code, f, side)
    multi = _multi_tandem(board, code)
    op, n = _op_and_n(move, side)
    index = column.index(move.from_sq) + 1
    if len(column) >= (2 if multi else 3):
        return Description(kind, file_number(f, side), index, op, n)
    if len(column) == 2:
        other = column[2 - index]
        if _other_could(move, other, kind, side):
            return Description(kind, None, FRONT if index == 1 else REAR, op, n)
    return Description(kind, file_number(f, side), None, op, n)


def _check_legal(position: Position, move: Move) -> None:
    if not position.is_legal(move):
        position.push(move)  # raises XiangqiError saying why the move is illegal


def _marker_fits(marker: str | int | None, index: int, count: int) -> bool:
    if marker is None:
        return True
    if count < 2:
        return False
    if marker == FRONT:
        return index == 1
    if marker == REAR:
        return index == count
    if marker == MIDDLE:
        return count == 3 and index == 2
    return index == marker


def _fits(position: Position, move: Move, want: Description) -> bool:
    # Cheapest tests first: the kind, the file, the direction and number; the piece's place
    # on its file (which scans the file) last.
    board, side = position.board, position.turn.side
    code = board[move.from_sq]
    if code & 7 != want.kind:
        return False
    f = file_of(move.from_sq)
    if want.file is not None and file_number(f, side) != want.file:
        return False
    if _op_and_n(move, side) != (want.op, want.n):
        return False
    if want.marker is None:
        return True
    column = _column(board, code, f, side)
    return _marker_fits(want.marker, column.index(move.from_sq) + 1, len(column))


def resolve(position: Position, want: Description, text: str) -> Move:
    """The one legal move that fits `want`; XiangqiError when none or several do."""
    moves = [m for m in position.legal_moves() if _fits(position, m, want)]
    if len(moves) == 1:
        return moves[0]
    if not moves:
        raise XiangqiError(f"'{text}': no legal move of {position.turn} fits it")
    found = ", ".join(sorted(m.iccs() for m in moves))
    raise XiangqiError(f"'{text}' is ambiguous: it fits {found}")


# --- WXF -------------------------------------------------------------------------------------


def _wxf_text(d: Description) -> str:
    tail = f"{d.op}{d.n}"
    if isinstance(d.marker, int):
        return f"{d.marker}{d.file}{tail}"
    if d.marker is not None:
        return f"{WXF_LETTER[d.kind]}{'+' if d.marker == FRONT else '-'}{tail}"
    return f"{WXF_LETTER[d.kind]}{d.file}{tail}"


def _wxf_kind(letter: str, text: str) -> int:
    if letter not in WXF_READ:
        raise XiangqiError(f"'{text}': '{letter}' is not a WXF piece letter (K A E H R C P)")
    return WXF_READ[letter]


def parse_wxf(text: str) -> Description:
    """WXF text → description (case-insensitive; tandem as `R+=4` or `+R=4`)."""
    t = text.strip().upper()
    if m := _WXF_PLAIN.fullmatch(t):
        return Description(_wxf_kind(m[1], text), int(m[2]), None, m[3], int(m[4]))
    if m := _WXF_TANDEM.fullmatch(t):
        marker = FRONT if m[2] == "+" else REAR
        return Description(_wxf_kind(m[1], text), None, marker, m[3], int(m[4]))
    if m := _WXF_TANDEM_PREFIX.fullmatch(t):
        marker = FRONT if m[1] == "+" else REAR
        return Description(_wxf_kind(m[2], text), None, marker, m[3], int(m[4]))
    if m := _WXF_INDEXED.fullmatch(t):
        return Description(PAWN, int(m[2]), int(m[1]), m[3], int(m[4]))
    raise XiangqiError(f"'{text}' is not a WXF move (like C2=5, H8+7, R-+2 or 17+1)")


# --- Chinese ---------------------------------------------------------------------------------


def _numeral(n: int, side: int) -> str:
    # Red counts in Chinese numerals, Black in Arabic digits (seed 1.1).
    return CHINESE_NUMERAL[n - 1] if side == 0 else str(n)


def _chinese_marker(index: int, count: int) -> str:
    if count <= 3:
        names = (FRONT, REAR) if count == 2 else (FRONT, MIDDLE, REAR)
        return CHINESE_MARKER[names[index - 1]]
    return CHINESE_NUMERAL[index - 1]


def _chinese_text(d: Description, side: int, count: int, multi: bool) -> str:
    piece = CHINESE_PIECE[side][d.kind]
    tail = f"{CHINESE_ACTION[d.op]}{_numeral(d.n, side)}"
    if isinstance(d.marker, int):
        assert d.file is not None
        second = _numeral(d.file, side) if multi else piece
        return f"{_chinese_marker(d.marker, count)}{second}{tail}"
    if d.marker is not None:
        return f"{CHINESE_MARKER[d.marker]}{piece}{tail}"
    assert d.file is not None
    return f"{piece}{_numeral(d.file, side)}{tail}"


def _number(ch: str) -> int | None:
    for digits in (CHINESE_NUMERAL, FULLWIDTH_DIGIT, "123456789"):
        if ch in digits:
            return digits.index(ch) + 1
    return None


def _chinese_tail(t: str, text: str) -> tuple[str, int]:
    if t[2] not in CHINESE_ACTION_READ:
        raise XiangqiError(f"'{text}': '{t[2]}' is not 進, 退 or 平")
    n = _number(t[3])
    if n is None:
        raise XiangqiError(f"'{text}': '{t[3]}' is not a number 1–9")
    return CHINESE_ACTION_READ[t[2]], n


def parse_chinese(text: str) -> Description:
    """Chinese text → description: `炮二平五`, `馬8進7`, `前車進一`, `中兵平六`, `二兵進一`,
    `前七進一` (a pawn named by its place and its file)."""
    t = "".join(text.split())
    if len(t) != 4:
        raise XiangqiError(f"'{text}' is not a Chinese move (four characters, like 炮二平五)")
    op, n = _chinese_tail(t, text)
    first, second = t[0], t[1]
    if first in CHINESE_PIECE_READ:
        f = _number(second)
        if f is None:
            raise XiangqiError(f"'{text}': '{second}' is not a file number 1–9")
        return Description(CHINESE_PIECE_READ[first], f, None, op, n)
    marker: str | int | None = CHINESE_MARKER_READ.get(first) or _number(first)
    if marker is None or (isinstance(marker, int) and marker > 5):
        raise XiangqiError(f"'{text}': '{first}' is neither a piece nor 前, 中, 後 or 一–五")
    if second in CHINESE_PIECE_READ:
        return Description(CHINESE_PIECE_READ[second], None, marker, op, n)
    f = _number(second)
    if f is None:
        raise XiangqiError(f"'{text}': '{second}' is neither a piece nor a file number")
    return Description(PAWN, f, marker, op, n)


# --- the public API --------------------------------------------------------------------------

# Full-width forms (U+FF01..U+FF5E, and the ideographic space) as Chinese archives type them
# in WXF (`Ｃ２＝５`) and move numbers: each is one ASCII character.
_HALFWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def halfwidth(text: str) -> str:
    """`text` with full-width ASCII forms written as ASCII (`Ｃ２＝５` → `C2=5`), one
    character for one, so positions in the text are kept."""
    return text.translate(_HALFWIDTH)


def detect(text: str) -> Notation:
    """Which notation `text` is written in (full-width forms read as ASCII): Chinese if it
    has any other non-ASCII character, ICCS if it is two squares, WXF otherwise."""
    t = halfwidth(text).strip()
    if any(ord(ch) > 127 for ch in t):
        return Notation.CHINESE
    if _ICCS_RE.fullmatch(t):
        return Notation.ICCS
    return Notation.WXF


def _notation(fmt: str | Notation) -> Notation:
    try:
        return Notation(str(fmt).lower())
    except ValueError:
        raise XiangqiError(f"unknown notation {fmt!r} (iccs, wxf or chinese)") from None


def write(position: Position, move: Move, fmt: str | Notation = Notation.ICCS) -> str:
    """`move` (legal in `position`) in notation `fmt`; XiangqiError if it is not legal."""
    notation = _notation(fmt)
    if notation is Notation.ICCS:
        _check_legal(position, move)
        return move.iccs()
    d = describe(position, move)
    if notation is Notation.WXF:
        return _wxf_text(d)
    board, side = position.board, position.turn.side
    code = board[move.from_sq]
    count = len(_column(board, code, file_of(move.from_sq), side))
    return _chinese_text(d, side, count, _multi_tandem(board, code))


def read(position: Position, text: str, fmt: str | Notation | None = None) -> Move:
    """The legal move `text` names in `position`, in notation `fmt` (detected when None);
    XiangqiError names what is wrong (unreadable, no such move, ambiguous, illegal)."""
    if not isinstance(text, str) or not text.strip():
        raise XiangqiError("a move text is empty")
    if len(text) > 16:
        raise XiangqiError(f"'{text[:16]}…' is too long to be a move")
    notation = detect(text) if fmt is None else _notation(fmt)
    text = halfwidth(text)
    if notation is Notation.ICCS:
        move = Move.from_iccs(text)
        _check_legal(position, move)
        return move
    want = parse_wxf(text) if notation is Notation.WXF else parse_chinese(text)
    return resolve(position, want, text.strip())


def convert(position: Position, text: str, fmt: str | Notation) -> str:
    """`text` (any notation) rewritten in `fmt`."""
    return write(position, read(position, text), fmt)


__all__ = [
    "Description",
    "Notation",
    "convert",
    "describe",
    "detect",
    "file_number",
    "halfwidth",
    "parse_chinese",
    "parse_wxf",
    "read",
    "resolve",
    "write",
]
