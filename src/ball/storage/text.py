"""What text may be stored as a name: one line of printable characters.

The rule every subsystem's names share (tournament names, clock labels and players): a
line break or another control character inside a name would end a record of a line-based
file (TRF), forge one, or break a printed form or a page's table. Each subsystem refuses such
a name with its own error; this module only says which characters are out.
"""

from __future__ import annotations

import unicodedata

# Cc: C0/C1 controls (tab, CR, LF, NEL, ESC, NUL...); Zl/Zp: the Unicode line and paragraph
# separators, which text tools also treat as line breaks.
_REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def bad_character(text: str) -> str | None:
    """The first character a name may not hold, or None."""
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            return char
    return None
