"""Board geometry and piece identity (seed §1): 9 files × 10 ranks, colours, kinds, pieces.

Squares are integers `rank * 9 + file`: file 0..8 is the ICCS letter a..i counted from Red's
left, rank 0..9 is the ICCS digit counted from Red's side (Red's back rank is 0). Internally a
piece is a small int `kind code | colour bit` so that boards are flat tuples of ints; `Piece`
is the readable face of that int for callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import XiangqiError

FILES = 9
RANKS = 10
SIZE = FILES * RANKS
FILE_LETTERS = "abcdefghi"


class Color(StrEnum):
    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.RED else Color.RED

    @property
    def side(self) -> int:
        """0 for Red, 1 for Black: the index used by the engine's internal tables."""
        return 0 if self is Color.RED else 1


COLORS = (Color.RED, Color.BLACK)


class Kind(StrEnum):
    KING = "king"
    ADVISOR = "advisor"
    ELEPHANT = "elephant"
    HORSE = "horse"
    ROOK = "rook"
    CANNON = "cannon"
    PAWN = "pawn"


# Internal codes: kind 1..7, plus BLACK_BIT for Black's pieces; 0 is an empty point.
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(1, 8)
BLACK_BIT = 8
KIND_OF_CODE = {
    KING: Kind.KING,
    ADVISOR: Kind.ADVISOR,
    ELEPHANT: Kind.ELEPHANT,
    HORSE: Kind.HORSE,
    ROOK: Kind.ROOK,
    CANNON: Kind.CANNON,
    PAWN: Kind.PAWN,
}
CODE_OF_KIND = {kind: code for code, kind in KIND_OF_CODE.items()}
# FEN letters written (Red upper case); `h`/`e` are read as synonyms of `n`/`b`.
LETTER_OF_KIND = {
    Kind.KING: "k",
    Kind.ADVISOR: "a",
    Kind.ELEPHANT: "b",
    Kind.HORSE: "n",
    Kind.ROOK: "r",
    Kind.CANNON: "c",
    Kind.PAWN: "p",
}


@dataclass(frozen=True, slots=True)
class Piece:
    color: Color
    kind: Kind

    @property
    def symbol(self) -> str:
        """The FEN letter: upper case for Red, lower case for Black (horse `n`, elephant `b`)."""
        letter = LETTER_OF_KIND[self.kind]
        return letter.upper() if self.color is Color.RED else letter

    @property
    def code(self) -> int:
        return CODE_OF_KIND[self.kind] | (BLACK_BIT if self.color is Color.BLACK else 0)


# PIECE_OF_CODE[code] -> Piece (None for 0 and the unused codes).
PIECE_OF_CODE: tuple[Piece | None, ...] = tuple(
    Piece(Color.BLACK if code & BLACK_BIT else Color.RED, KIND_OF_CODE[code & 7])
    if code & 7 in KIND_OF_CODE
    else None
    for code in range(16)
)


def square(file: int, rank: int) -> int:
    return rank * FILES + file


def file_of(sq: int) -> int:
    return sq % FILES


def rank_of(sq: int) -> int:
    return sq // FILES


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


NAMES: tuple[str, ...] = tuple(f"{FILE_LETTERS[s % FILES]}{s // FILES}" for s in range(SIZE))


def square_name(sq: int) -> str:
    """ICCS name of a square: `a0` (Red's left corner) .. `i9`."""
    return NAMES[sq]


def parse_square(text: str) -> int:
    """`e0` (or `E0`) → square index; raises XiangqiError naming the text when it is not one."""
    t = text.strip().lower()
    # ASCII digits only: str.isdigit() also accepts "²" and the like, which int() refuses.
    if len(t) != 2 or t[0] not in FILE_LETTERS or t[1] not in "0123456789":
        raise XiangqiError(f"'{text}' is not a square (files a–i, ranks 0–9)")
    return square(FILE_LETTERS.index(t[0]), int(t[1]))


def in_palace(sq: int) -> bool:
    """The two palaces (seed 1.1): files d–f, ranks 0–2 (Red) and 7–9 (Black)."""
    f, r = file_of(sq), rank_of(sq)
    return 3 <= f <= 5 and (r <= 2 or r >= 7)


def own_half(sq: int, side: int) -> bool:
    """Is `sq` on `side`'s side of the river (Red ranks 0–4, Black ranks 5–9)?"""
    return (rank_of(sq) <= 4) == (side == 0)
