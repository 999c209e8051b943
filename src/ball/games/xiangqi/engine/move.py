"""A move: from-square and to-square, written and read in ICCS coordinates (`h2e2`)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import NAMES, SIZE, parse_square
from .errors import XiangqiError


@dataclass(frozen=True, slots=True)
class Move:
    from_sq: int
    to_sq: int

    def __post_init__(self) -> None:
        if not (0 <= self.from_sq < SIZE and 0 <= self.to_sq < SIZE):
            raise XiangqiError(f"move squares must be 0..{SIZE - 1}")
        if self.from_sq == self.to_sq:
            raise XiangqiError(f"a move must leave its square ({NAMES[self.from_sq]})")

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """`h2e2`, `H2-E2` or `h2-e2` → Move; anything else raises XiangqiError."""
        t = text.strip().replace("-", "")
        if len(t) != 4:
            raise XiangqiError(f"'{text}' is not an ICCS move (like h2e2)")
        try:
            return cls(parse_square(t[:2]), parse_square(t[2:]))
        except XiangqiError as exc:
            raise XiangqiError(f"'{text}' is not an ICCS move: {exc}") from None

    def iccs(self) -> str:
        """Lower-case ICCS without the dash: `h2e2`."""
        return NAMES[self.from_sq] + NAMES[self.to_sq]

    def __str__(self) -> str:
        return self.iccs()

    # Internal move code used by the generator (from << 7 | to).
    @property
    def code(self) -> int:
        return self.from_sq << 7 | self.to_sq


def _table() -> list[Move]:
    # Codes that are no move (from == to, to >= 90) hold a placeholder the generator never
    # produces; a flat list indexes faster than a dict in the hot loop.
    placeholder = Move(0, 1)
    table = [placeholder] * (SIZE << 7)
    for f in range(SIZE):
        for t in range(SIZE):
            if f != t:
                table[f << 7 | t] = Move(f, t)
    return table


# MOVES[code] -> the Move for every (from, to) pair, built once so the generator hands out
# shared objects instead of constructing one per legal move.
MOVES: list[Move] = _table()
