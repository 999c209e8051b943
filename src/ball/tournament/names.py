"""Names stored by the tournament: one rule for every one of them, and when two event names
are the same name.

A name (event, place, arbiter, entrant, club, federation, log kind) is one line of printable
text. A line break or another control character inside a name would forge a record of the
line-based TRF file (a player named "Ann\\n001 ..." writes a second player), break the
printed forms and the desk's tables, so such a name is refused where it is stored, with the
field and the offending character named; nothing is silently rewritten.

Events are selected by name from the command line and from old links, so a second event
named like the first would capture them (issue 11 item 3). Two names are the same when they
are equal after Unicode NFKC (full-width letters, ligatures and compatibility forms become
their plain letters), case folding and collapsing every run of whitespace to one space:
"Spring  Cup", "spring cup" and "Ｓｐｒｉｎｇ Cup" all name one event. A name that only
*looks* like another is the same name too (issue 30 item 11): "BALL Demо Open" with a
Cyrillic о would list itself beside the real event, so the key also takes the confusable
skeleton of Unicode TR 39 (`ball.storage.confusables.skeleton`), of the name as written and
in capitals (a capital Cyrillic В looks like B, its small в does not look like b; I looks
like l, i does not), then folds the case. Within an event, an entrant whose name has the
skeleton of a registered entrant's (`look_alike_key`: "Ivan Pеtrov" with a Cyrillic е) is
refused too; names that differ in case or spacing stay two entrants, as they look
different.

Format and direction characters (category Cf: zero-width space U+200B, the right-to-left
override U+202E, isolates U+2066...) are refused like control characters
(`ball.storage.text`): invisible, they make look-alikes, and the overrides reverse the text
of a TRF line, a page or a printed form. Only the zero-width joiner and non-joiner stay
allowed between two letters (scripts such as Persian and Devanagari spell with them); the
key ignores them. Invisible letters and marks outside Cf (the Hangul filler U+3164, the
combining grapheme joiner, the blank braille pattern, ...; `ball.storage.text.INVISIBLE`) are
refused the same way, and the key ignores variation selectors.
"""

from __future__ import annotations

import unicodedata

from ball.storage.confusables import skeleton
from ball.storage.text import INVISIBLE, NAME_MAX, bad_character, too_long
from ball.tournament.errors import TournamentError

__all__ = ["bad_character", "check_name", "look_alike_key", "name_key"]


def check_name(value: str | None, label: str, limit: int = NAME_MAX) -> str:
    """`value` stripped of surrounding spaces; `TournamentError` naming `label` when it is
    longer than `limit` characters or holds a control character, a format character or a
    line break (an empty name is the caller's decision)."""
    text = (value or "").strip()
    if (why := too_long(text, label, limit)) is not None:  # first: the scan below is O(n)
        raise TournamentError(why)
    char = bad_character(text)
    if char is not None:
        kind = (
            "invisible character"
            if char in INVISIBLE
            else "format or direction character"
            if unicodedata.category(char) == "Cf"
            else "control character or line break"
        )
        raise TournamentError(
            f"{label} must be one line of printable text; it holds a {kind} (U+{ord(char):04X})"
        )
    return text


# ZWNJ, ZWJ and the variation selectors: invisible or a glyph's variant, ignored by the key
_JOINERS = dict.fromkeys([0x200C, 0x200D, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    # casefold can produce forms NFKC changes again (e.g. some Greek letters): once more.
    return unicodedata.normalize("NFKC", folded)


def name_key(name: str) -> str:
    """The form of a name that two names must not share: NFKC, case folding and the TR 39
    skeleton, whitespace runs as one space."""
    text = name.translate(_JOINERS)
    # skeleton first (it maps capitals and small letters apart: В to B, I to l, m to rn),
    # then the capitals' skeleton, so that "SPRING" (I to l) and "Spring" meet; then folding.
    shape = skeleton(unicodedata.normalize("NFKC", text))
    key = _fold(skeleton(shape.upper()))
    return " ".join(unicodedata.normalize("NFC", key).split())


def look_alike_key(name: str) -> str:
    """What two entrants of one event must not share: the TR 39 skeleton of the name as
    written (case and spacing kept: "Eve" and "eve" look different, "Еve" does not)."""
    return skeleton(unicodedata.normalize("NFKC", name.translate(_JOINERS)))
