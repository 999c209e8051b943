"""The `ball mahjong` contracts through the installed `ball` command, as outside scripts run
it: JSON on standard output, exit 2 with exactly one line on standard error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BALL = Path(sys.executable).parent / "ball"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BALL), "mahjong", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_fan_and_seat_through_the_command(tmp_path):
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({"hand": ["W2", "W3", "W6", "W6"], "win_tile": "W4",
                                "melds": [["GANG", "J1"], ["PENG", "J2"], ["PENG", "J3"]]}))
    proc = run("fan", str(hand))
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["fan"] == 95
    proc = run("seat", "--players", "16", "--sessions", "7", "--json")
    assert proc.returncode == 0
    sessions = json.loads(proc.stdout)["sessions"]
    assert len(sessions) == 7 and all(len(s) == 4 for s in sessions)


def test_bad_input_exit_2_one_line():
    for args, stdin in [(("fan", "-"), '{"hand": [], "win_tile": "W1"}'),
                        (("fan", "-"), "[]"),
                        (("seat", "--players", "10", "--sessions", "2", "--json"), None)]:
        proc = run(*args, stdin=stdin)
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
