"""`LiteralHelpGroup`, the root command class of `ball`: every help text drawn as written.

Typer draws help with Rich, which reads help strings as markup (emoji names, style tags;
see `ball.cli.literal`). The root group rewrites every help string of its command tree once,
when Typer builds the tree (for `ball …` and for tests' CliRunner alike), into markup that
renders back to the text written. Plain Click help (Rich switched off) is left alone.
"""

from __future__ import annotations

from typing import Any

from typer.core import HAS_RICH, TyperGroup

from .literal import literal


def _protect(command: Any) -> None:
    for attribute in ("help", "short_help", "epilog"):
        value = getattr(command, attribute, None)
        if isinstance(value, str):
            setattr(command, attribute, literal(value))
    for param in getattr(command, "params", ()):
        if isinstance(getattr(param, "help", None), str):
            param.help = literal(param.help)
    for sub in getattr(command, "commands", {}).values():
        _protect(sub)


class LiteralHelpGroup(TyperGroup):
    """Typer's group whose command tree's help is drawn literally (see the module text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if HAS_RICH and self.rich_markup_mode == "rich":
            _protect(self)


__all__ = ["LiteralHelpGroup"]
