"""The fixed sets of words the tournament stores and prints, as StrEnums.

Each member equals its text ("withdrawn", "double-forfeit", ...), so the typed results of
`outcomes` carry them without changing a byte of what the CLI and the pages print, and
the rows keep their plain strings (no migration). The pairing systems are
`systems.PairingSystem`.
"""

from __future__ import annotations

from enum import StrEnum


class EntrantStatus(StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"


class ByeKind(StrEnum):
    """A table without coach B: pairing-allocated, requested half- or zero-point, or a
    full point the arbiter gives."""

    PAB = "pab"
    HALF = "half"
    ZERO = "zero"
    FULL = "full"


class ResultKind(StrEnum):
    """How a table was decided; `outcome` is a TRF import's result without a sheet."""

    SHEET = "sheet"
    FORFEIT = "forfeit"
    DOUBLE_FORFEIT = "double-forfeit"
    OUTCOME = "outcome"


class Coach(StrEnum):
    """Coach A (TRF White) or coach B of a table."""

    A = "A"
    B = "B"

    @property
    def opponent(self) -> Coach:
        return Coach.B if self is Coach.A else Coach.A


class Outcome(StrEnum):
    """Who won a table: coach A or B, a draw, or nobody (a double forfeit)."""

    A = "A"
    B = "B"
    DRAW = "D"
    NOBODY = "N"


class InitialColour(StrEnum):
    """Whether the top entrant of a Swiss is coach A (white1) or B (black1) in round 1."""

    WHITE1 = "white1"
    BLACK1 = "black1"
