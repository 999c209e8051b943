"""Board geometry (spec §1): 13 columns A–M × 17 rows, only the striped squares play.

Squares are integers `row * 13 + column` (both 0-based) so that tables can be indexed
directly; every neighbour table is computed once at import. D-01: a square is playable when
(column + row) is even counting from A = 1 and row 1, i.e. when the 0-based sum is even.
"""

from __future__ import annotations

import re

COLUMNS = 13
ROWS = 17
SIZE = COLUMNS * ROWS
COLUMN_LETTERS = "ABCDEFGHIJKLM"

# The four diagonal directions (Δcolumn, Δrow) and the four orthogonal ones.
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHOGONALS = ((2, 0), (-2, 0), (0, 2), (0, -2))


def square(column: int, row: int) -> int:
    return row * COLUMNS + column


def column_of(sq: int) -> int:
    return sq % COLUMNS


def row_of(sq: int) -> int:
    return sq // COLUMNS


def on_board(column: int, row: int) -> bool:
    return 0 <= column < COLUMNS and 0 <= row < ROWS


def is_playable(sq: int) -> bool:
    return 0 <= sq < SIZE and (column_of(sq) + row_of(sq)) % 2 == 0


PLAYABLE: tuple[int, ...] = tuple(sq for sq in range(SIZE) if is_playable(sq))
NAMES: tuple[str, ...] = tuple(
    f"{COLUMN_LETTERS[column_of(s)]}{row_of(s) + 1}" for s in range(SIZE)
)
_NAME_RE = re.compile(r"^([A-Ma-m])(1[0-7]|[1-9])$")
# Playable squares by their canonical name: every position read (a stored game, each API
# request's document) parses each piece's square, nearly always written as `NAMES` writes it.
_PLAYABLE_BY_NAME: dict[str, int] = {NAMES[sq]: sq for sq in PLAYABLE}


class SquareError(ValueError):
    """A square name that does not denote a playable square."""


def parse_square(text: str) -> int:
    """`G7` → square index; raises SquareError naming the text when off-board or unplayable."""
    sq = _PLAYABLE_BY_NAME.get(text)
    if sq is not None:  # the canonical spelling: what the pattern below gives it
        return sq
    m = _NAME_RE.match(text.strip())
    if not m:
        raise SquareError(f"'{text}' is not a square (columns A–M, rows 1–17)")
    sq = square(COLUMN_LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1)
    if not is_playable(sq):
        raise SquareError(f"{NAMES[sq]} is not a playable (striped) square")
    return sq


def distance(a: int, b: int) -> int:
    """D-02: steps through diagonally adjacent playable squares, ignoring pieces."""
    return max(abs(column_of(a) - column_of(b)), abs(row_of(a) - row_of(b)))


def _diagonal_steps(sq: int, length: int) -> tuple[int, ...]:
    c, r = column_of(sq), row_of(sq)
    return tuple(
        square(c + dc * length, r + dr * length)
        for dc, dr in DIAGONALS
        if on_board(c + dc * length, r + dr * length)
    )


_Steps = tuple[tuple[int, ...], ...]  # per square: the squares one step reaches


def _build_tables() -> tuple[_Steps, tuple[tuple[tuple[int, int], ...], ...], _Steps]:
    adjacent: list[tuple[int, ...]] = [()] * SIZE
    diagonal2: list[tuple[tuple[int, int], ...]] = [()] * SIZE
    orthogonal2: list[tuple[int, ...]] = [()] * SIZE
    for sq in PLAYABLE:
        c, r = column_of(sq), row_of(sq)
        adjacent[sq] = _diagonal_steps(sq, 1)
        diagonal2[sq] = tuple(
            (square(c + dc, r + dr), square(c + 2 * dc, r + 2 * dr))
            for dc, dr in DIAGONALS
            if on_board(c + 2 * dc, r + 2 * dr)
        )
        orthogonal2[sq] = tuple(
            square(c + dc, r + dr) for dc, dr in ORTHOGONALS if on_board(c + dc, r + dr)
        )
    return tuple(adjacent), tuple(diagonal2), tuple(orthogonal2)


# ADJACENT[sq]: diagonal neighbours; DIAGONAL2[sq]: (middle, landing) of straight 2-steps;
# ORTHOGONAL2[sq]: landings of orthogonal 2-steps (they cross no playable square, D-07).
ADJACENT, DIAGONAL2, ORTHOGONAL2 = _build_tables()

# WITHIN1[sq]: the square itself and its neighbours (used for the long-pass distance rule).
WITHIN1: tuple[frozenset[int], ...] = tuple(
    frozenset((sq, *ADJACENT[sq])) if is_playable(sq) else frozenset() for sq in range(SIZE)
)


def opposite_step(middle: int, pushed_to: int) -> int | None:
    """The square one diagonal step from `middle` away from `pushed_to`, or None off-board."""
    c = 2 * column_of(middle) - column_of(pushed_to)
    r = 2 * row_of(middle) - row_of(pushed_to)
    return square(c, r) if on_board(c, r) else None


def end_zone(side: str, depth: int) -> frozenset[int]:
    """D-03: S scores in the top `depth` rows (row 17 down), N in the bottom ones."""
    rows = range(ROWS - depth, ROWS) if side == "S" else range(depth)
    return frozenset(sq for sq in PLAYABLE if row_of(sq) in rows)
