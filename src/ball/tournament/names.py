"""Names stored by the tournament: one rule for every one of them.

A name (event, place, arbiter, entrant, club, federation, log kind) is one line of printable
text. A line break or another control character inside a name would forge a record of the
line-based TRF file (a player named "Ann\\n001 ..." writes a second player), break the
printed forms and the desk's tables, so such a name is refused where it is stored, with the
field and the offending character named; nothing is silently rewritten.
"""

from __future__ import annotations

from ball.storage.text import bad_character
from ball.tournament.errors import TournamentError

__all__ = ["bad_character", "check_name"]


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
