"""The Xiangqi move notations the web offers: how a move is written for a reader and read
from one.

ICCS (`h2e2`) is the engine's own. WXF and Chinese come from `ball.xiangqi.notation` when
that module is part of the build: it is expected to offer `write(position, move, style)`
and `read(position, text, style)` for the styles "wxf" and "chinese" (the convention the CLI's
`--notation` already uses); nothing else here changes when it arrives.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from types import ModuleType

from ball.xiangqi import Move, Position, XiangqiError

Writer = Callable[[Position, Move], str]
Reader = Callable[[Position, str], Move]

EXTERNAL_STYLES = ("wxf", "chinese")


@cache
def _external() -> ModuleType | None:
    if importlib.util.find_spec("ball.xiangqi.notation") is None:
        return None
    return importlib.import_module("ball.xiangqi.notation")


def available() -> list[str]:
    """The notations this build can write and read, ICCS first."""
    return ["iccs", *(EXTERNAL_STYLES if _external() is not None else ())]


def check(name: str) -> str:
    """`name` if it is an available notation; XiangqiError naming the choices otherwise."""
    if name not in available():
        raise XiangqiError(f"notation must be one of {', '.join(available())}, not {name!r}")
    return name


def writer(name: str) -> Writer:
    check(name)
    if name == "iccs":
        return lambda _position, move: move.iccs()
    module = _external()
    assert module is not None
    return lambda position, move: str(module.write(position, move, name))


def read(position: Position, text: str, name: str = "iccs") -> Move:
    """The move `text` names in notation `name` (not yet checked for legality)."""
    check(name)
    if name == "iccs":
        return Move.from_iccs(text)
    module = _external()
    assert module is not None
    move = module.read(position, text, name)
    if not isinstance(move, Move):
        raise XiangqiError(f"{text!r} is not a {name} move")
    return move
