"""The sanction ladder (R-sanctions, D-19) as data, and the record of a sanction given."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

# What a step does to the game; the Match applies these (see ball.games.ball.match.flow).
EFFECTS = ("none", "lose-turn", "lose-possession", "forfeit")


@dataclass(frozen=True)
class Step:
    name: str
    effect: str


@dataclass(frozen=True)
class Ladder:
    steps: tuple[Step, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.steps)

    def step(self, name: str) -> Step:
        for s in self.steps:
            if s.name == name:
                return s
        raise ValueError(f"unknown sanction step {name!r}; steps: {', '.join(self.names)}")

    def after(self, previous: str | None) -> Step:
        """The next step up from `previous` (the first step when there was none); the top
        step repeats once reached."""
        if previous is None:
            return self.steps[0]
        index = self.names.index(previous)
        return self.steps[min(index + 1, len(self.steps) - 1)]


@dataclass(frozen=True)
class Sanction:
    """A sanction as recorded: who, which step, why, and when (half, turn, half time)."""

    coach: str
    step: str
    reason: str
    half: int
    turn: int
    time: int | None  # seconds since the half began; None when the match is untimed


def load_ladder(path: str | Path | None = None) -> Ladder:
    if path is None:
        text = resources.files("ball").joinpath("sanctions.toml").read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    steps = []
    for raw in data.get("step", []):
        name, effect = raw.get("name"), raw.get("effect")
        if not isinstance(name, str) or effect not in EFFECTS:
            raise ValueError(f"sanction step {raw!r}: needs a name and an effect in {EFFECTS}")
        steps.append(Step(name, effect))
    if not steps:
        raise ValueError("the sanction ladder has no [[step]]")
    return Ladder(tuple(steps))


LADDER = load_ladder()
