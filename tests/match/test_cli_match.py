"""`ball match decide`: prints the decision as JSON; bad sheets exit 2 with one line."""

from __future__ import annotations

import copy
import json

import pytest
from match_sheets import ISSUE_EXAMPLE, half, mutated, set_field, sheet
from typer.testing import CliRunner

from ball.games.ball.cli.match import app
from ball.games.ball.match.result import decide

runner = CliRunner()


def test_cli_decide_file(tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(ISSUE_EXAMPLE))
    result = runner.invoke(app, ["decide", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == decide(copy.deepcopy(ISSUE_EXAMPLE)).as_dict()


def test_cli_decide_stdin():
    s = sheet(half("A", None, 6, 2), half("B", None, 2, 6))
    result = runner.invoke(app, ["decide", "-"], input=json.dumps(s))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["reason"] == "draw"


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        (json.dumps(mutated(set_field(("halves", 0, "pb", "A", "atk"), 8))), "dual-entry"),
        ("{not json", "not valid JSON"),
    ],
)
def test_cli_bad_sheet_exits_2_with_one_line(text, fault):
    result = runner.invoke(app, ["decide", "-"], input=text)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0]
    assert result.stdout == ""


def test_cli_missing_file_exits_2(tmp_path):
    result = runner.invoke(app, ["decide", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert "no such file" in result.stderr
