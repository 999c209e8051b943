"""Seed 004 article 20: what a withdrawal does to the results (the pure classifier)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.tournament.errors import TournamentError
from ball.tournament.withdrawal import classify


def test_before_a_round_robin_starts_an_even_field_is_redrawn():
    # 20.2: withdrawn before the start; the rest even: the table is drawn again.
    ruling = classify("round-robin", started=False, remaining=8)
    assert (ruling.action, ruling.article) == ("redraw", "20.2")
    odd = classify("double-round-robin", started=False, remaining=7)
    assert odd.action == "bye-in-place" and not odd.forfeit_remaining
    assert classify("swiss", started=False, remaining=8).action == "none"


def test_round_robin_fewer_than_half_played_cancels_everything():
    # 20.3: 13 entrants, 12 games each; 5 played is fewer than half.
    ruling = classify("round-robin", started=True, played=5, scheduled=12)
    assert (ruling.action, ruling.forfeit_remaining, ruling.article) == (
        "cancel-results", False, "20.3"
    )  # fmt: skip


def test_round_robin_half_played_keeps_results_and_forfeits_the_rest():
    # 20.3: exactly half counts as "half or more".
    ruling = classify("round-robin", started=True, played=6, scheduled=12)
    assert (ruling.action, ruling.forfeit_remaining) == ("results-stand", True)
    assert classify("double-round-robin", started=True, played=7, scheduled=14).action == (
        "results-stand"
    )


def test_swiss_results_always_stand():
    # 20.4: in a Swiss, results stand however few games were played.
    ruling = classify("swiss", started=True, played=1, scheduled=9)
    assert (ruling.action, ruling.forfeit_remaining, ruling.article) == (
        "results-stand", True, "20.4"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"system": "league", "started": True}, "unknown system 'league'"),
        ({"system": "swiss", "started": True, "played": 4, "scheduled": 3}, "impossible"),
        ({"system": "round-robin", "started": False, "remaining": -1}, "impossible"),
    ],
)
def test_impossible_input_is_named(kwargs, message):
    with pytest.raises(TournamentError, match=message):
        classify(**kwargs)


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_round_robin_ruling_turns_at_half(pair):
    played, scheduled = pair
    ruling = classify("round-robin", started=True, played=played, scheduled=scheduled)
    assert (ruling.action == "cancel-results") == (played < scheduled / 2)
    assert ruling.forfeit_remaining == (ruling.action == "results-stand")
