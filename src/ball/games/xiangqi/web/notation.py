"""The Xiangqi move notations the web offers: how a move is written for a reader and read
from one. The notations themselves are `ball.games.xiangqi.engine.notation`'s (ICCS, WXF, Chinese);
this module only names the choices the pages and the API accept.
"""

from __future__ import annotations

from collections.abc import Callable

from ball.games.xiangqi.engine import Move, Position, XiangqiError, notation

Writer = Callable[[Position, Move], str]
Reader = Callable[[Position, str], Move]

STYLES = ("iccs", "wxf", "chinese")


def available() -> list[str]:
    """The notations the web writes and reads, ICCS first."""
    return list(STYLES)


def check(name: str) -> str:
    """`name` if it is an offered notation; XiangqiError naming the choices otherwise."""
    if name not in STYLES:
        raise XiangqiError(f"notation must be one of {', '.join(STYLES)}, not {name!r}")
    return name


def writer(name: str) -> Writer:
    check(name)
    if name == "iccs":
        return lambda _position, move: move.iccs()
    return lambda position, move: notation.write(position, move, name)


def read(position: Position, text: str, name: str = "iccs") -> Move:
    """The move `text` names in notation `name` (ICCS is checked for legality by the caller;
    WXF and Chinese are read against the position's legal moves)."""
    check(name)
    if name == "iccs":
        return Move.from_iccs(text)
    return notation.read(position, text, name)
