"""Per-event Xiangqi rule parameters, read from TOML data (`rules/*.toml`).

Only what an organiser may change lives here (seed 4.2.4's natural-move limit today; the
repetition rulings of §23–§28 will add their own table). Unknown keys are refused so that a
typo never silently falls back to a default.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from .errors import XiangqiError
from .repetition_rules import RepetitionRules, repetition_from_table


@dataclass(frozen=True, slots=True)
class XiangqiRules:
    name: str = "chinese"
    title: str = "Chinese Xiangqi competition rules"
    # Seed 4.2.4: moves by EACH side without a capture before the game is drawn; 0 = no limit.
    natural_move_limit: int = 60
    # Seed §23–§28: how repetitions are ruled (`[repetition]`, see repetition_rules).
    repetition: RepetitionRules = field(default_factory=RepetitionRules)
    # The arbiter's log (ball.games.xiangqi.engine.gamelog): seed 4.1.8, the third foul in one game
    # loses it; 7.1, every four consecutive moves missing from a player's record is one foul
    # (9.1.7); 7.2, a player with less than three minutes left may stop recording.
    fouls_to_lose: int = 3
    missed_moves_per_foul: int = 4
    record_relief_seconds: int = 180

    @property
    def natural_move_plies(self) -> int:
        """The limit in plies (half-moves): both sides' moves, so twice the seed's number."""
        return 2 * self.natural_move_limit


_TOP_KEYS = {"name", "title", "natural_moves", "repetition", "arbiter"}
_ARBITER_KEYS = {"fouls_to_lose": (1, 100), "missed_moves_per_foul": (1, 100),
                 "record_relief_seconds": (0, 3600)}  # fmt: skip


def _natural_limit(table: Any) -> int:
    if not isinstance(table, dict):
        raise XiangqiError("[natural_moves] must be a table")
    unknown = set(table) - {"limit"}
    if unknown:
        raise XiangqiError(f"[natural_moves]: unknown key {sorted(unknown)[0]!r}")
    limit = table.get("limit", 60)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= 1000:
        raise XiangqiError(f"[natural_moves] limit must be a whole number 0..1000, not {limit!r}")
    return limit


def _arbiter(table: Any) -> dict[str, int]:
    if not isinstance(table, dict):
        raise XiangqiError("[arbiter] must be a table")
    unknown = set(table) - set(_ARBITER_KEYS)
    if unknown:
        raise XiangqiError(f"[arbiter]: unknown key {sorted(unknown)[0]!r}")
    out = {}
    for key, value in table.items():
        low, high = _ARBITER_KEYS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise XiangqiError(f"[arbiter] {key} must be a whole number {low}..{high}")
        out[key] = value
    return out


def rules_from_toml(text: str) -> XiangqiRules:
    """Parse a rules file; XiangqiError names the fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise XiangqiError(f"rules file is not valid TOML ({exc})") from None
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise XiangqiError(f"rules file: unknown key {sorted(unknown)[0]!r}")
    for key in ("name", "title"):
        if key in data and not isinstance(data[key], str):
            raise XiangqiError(f"rules file: {key} must be a string")
    return XiangqiRules(
        name=data.get("name", "custom"),
        title=data.get("title", data.get("name", "custom")),
        natural_move_limit=_natural_limit(data.get("natural_moves", {})),
        repetition=repetition_from_table(data.get("repetition", {})),
        **_arbiter(data.get("arbiter", {})),
    )


def _rules_folder() -> Traversable:
    return resources.files("ball.games.xiangqi.engine").joinpath("rules")


def shipped_rules() -> list[str]:
    """Names of the rule files shipped in the package (`rules/NAME.toml`)."""
    folder = _rules_folder()
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_rules(name: str = "chinese") -> XiangqiRules:
    """A shipped rule set by name."""
    if name not in shipped_rules():
        raise XiangqiError(f"no Xiangqi rules named {name!r} (have: {', '.join(shipped_rules())})")
    text = _rules_folder().joinpath(f"{name}.toml").read_text("utf-8")
    return rules_from_toml(text)
