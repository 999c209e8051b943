"""What text may be stored as a name: one line of printable characters.

The rule every subsystem's names share (tournament names, clock labels and players): a
line break or another control character inside a name would end a record of a line-based
file (TRF), forge one, or break a printed form or a page's table; an invisible or
direction-changing format character would make a look-alike or reverse a line. Each
subsystem refuses such a name with its own error; this module only says which characters
are out.
"""

from __future__ import annotations

import unicodedata

# Cc: C0/C1 controls (tab, CR, LF, NEL, ESC, NUL...); Zl/Zp: the Unicode line and paragraph
# separators, which text tools also treat as line breaks; Cf: format characters, invisible
# (zero-width space U+200B, soft hyphen) or reordering the text around them (the
# right-to-left override U+202E, isolates U+2066-2069): look-alike names and reversed lines.
_REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp", "Cf"})
# Invisible characters outside Cf (Unicode's Default_Ignorable_Code_Point, and blanks that
# render as nothing): the Hangul fillers (U+3164 makes a "blank" Korean name, and with a
# real name it makes a look-alike), the combining grapheme joiner, Khmer's inherent vowels
# and Mongolian's variation selectors, and the blank braille pattern. Variation selectors
# U+FE00-FE0F stay allowed (they choose an emoji's or a CJK character's form); the name key
# ignores them.
INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
)
# The zero-width non-joiner and joiner spell words in Persian, Arabic and Indic scripts;
# allowed between two letters (or a letter's marks), as RFC 5892's CONTEXTJ rules allow.
_JOINERS = frozenset("\u200c\u200d")


def bad_character(text: str) -> str | None:
    """The first character a name may not hold, or None."""
    for index, char in enumerate(text):
        if char in INVISIBLE:
            return char
        if unicodedata.category(char) in _REFUSED_CATEGORIES and not _joins_letters(text, index):
            return char
    return None


def _joins_letters(text: str, index: int) -> bool:
    if text[index] not in _JOINERS or not 0 < index < len(text) - 1:
        return False
    before, after = unicodedata.category(text[index - 1]), unicodedata.category(text[index + 1])
    return before[0] in "LM" and after[0] == "L"


# The name columns are VARCHAR(200) (events, places, arbiters, entrants, clubs, teams, game
# titles); free text (a correction's reason, a log's detail, a ruling) at most FREE_TEXT_MAX.
NAME_MAX = 200
FREE_TEXT_MAX = 2000


def too_long(text: str, label: str, limit: int = NAME_MAX) -> str | None:
    """Why `text` is refused as `label` when it is longer than `limit` characters, or None."""
    if len(text) <= limit:
        return None
    return f"{label} is at most {limit} characters, got {len(text)}"
