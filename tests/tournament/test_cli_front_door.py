"""`ball` and `ball --help` answer from the summary app, which imports no command group
(issue 15, target 1). What they print must stay word for word what the full app prints,
at any width, so the help lines kept in `ball.cli._SUMMARY` cannot drift from the groups'
own help; and a command run through `main()` still reaches the real group."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from ball.cli import _GROUPS, _SUMMARY, build_app, game_groups, help_lines

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


def test_the_games_commands_come_around_the_shared_ones_with_their_own_summary():
    """A game's commands (`Game.commands`) are listed from the registry: a `lead` game's
    (BALL's) before the shared ones of their kind, the others' after them (Typer lists the
    top-level commands, then the groups), each with the help line the game gives, which is
    its command's own."""
    import typer.main

    names = [name for name, _ in help_lines()]
    groups = {group or module: group is not None for module, group in _GROUPS}
    for entry in game_groups():
        shared = [names.index(n) for n, is_group in groups.items() if is_group != entry.command]
        where = names.index(entry.name)
        assert where < min(shared) if entry.lead else where > max(shared), entry.name
        command = typer.main.get_command(build_app(only=entry.name)).commands[entry.name]
        assert (command.help or "").split("\n")[0] == entry.summary
    assert {"xiangqi", "mahjong", "play", "rules"} <= set(names)
    assert not {"xiangqi", "mahjong", "play", "rules"} & set(_SUMMARY)


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
        # ball.compiled_build is `import ball` itself (which build of the engine to load:
        # one stat per source), not a command group
        "loaded = sorted(m for m in sys.modules if m.startswith('ball.')\n"
        "                and m not in ('ball.cli', 'ball.cli.front_door', 'ball.compiled_build',\n"
        "                              'ball.cli.agent_client', 'ball.cli.literal')\n"
        # the registry of games names the games' groups (their `Game`s come with it: BALL's
        # result, the sanction ladder and the message ids), never a game's CLI, web or engine
        "                and not m.startswith(('ball.games', 'ball.sanctions', 'ball.i18n'))\n"
        "                or m.startswith(('ball.games.xiangqi.cli', 'ball.games.mahjong.cli'))\n"
        "                or '.engine' in m)\n"
        "print(loaded, 'typer' in sys.modules, 'click' in sys.modules, file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Commands" in out.stdout
    assert out.stderr.strip() == "[] False False"


def _help_bytes(program: str, args: list[str], env: dict[str, str]) -> tuple[int, bytes]:
    code = f"import sys; sys.argv = ['ball', *{args!r}]\n{program}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env)
    return done.returncode, done.stdout + b"|stderr|" + done.stderr


@pytest.mark.process
@pytest.mark.parametrize("columns", ["40", "80", "200"])
@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("args", [[], ["--help"]])
def test_the_front_door_draws_typers_help_byte_for_byte(args, colour, columns):
    """`main()` draws the top-level help with Rich alone (ball.cli.front_door); Typer's own
    formatter, run on the summary app, must print the same bytes and exit the same way."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env.update(COLUMNS=columns, TERMINAL_WIDTH=columns)
    if colour:
        env["FORCE_COLOR"] = "1"
    drawn = _help_bytes("from ball.cli import main\nmain()", args, env)
    typer_s = _help_bytes(
        "from ball.cli import build_app\nbuild_app(summary=True)(prog_name='ball')", args, env
    )
    assert drawn == typer_s
    assert b"standings" in drawn[1]
    assert (b"\x1b[" in drawn[1]) == colour


def test_the_front_door_lists_commands_in_typers_order():
    app = build_app(summary=True)
    import typer.main

    group = typer.main.get_group(app)
    assert [name for name, _ in help_lines()] == list(group.commands)
    assert dict(help_lines()) == _SUMMARY | {g.name: g.summary for g in game_groups()}
