"""Stored JSON (a result's decision and score sheet), parsed once per text per process.

The pages of an event and its standings read every table's decision; re-parsing them all on
each view was most of a page's cost at 1,000 entrants (issue 15). A stored text never
changes meaning, so its parse is kept by the text itself: a new or corrected result is a
new text, parsed at its first use. The parsed values are shared: callers must read them
and never change them (copy first).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

# Enough for every decision and sheet of a few 1,000-entrant events of several rounds.
CACHED = 32_768


@lru_cache(maxsize=CACHED)
def loads(text: str) -> Any:
    """`json.loads(text)`, shared with every other caller of the same text (read only)."""
    return json.loads(text)
