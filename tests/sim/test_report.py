"""`ball sim report` (issue 14): the figures, the Wilson intervals, the readings, HTML + PDF."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from ball.cli import app
from ball.games.ball.sim import MatchOutcome, SimConfig, make_backend, play_match, run_in_dir
from ball.games.ball.sim.report import load_run, pct, render_html, sections
from ball.games.ball.sim.rundir import RunDirError, shard_path
from ball.games.ball.sim.stats import compute, wilson


def _m(winner, reason, td, pb, turns, log=()) -> MatchOutcome:
    """A hand-made outcome; `pb` is each half's ATK PB as (A's, B's)."""
    steals = Counter(e["choice"] for e in log)
    halves = [{"A": {"atk": a, "def": 0}, "B": {"atk": b, "def": 0}} for a, b in pb]
    return MatchOutcome(winner, reason, td, halves, list(turns), steals, 0, list(log))


def _steal(half, coach, choice, then):
    return {"half": half, "coach": coach, "choice": choice, "then": then}


# Four matches worked out by hand below (turn cap 10).
HAND = [
    _m("A", "touchdowns", {"A": 1, "B": 0}, [(6, 0), (0, 4)], [5, 10],
       [_steal(1, "B", "reset", "other"), _steal(1, "B", "continue", "other")]),
    _m("B", "attack-efficiency", {"A": 0, "B": 0}, [(8, 0), (0, 2)], [10, 10]),
    _m(None, "draw", {"A": 0, "B": 0}, [(0, 0), (0, 0)], [10, 10]),
    _m("A", "touchdowns", {"A": 1, "B": 1}, [(4, 0), (0, 6)], [3, 7],
       [_steal(2, "A", "continue", "own")]),
]  # fmt: skip


def test_wilson_matches_hand_computed_values() -> None:
    # 5 of 10: centre 0.5, half-width 1.96·√(0.025 + 0.0096)/1.384 = 0.2634 (Wilson 1927).
    five = wilson(5, 10)
    assert five.share == 0.5
    assert math.isclose(five.low, 0.2366, abs_tol=5e-5)
    assert math.isclose(five.high, 0.7634, abs_tol=5e-5)
    # 0 of 10: the interval is [0, z²/(n + z²)] = [0, 0.2775], not of zero width.
    none = wilson(0, 10)
    assert none.low == 0.0 and math.isclose(none.high, 3.8415 / 13.8415, abs_tol=5e-5)
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)
    with pytest.raises(ValueError, match="not between 0 and total"):
        wilson(11, 10)


def test_wilson_agrees_with_the_normal_interval_for_large_samples() -> None:
    n, k = 1_000_000, 540_000
    normal = 1.96 * math.sqrt(0.54 * 0.46 / n)
    s = wilson(k, n)
    assert math.isclose(s.low, 0.54 - normal, abs_tol=1e-5)
    assert math.isclose(s.high, 0.54 + normal, abs_tol=1e-5)


@pytest.mark.hypothesis
@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_its_share_and_is_symmetric(kn: tuple[int, int]) -> None:
    k, n = kn
    s, mirror = wilson(k, n), wilson(n - k, n)
    assert 0.0 <= s.low <= s.share <= s.high <= 1.0
    assert s.low < s.high
    assert math.isclose(s.low, 1 - mirror.high, abs_tol=1e-12)


def test_figures_of_a_hand_computed_run() -> None:
    st_ = compute(HAND, cap=10)
    assert st_.matches == 4
    assert {k: v.count for k, v in st_.reasons.items()} == {
        "touchdowns": 2, "attack-efficiency": 1, "defensive-superiority": 0, "draw": 1,
    }  # fmt: skip
    assert st_.reasons["touchdowns"].share == 0.5
    # Three decided matches, two won by A, the first attacker.
    assert (st_.first_attacker.count, st_.first_attacker.total) == (2, 3)
    assert (st_.first_attacker_all.count, st_.first_attacker_all.total) == (2, 4)
    assert st_.pb_per_half.values == (0, 0, 2, 4, 4, 6, 6, 8)  # per half, A's + B's
    assert st_.pb_per_half.mean == 30 / 8 and st_.pb_per_half.median == 4
    # Per match: 20·1/10, 20·0/10, (no PB: left out), 20·2/10.
    assert st_.td_per_20_pb.values == (0.0, 2.0, 4.0)
    assert st_.half_turns.values == (3, 5, 7, 10, 10, 10, 10, 10)
    assert (st_.capped.count, st_.capped.total) == (5, 8)
    assert st_.steals_recorded
    assert (st_.choices["continue"].count, st_.choices["continue"].total) == (2, 3)
    assert (st_.halves_with_steal.count, st_.halves_with_steal.total) == (2, 8)
    assert st_.then["continue"]["own"].count == 1 and st_.then["continue"]["own"].total == 2
    assert st_.then["reset"]["other"].count == 1 and st_.then["reset"]["own"].count == 0


def test_readings_state_the_figures_in_english() -> None:
    en = [s.reading for s in sections(compute(HAND, cap=10), "en")]
    assert en[1] == "The first attacker wins 67 % of the 3 decided matches (95 %: 21 %–94 %)."
    assert "Touchdowns decide 50 % of matches" in en[0]
    assert "after a reset the stealer scores in that half 0 % of the time" in en[4]


