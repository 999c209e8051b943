"""Time controls as data: one TOML or JSON file per control, validated on load.

A control combines optional parts, each off when absent:
- `stages`: each player's own main time, given stage by stage (`moves` in `time`, the last
  stage may `repeat`; a stage without `moves` runs to the end of the game), with a Fischer
  `increment` or a simple/Bronstein `delay`;
- `turn_limit`: a limit on each turn (or only its action phase), overruns charged in penalty
  points per started `per` seconds, or just counted when `per` is absent;
- `period_budget`: time each player may use in one period (a Mahjong hand), charged likewise;
- `threshold`: penalty points in one period at which the arbiter is alerted;
- `half_timer`: one real-time timer per period shared by both sides (BALL halves), with the
  Final Drive when it expires;
- `release`: BALL's release-phase windows (mover, then opponent, then the referee).

Each game brings its own controls (`Game.clock_controls`): made from its rules, or shipped as
files in its folder (`ShippedControls`).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

_UNIT_SECONDS = {"h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([hms])")


class ControlError(ValueError):
    """A time control that cannot be used; the message names the file and the field."""


def parse_duration(value: object) -> float:
    """Seconds from a number (seconds) or a text such as "1h30m", "90m", "15s", "2.5s"."""
    if isinstance(value, bool):
        raise ValueError("a duration must be a number of seconds or a text like '90m'")
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str):
        text = value.strip().lower().replace(" ", "")
        parts = _DURATION.findall(text)
        if not parts or "".join(n + u for n, u in parts) != text:
            raise ValueError(f"{value!r} is not a duration (write e.g. '90m', '1h30m', '15s')")
        seconds = sum(float(n) * _UNIT_SECONDS[u] for n, u in parts)
    else:
        raise ValueError("a duration must be a number of seconds or a text like '90m'")
    if seconds < 0:
        raise ValueError("a duration cannot be negative")
    return seconds


def human_duration(seconds: float) -> str:
    """Labels in the rules' own units: "15 s", "90 min", "1 min 30 s", "2 h 30 min"."""
    whole = round(seconds)
    if abs(seconds - whole) > 1e-9:
        return f"{seconds:g} s"
    if whole < 60:
        return f"{whole} s"
    if whole % 60 == 0 and whole < 7200:
        return f"{whole // 60} min"
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    parts.append(f"{secs} s" if secs else "")
    return " ".join(p for p in parts if p)


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("time", "per", "free_at_period_start", mode="before", check_fields=False)
    @classmethod
    def _duration(cls, value: object) -> float | None:
        return None if value is None else parse_duration(value)


class Stage(_Part):
    moves: int | None = Field(default=None, ge=1)
    time: float
    repeat: bool = False


class Delay(_Part):
    kind: Literal["simple", "bronstein"]
    time: float


class Overrun(_Part):
    """A limit whose excess is charged `penalty_points` per started `per` seconds."""

    time: float = Field(gt=0)
    penalty_points: int = Field(default=0, ge=0)
    per: float | None = None

    @field_validator("per")
    @classmethod
    def _positive(cls, value: float | None) -> float | None:
        if value is not None and value <= 0:
            raise ValueError("per must be more than 0 seconds")
        return value


class TurnLimit(Overrun):
    phase: Literal["turn", "action"] = "turn"


class PeriodBudget(Overrun):
    free_at_period_start: float = 0.0


class Threshold(_Part):
    points: int = Field(ge=1)


class HalfTimer(_Part):
    time: float = Field(gt=0)
    stops_on_pause: bool = False
    final_drive: bool = True


class ReleaseWindow(_Part):
    who: Literal["mover", "opponent"]
    time: float = Field(gt=0)


class Release(_Part):
    windows: list[ReleaseWindow] = Field(min_length=1)


