"""A scripted table on a fake time line (no real waiting), and the real web app on a free
loopback port for the restart and browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
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

    def blocks(self, kind: str) -> int:
        """Penalty blocks charged by `kind` notices (one notice may carry several)."""
        return sum(n["data"]["blocks"] for n in self.notices(kind))

    def notices(self, kind: str) -> list[dict]:
        self.clock.advance(self.t)
        return [e for e in self.clock.timeline if e["source"] == "clock" and e["kind"] == kind]


@pytest.fixture
def table():
    return Table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db, port: int) -> subprocess.Popen:
    env = {**os.environ, "BALL_DB": str(db)}
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "ball.web.app:create_app"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True)
    deadline = time.monotonic() + 120  # a loaded CI machine imports slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/clock/api/controls").status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not come up")


@pytest.fixture
def web_server():
    """`start(db)` runs the app on `db` and returns (process, base URL); all are killed after."""
    started: list[subprocess.Popen] = []

    def start(db, port: int | None = None):
        port = port or free_port()
        proc = serve(db, port)
        started.append(proc)
        return proc, f"http://127.0.0.1:{port}"

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def monkeypatch_bulk():
    """Sets how many penalty blocks one step may charge before they are bulked (restored)."""
    import ball.clocks.clock as module

    saved = module._BULK_AFTER

    def set_to(value: int) -> None:
        module._BULK_AFTER = value

    yield set_to
    module._BULK_AFTER = saved
