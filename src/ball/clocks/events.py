"""The logged clock events: what people do at a clock (start, press, release, pause, resume,
next_period, end_period, finish, adjust), the fields each kind may carry, and the checks an
event passes before `ball.clocks.clock` folds it in. A refused event raises ClockRejected.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

# Kinds of logged events; ARBITER_KINDS need the arbiter's PIN in the web API.
EVENT_KINDS = (
    "start",
    "press",
    "release",
    "pause",
    "resume",
    "next_period",
    "end_period",
    "finish",
    "adjust",
)
ARBITER_KINDS = frozenset({"pause", "resume", "adjust", "end_period", "finish"})
# The fields each kind may carry in `data`; anything else is refused, never stored.
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "start": frozenset({"first", "attack"}),
    "press": frozenset({"by", "next", "attack"}),
    "release": frozenset({"by"}),
    "pause": frozenset({"reason"}),
    "resume": frozenset({"reason"}),
    "next_period": frozenset({"first", "attack"}),
    "end_period": frozenset({"reason"}),
    "finish": frozenset({"reason", "winner", "score"}),
    "adjust": frozenset({"player", "seconds", "reason"}),
}
_MAX_DATA = 2000  # characters of JSON: a clock event is small


class ClockRejected(ValueError):
    """An event that the clock cannot accept in its current state (nothing is recorded)."""


@dataclass(frozen=True)
class ClockEvent:
    kind: str
    at: float
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "at": self.at, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ClockEvent:
        if not isinstance(raw, dict):
            raise ClockRejected("an event must be an object with kind and at")
        kind, at, data = raw.get("kind"), raw.get("at"), raw.get("data", {})
        if kind not in EVENT_KINDS:
            raise ClockRejected(f"kind: {kind!r} is not one of {', '.join(EVENT_KINDS)}")
        if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
            raise ClockRejected("at: must be a number of seconds")
        if not isinstance(data, dict):
            raise ClockRejected("data: must be an object")
        return cls(kind, float(at), data)


@dataclass(frozen=True)
class Notice:
    """Something the clock computed: flag, stage, turn_overrun, period_overrun, threshold,
    release_window, final_drive, period_end."""

    kind: str
    at: float
    player: int | None
    data: dict[str, Any] = field(default_factory=dict)


def check_data(event: ClockEvent) -> None:
    allowed = EVENT_FIELDS[event.kind]
    unknown = sorted(set(event.data) - allowed)
    if unknown:
        words = ", ".join(sorted(allowed)) or "none"
        raise ClockRejected(f"data: {', '.join(unknown)} is not a field of {event.kind} ({words})")
    try:
        size = len(json.dumps(event.data))
    except (TypeError, ValueError) as exc:
        raise ClockRejected(f"data: not plain JSON ({exc})") from exc
    if size > _MAX_DATA:
        raise ClockRejected(f"data: too long ({size} characters, at most {_MAX_DATA})")
    reason = event.data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise ClockRejected("reason: must be a text")
