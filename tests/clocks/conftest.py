"""A scripted table: events at chosen instants on a fake time line (no real waiting)."""

from __future__ import annotations

import pytest

from ball.clocks import Clock, ClockEvent, get_control

T0 = 1_800_000_000.0  # an arbitrary wall-clock instant


class Table:
    def __init__(self, control: str, players: list[str] | None = None) -> None:
        self.clock = Clock(get_control(control), players)
        self.t0 = T0
        self.t = T0

    def at(self, seconds: float) -> Table:
        self.t = T0 + seconds
        return self

    def wait(self, seconds: float) -> Table:
        self.t += seconds
        return self

    def do(self, kind: str, **data) -> Table:
        self.clock.apply(ClockEvent(kind, self.t, data))
        return self

    def look(self) -> dict:
        self.clock.advance(self.t)
        return self.clock.snapshot()

    def notices(self, kind: str) -> list[dict]:
        self.clock.advance(self.t)
        return [e for e in self.clock.timeline if e["source"] == "clock" and e["kind"] == kind]


@pytest.fixture
def table():
    return Table
