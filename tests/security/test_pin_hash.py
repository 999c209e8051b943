"""PIN hashes (ball.pin_hash): production scrypt cost, the cost stored in the hash, hashes in
the older form without a cost, and strings that are not hashes. Issue 12: the test suite
lowers the cost through `pin_hash.COST` only outside tests/security."""

import hashlib
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball import pin_hash
from ball.clocks import store
from ball.web.core import security


def test_the_production_cost_is_scrypt_2_14_and_this_folder_uses_it():
    assert pin_hash.ScryptCost(n=2**14, r=8, p=1) == pin_hash.PRODUCTION_COST
    assert pin_hash.COST == pin_hash.PRODUCTION_COST  # conftest leaves tests/security alone
    made = pin_hash.hash_pin("1234")
    scheme, cost, salt, digest = made.split("$")
    assert (scheme, cost) == ("scrypt", "n=16384,r=8,p=1")
    expected = hashlib.scrypt(b"1234", salt=bytes.fromhex(salt), n=2**14, r=8, p=1)
    assert digest == expected.hex()


def test_desk_and_clocks_hash_through_the_same_module():
    for module in (security, store):
        made = module.hash_pin("4321")
        assert made.startswith("scrypt$n=16384,r=8,p=1$")
        assert module.pin_matches("4321", made) and not module.pin_matches("4322", made)


def test_a_hash_without_a_cost_is_read_at_the_production_cost():
    salt = os.urandom(16)
    digest = hashlib.scrypt(b"2468", salt=salt, n=2**14, r=8, p=1)
    stored = f"scrypt${salt.hex()}${digest.hex()}"  # rows written before the cost was stored
    assert pin_hash.pin_matches("2468", stored)
    assert not pin_hash.pin_matches("2469", stored)


def test_a_hash_made_at_a_lower_cost_verifies_with_its_own_cost(monkeypatch):
    monkeypatch.setattr(pin_hash, "COST", pin_hash.ScryptCost(n=2**4, r=8, p=1))
    made = pin_hash.hash_pin("1357")
    assert made.split("$")[1] == "n=16,r=8,p=1"
    monkeypatch.setattr(pin_hash, "COST", pin_hash.PRODUCTION_COST)
    assert pin_hash.pin_matches("1357", made)
    assert not pin_hash.pin_matches("1358", made)


@pytest.mark.parametrize("stored", [
    "", "scrypt", "bcrypt$00$00", "scrypt$zz$00", "scrypt$n=16$00$00",
    "scrypt$n=16,r=8,p=1,x=2$00$00", "scrypt$n=15,r=8,p=1$00$00",  # n not a power of two
    "scrypt$n=1048576,r=8,p=1$00$00",  # 1 GiB: over the memory bound
    "scrypt$n=x,r=8,p=1$00$00", "scrypt$a$b$c$d",
])
def test_strings_that_are_not_usable_hashes_never_match(stored):
    assert pin_hash.pin_matches("1234", stored) is False


@pytest.mark.hypothesis
@settings(max_examples=25, deadline=None)
@given(pin=st.text(min_size=4, max_size=12), other=st.text(min_size=4, max_size=12))
def test_a_cheap_hash_matches_its_pin_only(pin, other):
    cheap = pin_hash.ScryptCost(n=2**2, r=1, p=1)
    salt = os.urandom(16)
    stored = f"scrypt${cheap.text()}${salt.hex()}${pin_hash._scrypt(pin, salt, cheap).hex()}"
    assert pin_hash.pin_matches(pin, stored)
    assert pin_hash.pin_matches(other, stored) == (other == pin)
