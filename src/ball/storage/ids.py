"""One id type for every stored row: a positive whole number that fits an INTEGER column.

Every table's key (events, entrants, pairings, clocks, ...) is an `Integer` column, which is
32 bits on PostgreSQL and 64 bits on SQLite. A number a request or a command names is looked
up only when it fits the smaller of the two (`MAX_ID`); any other number names nothing, so
it is "no such event/clock/round" (404, or the service's "unknown ..." error) on every
database, never a driver overflow (500 on SQLite beyond 2**63) or "integer out of range"
(400 on PostgreSQL). Round and table numbers live in INTEGER columns too and share the limit.

Text that names an id must be plain ASCII digits: `str.isdigit` also accepts "²" or "①",
which `int` refuses (a crash where a clear error belongs).
"""

from __future__ import annotations

import re

MAX_ID = 2**31 - 1  # PostgreSQL's INTEGER; SQLite's 64-bit integers hold every such value
_DIGITS = re.compile(r"[0-9]+")


def in_range(value: int) -> bool:
    """True when `value` could be the id of a stored row (1 .. MAX_ID)."""
    return 0 < value <= MAX_ID


def is_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits (what `int` reads as a plain number)."""
    return _DIGITS.fullmatch(text) is not None


def parse_id(text: str) -> int | None:
    """The id written as `text` (ASCII digits), or None when it is not a number; a number
    beyond `MAX_ID` is returned as is, so the caller can say "no such X" with it."""
    return int(text) if is_digits(text) else None
