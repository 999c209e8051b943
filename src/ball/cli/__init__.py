"""The `ball` command. Each command group lives in its own module of this package.

Exit status 2 with one line on standard error is the contract for every bad input
(see `ball.cli.common.fail`).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # Typer is imported where an app is built: `ball --help` draws without it
    import typer

    from ball.games import Commands

# (module, group name or None when the module adds top-level commands itself)
_GROUPS: list[tuple[str, str | None]] = [
    ("clock", "clock"),
    ("serve", None),
    ("event", "event"),
    ("team", "team"),
    ("round", "round"),
    ("result", "result"),
    ("standings", None),
    ("publish", None),
    ("export", "export"),
    ("pdf", "pdf"),
]


# What `ball --help` lists for each entry of _GROUPS: the first line of its help. Kept
# here so that the top-level help needs none of the groups' modules (and their imports of
# the engine, SQLAlchemy, the web and PDF stacks); tests/cli/test_front_door.py checks it
# word for word against the help the full app prints.
_SUMMARY: dict[str, str] = {
    "clock": "Table clocks: time controls and event logs.",
    "serve": "Start the web toolbox (FastAPI under uvicorn).",
    "event": "Tournament events and their entrants.",
    "team": "Teams of a team event and their line-ups.",
    "round": "Rounds and pairings.",
    "result": "Results of the tables.",
    "standings": "Standings with tie-breaks (the tie-break rule version is printed on top).",
    "publish": "The event's public pages as static files; a second run rewrites only what changed.",
    "export": "Export an event.",
    "pdf": "Print the regulation and its forms (PDF or HTML).",
}


def game_groups() -> list[Commands]:
    """The commands and groups the registered games bring (`Game.commands`), in the
    registry's order. Asking the registry costs its import, so a shared command never asks."""
    from ball.games import GAMES

    return [group for entry in GAMES.values() for group in entry.commands]


class Listed(NamedTuple):
    """A command or group as `ball` lists and builds it: its module exposes `app` (a group)
    or `register(app)` (top-level commands)."""

    name: str
    group: bool
    module: str
    summary: str


def _in_order(games: list[Commands]) -> list[Listed]:
    """Every command and group as `ball --help` lists it. Typer lists the top-level
    commands, then the groups; within each, the games' `lead` ones come first, then the
    shared ones in the order of _GROUPS, then the other games'."""
    shared = [
        Listed(group or module, group is not None, f"ball.cli.{module}", _SUMMARY[group or module])
        for module, group in _GROUPS
    ]
    every = [Listed(c.name, not c.command, c.module, c.summary) for c in games if c.lead]
    every += shared
    every += [Listed(c.name, not c.command, c.module, c.summary) for c in games if not c.lead]
    return [e for e in every if not e.group] + [e for e in every if e.group]


# The shared commands and groups by name: running one of them needs no game's registry.
SHARED_COMMANDS = frozenset(group or module for module, group in _GROUPS)


def _summary_only(app: typer.Typer) -> None:
    """Every command and group by name and help line only, for `ball` and `ball --help`."""
    import typer

    for entry in _in_order(game_groups()):
        if entry.group:
            app.add_typer(typer.Typer(help=entry.summary), name=entry.name)
        else:
            app.command(entry.name, help=entry.summary)(_never_run)


def help_lines() -> list[tuple[str, str]]:
    """The top-level help's commands in Typer's order (`_in_order`), with their help lines."""
    return [(entry.name, entry.summary) for entry in _in_order(game_groups())]


def _never_run() -> None:  # pragma: no cover - a summary app only prints its help
    raise RuntimeError("the summary app runs no command")


def build_app(only: str | None = None, summary: bool = False) -> typer.Typer:
    """The `ball` app with every command group, or only the one named `only`.

    `main()` imports just the group being run, so `ball rules …` starts without loading the
    web, PDF or clock stacks; with `summary`, none (the app `ball.cli.front_door` draws
    `ball` and `ball --help` like, without Typer).
    """
    import typer

    from ball.cli.literal_help import LiteralHelpGroup

    app = typer.Typer(
        name="ball",
        cls=LiteralHelpGroup,
        help="BALL Toolbox: rules engine, matches, tournaments, clocks, printing, web toolbox.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )

    @app.callback()
    def _root() -> None:
        """BALL Toolbox: rules engine, matches, tournaments, clocks, printing, web toolbox."""

    if summary:
        _summary_only(app)
        return app
    games = game_groups() if only is None or only not in SHARED_COMMANDS else []
    for entry in _in_order(games):
        if only is not None and entry.name != only:
            continue
        module = importlib.import_module(entry.module)
        if entry.group:
            app.add_typer(module.app, name=entry.name)
        else:
            module.register(app)
    return app


_full_app: typer.Typer | None = None


def __getattr__(name: str):
    # `from ball.cli import app` gives the full app (tests, Typer's CliRunner).
    global _full_app
    if name == "app":
        if _full_app is None:
            _full_app = build_app()
        return _full_app
    raise AttributeError(name)


def main() -> None:
    """The `ball` command: through the start-up agent when one is running (see
    `ball.cli.agent_client`), else in-process, starting an agent for the next command."""
    from ball.cli import agent_client

    args = sys.argv[1:]
    if args[:1] == ["agent"]:
        raise SystemExit(agent_client.agent_command(args[1:]))
    use_agent = agent_client.enabled() and agent_client.eligible(args)
    if use_agent and (status := agent_client.run(sys.argv)) is not None:
        raise SystemExit(status)
    try:
        run_in_process(args)
    finally:
        if use_agent:
            agent_client.start_agent()


def run_in_process(args: list[str]) -> None:
    """Run `ball ARGS` in this process (the agent's forked copies run it too)."""
    first = next((arg for arg in args if not arg.startswith("-")), None)
    commands = SHARED_COMMANDS
    if first is not None and first not in commands:  # a game's group, or no command at all
        commands = commands | {group.name for group in game_groups()}
    if not args or args == ["--help"]:  # the top-level help: names and help lines only
        from ball.cli.front_door import print_help

        print_help(help_lines(), asked=bool(args))
        # Click answers a bare `ball` (no_args_is_help) with the help and status 2.
        raise SystemExit(0 if args else 2)
    build_app(first if first in commands else None)()