class TimeControl(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    game: str
    title: str
    source: str = ""
    players: list[str] = Field(min_length=2, max_length=8)
    period: str = "game"
    periods: int = Field(default=0, ge=0)  # 0: as many as the event needs
    on_flag: Literal["loss", "continue"] = "loss"
    stages: list[Stage] = Field(default_factory=list)
    increment: float = 0.0
    delay: Delay | None = None
    turn_limit: TurnLimit | None = None
    period_budget: PeriodBudget | None = None
    threshold: Threshold | None = None
    half_timer: HalfTimer | None = None
    release: Release | None = None

    @field_validator("increment", mode="before")
    @classmethod
    def _increment(cls, value: object) -> float:
        return parse_duration(value)

    @model_validator(mode="after")
    def _consistent(self) -> TimeControl:
        if len(set(self.players)) != len(self.players):
            raise ValueError("players: names must differ")
        for i, stage in enumerate(self.stages):
            last = i == len(self.stages) - 1
            if stage.moves is None and not last:
                raise ValueError(f"stages[{i}]: only the last stage may run to the end")
            if stage.repeat and (not last or stage.moves is None):
                raise ValueError(f"stages[{i}]: only a last stage with moves may repeat")
        if (self.increment or self.delay) and not self.stages:
            raise ValueError("increment/delay need a main time (stages)")
        if self.release and len(self.players) != 2:
            raise ValueError("release: the release-phase protocol is for two players")
        if self.half_timer and self.half_timer.final_drive and len(self.players) != 2:
            raise ValueError("half_timer: the Final Drive is for two players")
        if not (self.stages or self.turn_limit or self.period_budget or self.half_timer):
            raise ValueError("needs stages, a turn_limit, a period_budget or a half_timer")
        return self

    @property
    def has_main(self) -> bool:
        return bool(self.stages)

    def stage_label(self, index: int) -> str:
        stage = self.stages[min(index, len(self.stages) - 1)]
        span = human_duration(stage.time)
        return f"{stage.moves} moves in {span}" if stage.moves else f"{span} to the end"

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


def _message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "control"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def parse_control(text: str, origin: str = "control") -> TimeControl:
    """A control from TOML or JSON text (JSON when it starts with '{')."""
    try:
        raw = json.loads(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ControlError(f"{origin}: not valid TOML/JSON ({exc})") from exc
    return control_from(raw, origin)


def control_from(raw: Any, origin: str) -> TimeControl:
    """A control from its data (a game's own, built from its rules), checked like a file's:
    a fault is a `ControlError` naming `origin` and the field."""
    try:
        return TimeControl.model_validate(raw)
    except ValidationError as exc:
        raise ControlError(f"{origin}: {_message(exc)}") from exc


@dataclass(frozen=True)
class ShippedControls:
    """A game's controls shipped as files (one TOML or JSON file each in `folder`), with
    their titles as message ids (`titles`, each file's `title` word for word) so the clock
    pages show them in the reader's language: what `Game.clock_controls` names for a game
    whose controls are data (Xiangqi's art. 6 schemes, Mahjong's WMC clock)."""

    folder: Path
    titles: tuple[str, ...]

    def controls(self) -> dict[str, TimeControl]:
        """The folder's controls by name."""
        found: dict[str, TimeControl] = {}
        for entry in sorted(self.folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith((".toml", ".json")):
                control = parse_control(entry.read_text(encoding="utf-8"), entry.name)
                found[control.name] = control
        return found

    def title(self, title: str, gettext: Callable[[str], str]) -> str | None:
        """`title` in the reader's words if it is one of these controls', else None."""
        return gettext(title) if title in self.titles else None


@cache
def builtin_controls() -> dict[str, TimeControl]:
    """The registered games' controls (`Game.clock_controls`: BALL's `ball-standard`, made
    from its standard ruleset's `[time]` table; the control files Xiangqi and Mahjong
    ship), by name."""
    from ball.games import GAMES, load

    found: dict[str, TimeControl] = {}
    for game in GAMES.values():
        if game.clock_controls is not None:
            found |= load(game.clock_controls).controls()
    return dict(sorted(found.items()))


def control_title(title: str, gettext: Callable[[str], str]) -> str:
    """A control's title in the reader's words (`gettext`): the game whose control it is
    words it (`title` of its `Game.clock_controls`); an organiser's own title is kept."""
    from ball.games import GAMES, load

    for game in GAMES.values():
        if game.clock_controls is not None:
            shown = load(game.clock_controls).title(title, gettext)
            if shown is not None:
                return str(shown)
    return title


def get_control(name: str) -> TimeControl:
    controls = builtin_controls()
    if name not in controls:
        known = ", ".join(sorted(controls))
        raise ControlError(f"unknown time control {name!r} (known: {known})")
    return controls[name]
