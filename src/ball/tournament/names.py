"""When two event names are the same name.

Events are selected by name from the command line and from old links, so a second event
named like the first would capture them (issue 11 item 3). Two names are the same when they
are equal after Unicode NFKC (full-width letters, ligatures and compatibility forms become
their plain letters), case folding and collapsing every run of whitespace to one space:
"Spring  Cup", "spring cup" and "Ｓｐｒｉｎｇ Cup" all name one event.
"""

from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """The form of an event name that two names must not share."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # casefold can produce forms NFKC changes again (e.g. some Greek letters): once more.
    return " ".join(unicodedata.normalize("NFKC", folded).split())
