"""The `ball` command. Each command group lives in its own module of this package.

Exit status 2 with one line on standard error is the contract for every bad input
(see `ball.cli.common.fail`).
"""

from __future__ import annotations

import importlib
import sys

import typer

# (module, group name or None when the module adds top-level commands itself)
_GROUPS: list[tuple[str, str | None]] = [
    ("rules", "rules"),
    ("sim", "sim"),
    ("match", "match"),
    ("record", "record"),
    ("play", None),
    ("clock", "clock"),
    ("serve", None),
    ("event", "event"),
    ("team", "team"),
    ("round", "round"),
    ("result", "result"),
    ("standings", None),
    ("export", "export"),
    ("pdf", "pdf"),
    ("xiangqi", "xiangqi"),
    ("mahjong", "mahjong"),
]


def build_app(only: str | None = None) -> typer.Typer:
    """The `ball` app with every command group, or only the one named `only`.

    `main()` imports just the group being run, so `ball rules …` starts without loading the
    web, PDF or clock stacks.
    """
    app = typer.Typer(
        name="ball",
        help="BALL Toolbox: rules engine, matches, tournaments, clocks, printing, web toolbox.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )

    @app.callback()
    def _root() -> None:
        """BALL Toolbox: rules engine, matches, tournaments, clocks, printing, web toolbox."""

    for module_name, group in _GROUPS:
        if only is not None and (group or module_name) != only:
            continue
        module = importlib.import_module(f"ball.cli.{module_name}")
        if group is None:
            module.register(app)
        else:
            app.add_typer(module.app, name=group)
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
    first = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    commands = {group or module for module, group in _GROUPS}
    build_app(first if first in commands else None)()
