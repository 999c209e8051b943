"""Tic-tac-toe's rules, pure: X (player A) and O alternate on cells 1-9 (rows from the top
left); three in a row wins (article 1), a full board without one is a draw (article 2)."""

from __future__ import annotations

from collections.abc import Sequence

LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
CELLS = range(1, 10)


class IllegalGame(ValueError):
    """Moves that are no game of tic-tac-toe; the message names the fault."""


def ending(moves: Sequence[int]) -> tuple[str | None, str]:
    """Who won ("X", "O" or None for a draw) and the article that says so; a game that
    goes on after its end, or is not over, is refused."""
    marks: dict[int, str] = {}
    for ply, cell in enumerate(moves):
        if cell not in CELLS:
            raise IllegalGame(f"move {ply + 1}: {cell!r} is not a cell 1-9")
        if cell in marks:
            raise IllegalGame(f"move {ply + 1}: cell {cell} is taken")
        mark = "XO"[ply % 2]
        marks[cell] = mark
        if any(all(marks.get(c) == mark for c in line) for line in LINES):
            if ply + 1 != len(moves):
                raise IllegalGame(f"move {ply + 2}: the game ended at move {ply + 1}")
            return mark, "1"
    if len(marks) < len(CELLS):
        raise IllegalGame(f"the game is not over after {len(moves)} moves")
    return None, "2"
