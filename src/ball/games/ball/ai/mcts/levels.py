"""The MCTS player's levels and evaluation weights, read from `levels.toml` (data).

A `Level` is a search budget and its widening/exploration constants; `Weights` are the
figures of the evaluation. Reading fails loudly naming the key, so a bad edit of the TOML is
found at import, not in the middle of a game.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Weights:
    touchdown: float
    possession: float
    progress: float
    near_zone: float
    near_rows: int
    threat: float
    free_share: float
    down: float
    attack_role: float
    pb: float
    scale: float


@dataclass(frozen=True)
class Level:
    name: str
    iterations: int
    seconds: float | None  # upper bound per turn; None: iterations only (fully deterministic)
    widening: float
    alpha: float
    explore: float
    lookahead: int  # actions made and evaluated to value a new node (0: static evaluation)


def _checked(cls: type, table: dict[str, Any], where: str, **extra: Any) -> Any:
    names = {f.name for f in fields(cls)} - set(extra)
    missing = names - set(table)
    unknown = set(table) - names
    if missing or unknown:
        raise ValueError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    for key, value in table.items():
        if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{where}.{key}: must be a number >= 0, got {value!r}")
    return cls(**table, **extra)


def load(text: str) -> tuple[Weights, dict[str, Level]]:
    doc = tomllib.loads(text)
    weights = _checked(Weights, doc.get("weights", {}), "weights")
    levels = {
        name: _checked(Level, table, f"levels.{name}", name=name)
        for name, table in doc.get("levels", {}).items()
    }
    for level in levels.values():
        if level.iterations < 1:
            raise ValueError(f"levels.{level.name}.iterations: must be at least 1")
    return weights, levels


WEIGHTS, LEVELS = load(resources.files(__package__).joinpath("levels.toml").read_text("utf-8"))
