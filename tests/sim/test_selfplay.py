"""Self-play: agents play only legal actions, results are reproducible, sheets decide."""

from __future__ import annotations

import json
import subprocess
import sys

from ball.games.ball.ai import agent, evaluate
from ball.games.ball.engine import Game
from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.state import S
from ball.games.ball.sim import SimConfig, play_match, run


def test_agents_choose_legal_actions() -> None:
    for name in ("random", "greedy"):
        choose = agent(name, seed=3)
        g = Game.new()
        for _ in range(60):
            if g.is_over:
                break
            a = choose(g.state)
            assert a in legal(g.state)
            g.play_tuple(a)


def test_greedy_prefers_a_touchdown() -> None:
    # S's carrier one diagonal step from row 17: the greedy agent scores at once.
    g = Game.new()
    doc = g.to_json()
    for p in doc["pieces"]:
        if p["side"] == "S" and p["id"] == "X5":
            p["at"] = "G15"
    doc["to_move"] = "S"
    g = Game.from_json(doc)
    a = agent("greedy", seed=0)(g.state)
    g.play_tuple(a)
    assert g.score["S"] == 1 and g.is_over


def test_evaluation_favours_the_ball_holder() -> None:
    g = Game.new()
    assert evaluate(g.state, S) > evaluate(g.state, 1 - S)


def test_same_seed_same_matches_in_parallel_or_not() -> None:
    one = run(SimConfig(matches=6, agent_a="greedy", agent_b="random", half_turns=12, jobs=1))
    two = run(SimConfig(matches=6, agent_a="greedy", agent_b="random", half_turns=12, jobs=2))
    assert one.wins == two.wins and one.reasons == two.reasons
    assert one.mean_pb_per_half == two.mean_pb_per_half
    assert sum(one.wins.values()) == 6


def test_match_outcome_is_a_valid_decided_sheet() -> None:
    out = play_match(0, SimConfig(agent_a="greedy", agent_b="greedy", half_turns=30))
    assert out.reason in ("touchdowns", "attack-efficiency", "defensive-superiority", "draw")
    for pb in out.pb:  # dual entry per half, keyed by coach
        assert pb["A"]["atk"] == pb["B"]["def"] and pb["B"]["atk"] == pb["A"]["def"]
    if out.winner is None:
        assert out.reason == "draw"


def test_greedy_beats_random_over_a_seeded_series() -> None:
    summary = run(SimConfig(matches=10, agent_a="greedy", agent_b="random", half_turns=30))
    assert summary.wins["A"] >= 8


def test_cli_json_summary_and_bad_agent() -> None:
    ball = [sys.executable, "-m", "ball.cli"]
    out = subprocess.run([*ball, "sim", "run", "--matches", "3", "--half-turns", "8", "--json"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(out.stdout)["matches"] == 3
    bad = subprocess.run(
        [*ball, "sim", "run", "--agent-a", "nobody"], capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "nobody" in bad.stderr
