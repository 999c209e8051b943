"""The `ball` command. Each command group lives in its own module of this package.

Exit status 2 with one line on standard error is the contract for every bad input
(see `ball.cli.common.fail`).
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="ball",
    help="BALL Toolbox: rules engine, matches, tournaments, clocks, printing, web toolbox.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# (module, group name or None when the module adds top-level commands itself)
_GROUPS: list[tuple[str, str | None]] = [
    ("rules", "rules"),
    ("sim", "sim"),
    ("match", "match"),
    ("record", "record"),
    ("play", None),
    ("clock", "clock"),
    ("serve", None),
]


def _register() -> None:
    for module_name, group in _GROUPS:
        module = importlib.import_module(f"ball.cli.{module_name}")
        if group is None:
            module.register(app)
        else:
            app.add_typer(module.app, name=group)


_register()


def main() -> None:
    app()
