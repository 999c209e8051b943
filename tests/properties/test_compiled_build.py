"""The compiled build plays exactly as the pure build: the same legal lists, events and
positions after every action, the same perft counts over random games (hypothesis), and the
same moves from the search for a seed.

The pure build runs in a child process started with BALL_PURE=1, not beside the compiled one
in this process: both builds are the same modules under the same names
(`ball.games.ball.engine.state`, ...), and the search imports the engine by those names, so a second
copy loaded here under other names would mix the two builds' classes; a child process imports the
pure package exactly as a pure run does. One child serves the whole module (a line of JSON per
request), so an example costs a game, not a Python start-up. Skipped where no compiled build is in
use (the pure lane, or a machine without a C compiler): there both sides would be the same code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .build_trace import answer, build

pytestmark = pytest.mark.skipif(build() != "compiled", reason="no compiled build in use")

RULESETS = ["standard", "pe", "cards"]
choices = st.lists(st.integers(min_value=0, max_value=2**31), min_size=1, max_size=120)


class PureBuild:
    """The child process that answers `build_trace` requests with the pure build."""

    def __init__(self) -> None:
        env = {**os.environ, "BALL_PURE": "1"}
        script = Path(__file__).with_name("build_trace.py")
        self.proc = subprocess.Popen(
            [sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=env,
        )  # fmt: skip
        self.build = self._read()

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the pure build's process stopped"
        return json.loads(line)

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def pure() -> Iterator[PureBuild]:
    child = PureBuild()
    yield child
    child.close()


def here(request: dict[str, Any]) -> Any:
    """The compiled build's answer, through JSON as the child's is (tuples become lists)."""
    return json.loads(json.dumps(answer(request)))


def test_the_child_runs_the_pure_build(pure):
    assert pure.build == "pure"


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=choices)
def test_random_games_agree_action_by_action(pure, ruleset, picks):
    request = {"what": "game", "ruleset": ruleset, "choices": picks, "depth": 2}
    mine, theirs = here(request), pure.ask(request)
    for k, (a, b) in enumerate(zip(mine["steps"], theirs["steps"], strict=True)):
        assert a == b, f"the builds part at action {k + 1} ({b['action']})"
    assert mine["perft"] == theirs["perft"]
    assert mine["over"] == theirs["over"]


@pytest.mark.parametrize("seed", [3, 11])
def test_the_search_chooses_the_same_moves_for_a_seed(pure, seed):
    request = {"what": "search", "level": "medium", "seed": seed, "iterations": 60, "plies": 12}
    moves = here(request)
    assert len(moves) == 12
    assert moves == pure.ask(request)
