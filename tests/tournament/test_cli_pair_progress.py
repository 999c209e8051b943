"""`ball round pair` shows that it is working on a terminal, and only there (issue 15,
target 7: a large Swiss round spends seconds in the pairing engine, which reports no
progress of its own)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

BALL = [sys.executable, "-c", "import sys; from ball.cli import main; sys.argv[0] = 'ball'; main()"]


def _event(db: str) -> None:
    subprocess.run([*BALL, "event", "create", "--db", db, "--name", "X", "--system", "swiss",
                    "--rounds", "3"], check=True, capture_output=True)  # fmt: skip
    for name in ("Ann", "Bo", "Cy", "Di"):
        subprocess.run([*BALL, "event", "add-player", "--db", db, name], check=True,
                       capture_output=True)  # fmt: skip


@pytest.mark.process
def test_a_terminal_sees_the_pairing_at_work_and_a_pipe_sees_nothing(tmp_path):
    db = str(tmp_path / "e.db")
    _event(db)
    leader, follower = pty.openpty()
    done = subprocess.run([*BALL, "round", "pair", "--db", db], stdout=subprocess.PIPE,
                          stderr=follower, check=True)  # fmt: skip
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert b"Pairing the next round" in seen
    tables = done.stdout.decode().split("\n")
    assert len([t for t in tables if " - " in t]) == 2
    other = str(tmp_path / "other.db")
    _event(other)
    piped = subprocess.run([*BALL, "round", "pair", "--db", other], capture_output=True,
                           check=True)  # fmt: skip
    assert piped.stderr == b""
    assert len([t for t in piped.stdout.decode().split("\n") if " - " in t]) == 2
