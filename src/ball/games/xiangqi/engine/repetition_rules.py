"""The repetition-ruling parameters of a Xiangqi rule set (seed §23–§28), read from the
`[repetition]` table of `rules/*.toml`.

Only what differs between readings lives here as data: which kinds of attacking move are
forbidden when a side repeats them, which pieces' chases count as idle, whether a perpetual
chase must aim at one and the same piece, the piece values that decide whether a chase
gains material, and how many times a position must occur before a ruling. The classifying
and the verdict are in `ball.games.xiangqi.engine.repetition`; the table's keys are checked strictly
so that a typo never silently falls back to a default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Kind
from .errors import XiangqiError

FORBIDDABLE = ("check", "kill", "chase")


def _default_values() -> dict[Kind, int]:
    # Seed 25.3: a rook is worth two horses, two cannons or a horse and a cannon; horse and
    # cannon are equal; advisor and elephant are equal. The crossed pawn's value "varies";
    # we rate it with advisor and elephant. The king is never chased (25.3), so has none.
    return {
        Kind.ROOK: 4,
        Kind.HORSE: 2,
        Kind.CANNON: 2,
        Kind.ADVISOR: 1,
        Kind.ELEPHANT: 1,
        Kind.PAWN: 1,
    }


@dataclass(frozen=True, slots=True)
class RepetitionRules:
    # Seed 23.2, 24: the ruling is asked for when the cycle has brought the same position
    # (same side to move) about this many times.
    occurrences: int = 3
    # Seed 24.3: the side told to change that repeats the cycle once more loses; the count
    # of further occurrences it is allowed before the loss (0: it loses at once).
    change_chances: int = 1
    # Seed 25.2: attacking moves that, repeated by one side without an idle move, are
    # forbidden (perpetual check, kill, chase and their mixtures).
    forbidden: frozenset[str] = frozenset(FORBIDDABLE)
    # Seed 28.2: a kill threatens mate "the next move or by consecutive checks": the number
    # of the mover's own moves searched for such a mate (1: mate next move; 2: a check, any
    # reply, then mate). The seed sets no bound; 1 is this reading's: deeper searches
    # find standing mating nets that no single move of the cycle made.
    kill_moves: int = 1
    # Seed 27.1, 27.2: a chase made by these pieces' own attack counts as idle.
    idle_attackers: frozenset[Kind] = frozenset({Kind.KING, Kind.PAWN})
    # A chase made by moving one of these pieces counts as idle even when another piece
    # makes the attack (the AXF reading of the king "working with" a piece).
    idle_movers: frozenset[Kind] = frozenset()
    # Seed 28.12 (chinese): chasing "one or several pieces" in turn is a perpetual chase.
    # AXF 32: one piece chasing two or more in turn is not; then this is true and the
    # chasing moves must share one chased piece.
    chase_same_piece: bool = False
    values: dict[Kind, int] = field(default_factory=_default_values)


_KEYS = {
    "occurrences",
    "kill_moves",
    "change_chances",
    "forbidden",
    "idle_attackers",
    "idle_movers",
    "chase_same_piece",
    "values",
}


def _int(table: dict[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise XiangqiError(
            f"[repetition] {key} must be a whole number {low}..{high}, not {value!r}"
        )
    return value


def _kinds(table: dict[str, Any], key: str, default: frozenset[Kind]) -> frozenset[Kind]:
    value = table.get(key)
    if value is None:
        return default
    names = {k.value for k in Kind}
    if not isinstance(value, list) or not all(isinstance(v, str) and v in names for v in value):
        raise XiangqiError(f"[repetition] {key} must be a list of piece kinds ({', '.join(names)})")
    return frozenset(Kind(v) for v in value)


def _forbidden(table: dict[str, Any]) -> frozenset[str]:
    value = table.get("forbidden")
    if value is None:
        return frozenset(FORBIDDABLE)
    if not isinstance(value, list) or not all(v in FORBIDDABLE for v in value):
        raise XiangqiError(f"[repetition] forbidden must list some of {', '.join(FORBIDDABLE)}")
    if "check" not in value:
        # Seed 26.1: perpetual check is not allowed under any circumstances.
        raise XiangqiError("[repetition] forbidden must include 'check' (seed 26.1)")
    return frozenset(value)


def _values(table: dict[str, Any]) -> dict[Kind, int]:
    value = table.get("values")
    out = _default_values()
    if value is None:
        return out
    if not isinstance(value, dict):
        raise XiangqiError("[repetition.values] must be a table of piece kind = value")
    for name, number in value.items():
        if name not in {k.value for k in out}:
            raise XiangqiError(f"[repetition.values]: {name!r} is not a piece kind with a value")
        if isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= 100:
            raise XiangqiError(f"[repetition.values] {name} must be a whole number 1..100")
        out[Kind(name)] = number
    return out


def repetition_from_table(table: Any) -> RepetitionRules:
    """Parse the `[repetition]` table; XiangqiError names the fault."""
    if not isinstance(table, dict):
        raise XiangqiError("[repetition] must be a table")
    unknown = set(table) - _KEYS
    if unknown:
        raise XiangqiError(f"[repetition]: unknown key {sorted(unknown)[0]!r}")
    same = table.get("chase_same_piece", False)
    if not isinstance(same, bool):
        raise XiangqiError("[repetition] chase_same_piece must be true or false")
    return RepetitionRules(
        occurrences=_int(table, "occurrences", 2, 10, 3),
        change_chances=_int(table, "change_chances", 0, 10, 1),
        kill_moves=_int(table, "kill_moves", 1, 3, 1),
        forbidden=_forbidden(table),
        idle_attackers=_kinds(table, "idle_attackers", frozenset({Kind.KING, Kind.PAWN})),
        idle_movers=_kinds(table, "idle_movers", frozenset()),
        chase_same_piece=same,
        values=_values(table),
    )
