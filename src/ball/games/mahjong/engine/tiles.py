"""Tile names and winds.

Tiles are named as PyMahjongGB names them: `W1`-`W9` characters, `T1`-`T9` bamboos,
`B1`-`B9` dots, `F1`-`F4` winds (east, south, west, north), `J1`-`J3` dragons. Flowers are
only counted (a hand's `flowers`), never named.
"""

from __future__ import annotations

SUITS = ("W", "T", "B")
TILES: tuple[str, ...] = (
    tuple(f"{s}{n}" for s in SUITS for n in range(1, 10))
    + tuple(f"F{n}" for n in range(1, 5))
    + tuple(f"J{n}" for n in range(1, 4))
)
TILE_SET = frozenset(TILES)
COPIES = 4  # of each tile in the set


def is_tile(value: object) -> bool:
    """Whether `value` is one of the 34 tile names."""
    return isinstance(value, str) and value in TILE_SET


def is_chow_middle(tile: str) -> bool:
    """A chow is named by its middle tile (as PyMahjongGB does): a suit tile 2-8."""
    return tile[0] in SUITS and 2 <= int(tile[1]) <= 8


def chow_tiles(middle: str) -> tuple[str, str, str]:
    """The three tiles of the chow whose middle tile is `middle`."""
    suit, n = middle[0], int(middle[1])
    return (f"{suit}{n - 1}", middle, f"{suit}{n + 1}")
