"""Table device keys (issue 30): the secret the arbiter's desk hands one table's device (its
clock, the tablet recording its Xiangqi game) so that only that device, or the desk itself,
writes what the desk later trusts.

A key is `secrets.token_urlsafe` (192 random bits, safe in a link) and is compared in
constant time. It is kept as written, not hashed: the desk shows it again (the link it gives
the table), the database already holds the PIN hashes, and a key guards one table's device
for one round, not a person's password.
"""

from __future__ import annotations

import hmac
import secrets

HEADER = "X-Table-Key"  # the request header a table device sends its key in
KEY_BYTES = 24


def new_key() -> str:
    """A fresh unguessable key (32 URL-safe characters)."""
    return secrets.token_urlsafe(KEY_BYTES)


def matches(given: object, stored: str | None) -> bool:
    """True when `given` is the stored key; "" or a missing key never matches anything."""
    if not isinstance(given, str) or not given or not stored:
        return False
    return hmac.compare_digest(given.encode(), stored.encode())
