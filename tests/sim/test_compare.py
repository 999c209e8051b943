"""`ball sim compare` (issue 14): two rulesets on the same seeded matches, paired differences."""

from __future__ import annotations

import json
import math

from typer.testing import CliRunner

from ball.cli import app
from ball.games.ball.sim import SimConfig, run
from ball.games.ball.sim.compare import compare, paired

CONFIG = SimConfig(matches=8, agent_a="greedy", agent_b="random", half_turns=5, seed=3)


def test_paired_interval_is_mean_plus_minus_z_sd_over_root_n() -> None:
    d = paired("x", [1.0, 2.0, 3.0, 0.0], [2.0, 4.0, 3.0, 2.0])  # differences 1, 2, 0, 2
    diffs = [1.0, 2.0, 0.0, 2.0]
    mean = sum(diffs) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / 3)
    assert d.diff == mean and math.isclose(d.high - d.diff, 1.96 * sd / 2)
    assert math.isclose(d.diff - d.low, d.high - d.diff) and (d.mean_a, d.mean_b) == (1.5, 2.75)


def test_a_ruleset_against_itself_differs_by_exactly_nothing() -> None:
    # Same seeds, same rules: the paired design gives identical matches.
    for row in compare(CONFIG, "standard", "standard"):
        assert row.diff == row.low == row.high == 0.0 and row.mean_a == row.mean_b


def test_means_agree_with_the_summary_of_each_ruleset() -> None:
    rows = {r.statistic: r for r in compare(CONFIG, "standard", "pe")}
    for name, which in (("standard", "mean_a"), ("pe", "mean_b")):
        summary = run(SimConfig(**{**CONFIG.__dict__, "ruleset": name}))
        assert getattr(rows["A wins"], which) == summary.wins["A"] / 8
        assert math.isclose(getattr(rows["PB per half"], which), summary.mean_pb_per_half)


def test_cli_json_and_one_line_errors() -> None:
    base = ["sim", "compare", "--matches", "4", "--half-turns", "4", "--agent-b", "random"]
    ok = CliRunner().invoke(app, [*base, "--ruleset", "standard", "--ruleset", "pe", "--json"])
    assert ok.exit_code == 0
    assert [r["statistic"] for r in json.loads(ok.stdout)][:3] == ["A wins", "B wins", "draws"]
    one = CliRunner().invoke(app, [*base, "--ruleset", "standard"])
    assert one.exit_code == 2 and "exactly two rulesets" in one.stderr
    bad = CliRunner().invoke(app, [*base, "--ruleset", "standard", "--ruleset", "nowhere"])
    assert bad.exit_code == 2 and bad.stderr.strip().count("\n") == 0 and "nowhere" in bad.stderr
