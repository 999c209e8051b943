"""`ball` and `ball --help` answer from the summary app, which imports no command group
(issue 15, target 1). What they print must stay word for word what the full app prints,
at any width, so the help lines kept in `ball.cli._SUMMARY` cannot drift from the groups'
own help; and a command run through `main()` still reaches the real group."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from ball.cli import _GROUPS, _SUMMARY, build_app

runner = CliRunner()


@pytest.mark.parametrize("columns", ["60", "80", "100", "200"])
@pytest.mark.parametrize("args", [[], ["--help"]])
def test_the_summary_help_is_the_full_apps_help(args, columns):
    env = {"COLUMNS": columns, "TERMINAL_WIDTH": columns}
    full = runner.invoke(build_app(), args, prog_name="ball", env=env)
    summary = runner.invoke(build_app(summary=True), args, prog_name="ball", env=env)
    assert (summary.exit_code, summary.output) == (full.exit_code, full.output)
    assert "standings" in full.output


def test_every_group_has_a_summary_line():
    assert set(_SUMMARY) == {group or module for module, group in _GROUPS}


def test_a_bad_top_level_option_fails_alike():
    full = runner.invoke(build_app(), ["--nope"], prog_name="ball")
    summary = runner.invoke(build_app(summary=True), ["--nope"], prog_name="ball")
    assert (summary.exit_code, summary.output) == (full.exit_code, full.output) != (0, "")


@pytest.mark.process
def test_the_help_imports_no_command_group():
    code = (
        "import sys; sys.argv = ['ball', '--help']\n"
        "from ball.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('ball.') and m != 'ball.cli')\n"
        "print(loaded, file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Commands" in out.stdout
    assert out.stderr.strip() == "[]"
