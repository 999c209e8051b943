"""Confusable names: the skeleton of Unicode Technical Standard #39 (section 4), by which
"BALL Demо Open" (a Cyrillic о) and "BALL Demo Open" are one name.

Two strings are confusable when their skeletons are equal. skeleton(X) is NFD(X) with each
character replaced by its prototype from Unicode's confusables table, then NFD again. The
table ships as `confusables.txt` beside this module (Unicode 15.0's data as ICU 72 applies
it; `tools/confusables_from_icu.py` writes it and checks this function against ICU's
SpoofChecker on every code point): no dependency to compile, and the same answer on every
machine whatever its ICU.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources


@functools.cache
def _table() -> dict[str, str]:
    text = resources.files(__package__).joinpath("confusables.txt").read_text("utf-8")
    table: dict[str, str] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        source, _, target = line.partition(";")
        table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of `text` (case-sensitive, as the standard's)."""
    table = _table()
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in nfd))
