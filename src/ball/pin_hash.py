"""PIN hashing for event desks and clocks (layer 0, pure): salted scrypt with its cost in the
stored string.

A hash reads `scrypt$n=16384,r=8,p=1$<salt hex>$<digest hex>`. The cost travels with the
hash, so a hash made at any cost verifies with that cost; the older form without it,
`scrypt$<salt hex>$<digest hex>`, was always made at the production cost and still verifies.

`COST` is read each time a hash is made. Production never changes it. It is the one seam
for the test suite: tests/conftest.py lowers it for tests that only need *a* PIN (each
production hash costs ~60 ms of CPU), while tests/security and the desk security tests keep
the production cost and tests/security/test_pin_hash.py asserts it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass


@dataclass(frozen=True)
class ScryptCost:
    n: int
    r: int
    p: int

    def text(self) -> str:
        return f"n={self.n},r={self.r},p={self.p}"


PRODUCTION_COST = ScryptCost(n=2**14, r=8, p=1)
COST = PRODUCTION_COST  # read at hash time; only the test fixture ever lowers it
# A stored cost is data: refuse one that would take more memory than production's (16 MiB)
# allows twice over, rather than let a bad row make every PIN check allocate gigabytes.
_MAXMEM = 64 * 1024 * 1024


def hash_pin(pin: str) -> str:
    cost = COST
    salt = secrets.token_bytes(16)
    digest = _scrypt(pin, salt, cost)
    return f"scrypt${cost.text()}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """Whether `pin` hashes to `stored`; False for a string that is not such a hash."""
    parts = stored.split("$")
    try:
        if len(parts) == 3 and parts[0] == "scrypt":  # the form without a cost
            cost, salt, digest = PRODUCTION_COST, parts[1], parts[2]
        elif len(parts) == 4 and parts[0] == "scrypt":
            cost, salt, digest = _parse_cost(parts[1]), parts[2], parts[3]
        else:
            return False
        got = _scrypt(pin, bytes.fromhex(salt), cost)
    except ValueError:  # a bad cost, salt or memory bound
        return False
    return hmac.compare_digest(got.hex(), digest)


def _parse_cost(text: str) -> ScryptCost:
    fields = dict(item.partition("=")[::2] for item in text.split(","))
    if set(fields) != {"n", "r", "p"}:
        raise ValueError(f"scrypt cost {text!r}")
    return ScryptCost(n=int(fields["n"]), r=int(fields["r"]), p=int(fields["p"]))


def _scrypt(pin: str, salt: bytes, cost: ScryptCost) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=cost.n, r=cost.r, p=cost.p,
                          maxmem=_MAXMEM)
