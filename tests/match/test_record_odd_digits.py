"""A half number in digits that `isdigit` accepts and `int` refuses ("²", "①") is a record
fault naming where it is, not a crash of the reader (and so of `ball record check` and the
replay API)."""

from __future__ import annotations

import pytest

from ball.games.ball.match.record import RecordError, parse


@pytest.mark.parametrize("number", ["²", "①", "1²"])
def test_half_in_odd_digits_is_a_record_fault(number):
    with pytest.raises(RecordError, match=f"found 'half {number}'"):
        parse(f"half {number}\n1. G7-G8\n")
