"""The `ball xiangqi` contract through the installed command in a child process: exact
stdout and the one-line stderr with exit status 2, as outside scripts check it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

BALL = Path(sys.executable).parent / "ball"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BALL), "xiangqi", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_perft_and_legal_through_the_real_command() -> None:
    proc = run("perft", "--standard", "2")
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "1920"
    proc = run("legal", "-", stdin="rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w")
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 44


def test_apply_bad_move_is_one_line_exit_2() -> None:
    proc = run("apply", "--standard", "h2e2", "e0e2")
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "move 2 (e0e2)" in proc.stderr
    assert "Traceback" not in proc.stderr
