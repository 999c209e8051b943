"""The top-level help of `ball` (`ball` and `ball --help`), drawn with Rich alone.

Typer and its Click core take about a quarter of a second to import on this project's
machines, longer than the whole answer may take (issue 15, target 1: under 0.15 s). The
top-level help is fixed by `ball.cli._GROUPS` and `ball.cli._SUMMARY`, so this module draws
it with the same Rich objects, theme and environment switches Typer's help formatter
(`typer.rich_utils.rich_format_help`) uses for the summary app: the usage line, the app's
help, the Options panel and the Commands panel. `tests/tournament/test_cli_front_door.py`
compares the two byte for byte, at several widths, with and without colour; if a Typer
upgrade changes its layout, that test names the difference and `main()` can go back to the
summary app.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from rich.align import Align
from rich.columns import Columns
from rich.console import Console, Group
from rich.highlighter import RegexHighlighter
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.theme import Theme

from .literal import literal

APP_HELP = "BALL Toolbox: rules engine, matches, tournaments, clocks, printing, web toolbox."

# Typer's help styles (typer.rich_utils), the ones the top-level help shows.
_THEME = {
    "option": "bold cyan",
    "switch": "bold green",
    "negative_option": "bold magenta",
    "negative_switch": "bold red",
    "types": "bold yellow",
    "types_sep": "dim",
    "usage": "yellow",
}


class _OptionHighlighter(RegexHighlighter):
    highlights = [
        r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
        r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
        r"(?P<types>\<[^\>]+\>)",
        r"(?P<usage>Usage: )",
    ]


class _TypesHighlighter(RegexHighlighter):
    highlights = [
        r"^(?P<types_sep>(\[|<))",
        r"(?P<types_sep>\|)",
        r"(?P<types_sep>(\]|>))(\.\.\.)?$",
    ]


_options = _OptionHighlighter()
_types = _TypesHighlighter()


def _console() -> Console:
    """A console that decides colour and width from the environment as Typer's does."""
    width = os.environ.get("TERMINAL_WIDTH")
    force: bool | None = None
    if (
        os.environ.get("GITHUB_ACTIONS")
        or os.environ.get("FORCE_COLOR")
        or os.environ.get("PY_COLORS")
    ):
        force = True
    if os.environ.get("_TYPER_FORCE_DISABLE_TERMINAL"):
        force = False
    return Console(
        theme=Theme(_THEME),
        highlighter=_options,
        color_system="auto",
        force_terminal=force,
        width=int(width) if width else None,
    )


def _panel_table(highlight: bool) -> Table:
    """The borderless table inside a help panel, with Typer's panel-table settings."""
    return Table(
        highlight=highlight,
        show_header=False,
        expand=True,
        box=None,
        show_lines=False,
        leading=0,
        border_style=None,
        row_styles=None,
        pad_edge=False,
        padding=(0, 1),
    )


def _options_panel() -> Panel:
    table = _panel_table(highlight=True)
    help_type = _types(Text("<bool>", style="bold yellow", overflow="fold"))
    help_text = Columns([_options(Text.from_markup("Show this message and exit.", style=""))])
    table.add_row(_options("--help"), _options(""), "", "", help_type, help_text)
    return Panel(table, border_style="dim", title="Options", title_align="left")


def _commands_panel(entries: list[tuple[str, str]]) -> Panel:
    table = _panel_table(highlight=False)
    table.add_column(style="bold cyan", no_wrap=True, width=max(len(n) for n, _ in entries))
    table.add_column("Description", justify="left", no_wrap=False, ratio=10)
    for name, line in entries:
        # Read as the full app reads it (`ball.cli.literal_help`): the text as written.
        table.add_row(Text(name), _options(Text.from_markup(literal(line), style="")))
    return Panel(table, border_style="dim", title="Commands", title_align="left")


def _program_name() -> str:
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "ball"


def print_help(
    entries: Iterable[tuple[str, str]], asked: bool = True, prog_name: str | None = None
) -> None:
    """Print the top-level help for the commands `entries` (name, help line), in order;
    `asked` is False for a bare `ball`, which Click answers with the help alone."""
    console = _console()
    usage = f"Usage: {prog_name or _program_name()} [OPTIONS] COMMAND [ARGS]..."
    console.print(Padding(_options(usage), 1), style="bold")
    app_help = Group(_options(Text.from_markup(literal(APP_HELP), style="")))
    console.print(Padding(Align(app_help, pad=False), (0, 1, 1, 1)))
    console.print(_options_panel())
    console.print(_commands_panel(list(entries)))
    if asked:  # `--help` echoes the (empty) text Click's formatter returns: one more newline
        print()