# Slow lane: every section draws its chart with matplotlib, two languages and two whole
# pages here (about 4 s of CPU); the English figures alone stay in the quick lane above.
@pytest.mark.slow
def test_readings_state_the_figures_in_each_language() -> None:
    st_ = compute(HAND, cap=10)
    en = [s.reading for s in sections(st_, "en")]
    assert en[1] == "The first attacker wins 67 % of the 3 decided matches (95 %: 21 %–94 %)."
    assert "Touchdowns decide 50 % of matches" in en[0]
    assert "after a reset the stealer scores in that half 0 % of the time" in en[4]
    for lang in ("ko", "bg"):
        readings = [s.reading for s in sections(st_, lang)]
        assert all(r and r not in en for r in readings), lang
        assert "67 %" in readings[1] and "21 %" in readings[1]
        page = render_html({"agent_a": "greedy", "agent_b": "random", "ruleset": "standard",
                            "half_turns": 10, "seed": 1}, st_, lang)  # fmt: skip
        assert "Self-play report" not in page and "How matches are decided" not in page


def test_a_choice_never_made_has_no_outcome_in_the_reading() -> None:
    only_continue = [_m("A", "touchdowns", {"A": 1, "B": 0}, [(5, 0), (0, 5)], [4, 6],
                        [_steal(1, "B", "continue", "own")])]  # fmt: skip
    reading = sections(compute(only_continue, cap=10), "en")[4].reading
    assert "after a continue" in reading and "after a reset" not in reading


def test_percentages_are_whole_above_ten_and_one_decimal_below() -> None:
    assert (pct(0.537), pct(0.025), pct(0.0), pct(1.0)) == ("54 %", "2.5 %", "0 %", "100 %")


def test_steal_log_agrees_with_the_steal_counts_and_the_touchdowns() -> None:
    config = SimConfig(matches=6, agent_a="greedy", agent_b="random", half_turns=12, seed=3)
    logged = 0
    for i in range(config.matches):
        out = play_match(i, config)
        assert Counter(e["choice"] for e in out.steal_log) == out.steals
        other = {"A": "B", "B": "A"}
        for e in out.steal_log:
            assert e["half"] in (1, 2)
            if e["then"] == "own":
                assert out.td[e["coach"]] >= 1
            elif e["then"] == "other":
                assert out.td[other[e["coach"]]] >= 1
            else:
                assert e["then"] == "none" and out.turns[e["half"] - 1] == config.half_turns
        logged += len(out.steal_log)
    assert logged > 0  # the checks above were exercised


def _run(tmp: Path, matches: int = 6) -> Path:
    config = SimConfig(matches=matches, agent_a="greedy", agent_b="greedy", half_turns=8, seed=5)
    run_in_dir(tmp / "run", config, make_backend("process", 1), batch_size=3)
    return tmp / "run"


def test_a_run_written_before_steal_outcomes_still_reports(tmp_path: Path) -> None:
    run = _run(tmp_path)
    for n in (0, 1):  # drop steal_log as the shards of the first version lack it
        with sqlite3.connect(shard_path(run, n)) as db:
            for idx, doc in db.execute("SELECT idx, doc FROM outcome").fetchall():
                data = json.loads(doc)
                del data["steal_log"]
                db.execute("UPDATE outcome SET doc = ? WHERE idx = ?", (json.dumps(data), idx))
        db.close()
    manifest, st_ = load_run(run)
    assert not st_.steals_recorded and st_.matches == 6
    assert "before steal outcomes were stored" in sections(st_, "en")[4].reading
    assert '<img src="data:image/svg+xml;base64,' in render_html(manifest, st_, "en")


def test_an_unfinished_run_is_refused(tmp_path: Path) -> None:
    run = _run(tmp_path)
    shard_path(run, 1).unlink()
    with pytest.raises(RunDirError, match=r"not complete \(1 of 2 batches stored\)"):
        load_run(run)


@pytest.mark.parametrize("make", ["missing", "file", "no-manifest"])
def test_cli_refuses_a_bad_run_path_in_one_line(tmp_path: Path, make: str) -> None:
    target = tmp_path / "x"
    if make == "file":
        target.write_text("not a run")
    elif make == "no-manifest":
        target.mkdir()
    result = CliRunner().invoke(app, ["sim", "report", str(target)])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and str(target) in result.stderr
    assert not (target / "report").exists()


def test_cli_refuses_an_unknown_language(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sim", "report", str(tmp_path), "--lang", "fr"])
    assert result.exit_code == 2 and "unknown --lang 'fr'" in result.stderr


def _squash(text: str) -> str:
    """Without whitespace: the PDF wraps lines anywhere, Korean ones even inside words."""
    return re.sub(r"\s+", "", text)


@pytest.mark.pdf
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_cli_writes_html_and_a_pdf_carrying_the_readings(tmp_path: Path, lang: str) -> None:
    if shutil.which("pdftotext") is None:
        message = "poppler-utils is not installed (bash scripts/setup.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI runs the set-up: a missing poppler is a broken install
        pytest.skip(message)
    run = _run(tmp_path)
    result = CliRunner().invoke(
        app, ["sim", "report", str(run), "--out", str(tmp_path / "rep"), "--lang", lang]
    )
    assert result.exit_code == 0, result.output
    html = (tmp_path / "rep" / "report.html").read_text()
    pdf = tmp_path / "rep" / "report.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    text = _squash(
        subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                       check=True).stdout.decode()
    )  # fmt: skip
    _, st_ = load_run(run)
    for s in sections(st_, lang):
        assert s.reading in html
        assert _squash(s.reading) in text, s.reading
    assert html.count('<img src="data:image/svg+xml;base64,') == 6
