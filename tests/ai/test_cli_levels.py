"""The levels where a player chooses them: `ball play --vs LEVEL`, `ball sim run --a --b`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ball.cli import app
from ball.games.ball.match.record import parse

runner = CliRunner()


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_play_vs_easy_the_computer_plays_coach_b(tmp_path):
    out = tmp_path / "vs.bgn"
    args = ["play", "--untimed", "--vs", "easy", "-o", str(out)]
    result = runner.invoke(app, args, input="forfeit\n")
    assert result.exit_code == 0, result.output
    record = parse(out.read_text())
    # B is DEF in half 1 and moves first (§1): the computer played its turn, then A gave up
    entries = [e.action for e in record.halves[0].entries if e.action]
    assert entries, "the computer made no move"
    assert "1.1 B (N) > " in result.stdout
    assert record.tags["Forfeit"] == "A"
    assert runner.invoke(app, ["record", "check", str(out)]).exit_code == 0


def test_play_vs_refuses_unknown_levels_and_coaches(tmp_path):
    out = tmp_path / "n.bgn"
    message = one_error_line(runner.invoke(app, ["play", "--vs", "expert", "-o", str(out)]))
    assert "unknown agent 'expert'" in message and "hard" in message
    message = one_error_line(
        runner.invoke(app, ["play", "--vs", "hard", "--computer", "C", "-o", str(out)])
    )
    assert "--computer must be A or B" in message
    assert not out.exists()


def test_sim_run_takes_levels_with_short_options():
    args = ["sim", "run", "--a", "easy", "--b", "greedy", "--matches", "1", "--half-turns", "2"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    config = json.loads(result.stdout)["config"]
    assert (config["agent_a"], config["agent_b"]) == ("mcts-easy", "greedy")
    assert sum(json.loads(result.stdout)["wins"].values()) == 1


def test_sim_run_unknown_agent_is_one_line():
    result = runner.invoke(app, ["sim", "run", "--a", "nobody", "--matches", "1"])
    assert "unknown agent 'nobody'" in one_error_line(result)
