"""`literal(text)`: Rich markup that Rich renders back to exactly `text`.

Rich reads the help texts Typer hands it as markup: `:name:` becomes an emoji (`1:B:reset`
became `1🅱reset`, `A:warning:late` became `A⚠late`) and `[...]` a style tag that vanishes.
Help texts here are examples of command-line syntax, never markup. Rich alone, no Typer:
the fast top-level help (`ball.cli.front_door`) uses it too.
"""

from __future__ import annotations

import re

# What Rich would read as a style tag after a `[` (rich.markup's tag pattern).
_TAG = re.compile(r"\[[a-z#/@][^[]*?]")
# After a colon: more text without white space, then a colon. Rich's emoji pattern
# (`:name:`, `:name-emoji:`) can only start at such a colon.
_EMOJI_REST = re.compile(r"\S*?:")
# A tag with no text and a style that changes nothing: it only ends a stretch of text.
_SPLIT = "[none][/none]"


def _split(out: list[str]) -> None:
    # Backslashes right before a tag escape it; doubled, they stay backslashes.
    k = len(out)
    while k and out[k - 1] == "\\":
        k -= 1
    out.extend(["\\"] * (len(out) - k))
    out.append(_SPLIT)


def literal(text: str) -> str:
    """Rich markup that renders as exactly `text`: each `[` starts a stretch of its own
    (escaped where it would open a tag), and each colon that could open an emoji name ends
    one, since Rich reads emoji names and `\\[` only inside one stretch."""
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch == "[":
            _split(out)
            out.append("\\[" if _TAG.match(text, i) else "[")
            continue
        out.append(ch)
        if ch == ":" and _EMOJI_REST.match(text, i + 1):
            _split(out)
    return "".join(out)


__all__ = ["literal"]
