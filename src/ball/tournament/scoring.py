"""Points for each way a round can end: organiser data (defaults: win 1, draw ½, loss 0)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from ball.tournament.errors import TournamentError

# Named scoring systems an organiser picks by name (`ball event create --scoring 2-1-0`):
# win-draw-loss points, every other field following them (see `Scoring.from_dict`).
# Xiangqi 14.1 is 1-½-0; 2-1-0 keeps whole numbers (the seed's team match points, 14.2).
NAMED: dict[str, dict[str, float]] = {
    "1-0.5-0": {"win": 1, "draw": 0.5, "loss": 0},
    "1-½-0": {"win": 1, "draw": 0.5, "loss": 0},
    "2-1-0": {"win": 2, "draw": 1, "loss": 0},
    "3-1-0": {"win": 3, "draw": 1, "loss": 0},
}


def named(name: str) -> dict[str, float]:
    """The fields of a named scoring system; a clear error naming the known ones."""
    try:
        return dict(NAMED[name.strip()])
    except KeyError:
        raise TournamentError(
            f"scoring: unknown system {name!r}; known: {', '.join(NAMED)} (or a JSON object)"
        ) from None


@dataclass(frozen=True)
class Scoring:
    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    pab: float = 1.0  # pairing-allocated bye (FIDE: a win)
    half_bye: float = 0.5  # requested half-point bye
    full_bye: float = 1.0
    zero_bye: float = 0.0

    def points(self, code: str) -> float:
        """Points of one TRF result code (1 = 0 + - U H F Z; blank = not yet played)."""
        return self.by_code()[code]

    def by_code(self) -> dict[str, float]:
        """Points of every TRF result code (a whole crosstable looks its codes up here)."""
        return {
            "1": self.win,
            "=": self.draw,
            "0": self.loss,
            "+": self.forfeit_win,
            "-": self.forfeit_loss,
            "U": self.pab,
            "H": self.half_bye,
            "F": self.full_bye,
            "Z": self.zero_bye,
            " ": 0.0,
        }

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Scoring:
        return cls.from_dict(json.loads(text) if text else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scoring:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise TournamentError(
                f"scoring: unknown field(s) {', '.join(sorted(unknown))}; known: "
                f"{', '.join(sorted(known))}"
            )
        values = {}
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise TournamentError(f"scoring: {key} must be a number >= 0, got {value!r}")
            values[key] = float(value)
        # Results that stand for a win or a draw follow the organiser's win and draw unless
        # set themselves (FIDE: a forfeit win, the pairing-allocated and the full-point bye
        # score as a win, the half-point bye as a draw): 3-1-0 makes a forfeit win 3, not 1.
        if "win" in values:
            for name in ("forfeit_win", "pab", "full_bye"):
                values.setdefault(name, values["win"])
        if "draw" in values:
            values.setdefault("half_bye", values["draw"])
        return cls(**values)
