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
"Spring  Cup", "spring cup" and "Ｓｐｒｉｎｇ Cup" all name one event.
"""

from __future__ import annotations

import unicodedata

from ball.storage.text import bad_character
from ball.tournament.errors import TournamentError

__all__ = ["bad_character", "check_name", "name_key"]


def check_name(value: str | None, label: str) -> str:
    """`value` stripped of surrounding spaces; `TournamentError` naming `label` when it holds
    a control character or a line break (an empty name is the caller's decision)."""
    text = (value or "").strip()
    char = bad_character(text)
    if char is not None:
        raise TournamentError(
            f"{label} must be one line of printable text; it holds a control character or "
            f"line break (U+{ord(char):04X})"
        )
    return text


def name_key(name: str) -> str:
    """The form of an event name that two names must not share."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # casefold can produce forms NFKC changes again (e.g. some Greek letters): once more.
    return " ".join(unicodedata.normalize("NFKC", folded).split())
