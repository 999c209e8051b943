"""Winds (issue 32 item 1): every player sits each wind floor(S/4)..ceil(S/4) times, exactly
S/4 times when S is a multiple of 4, on any tables (docs/mahjong.md, decision M-06)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ball.cli import app
from ball.games.mahjong.engine.seating import (
    balanced,
    deal_winds,
    random_session,
    report,
    wind_counts,
)

SIZES = [16, 28, 32, 44, 64, 76, 96, 112, 128]  # 16-128 players, as the audit's nine


def assert_even(seating, sessions: int) -> None:
    lo, hi = sessions // 4, -(-sessions // 4)
    for player, counts in wind_counts(seating).items():
        assert lo <= min(counts) and max(counts) <= hi, (player, counts)


def same_tables(a, b) -> bool:
    return [[sorted(t) for t in s] for s in a] == [[sorted(t) for t in s] for s in b]


@pytest.mark.hypothesis
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 32), st.sampled_from([4, 8]), st.integers(0, 10**6))
def test_any_tables_get_exact_winds_at_four_and_eight_sessions(tables, sessions, seed):
    tables_only = tuple(random_session(4 * tables, seed + s) for s in range(sessions))
    dealt = deal_winds(tables_only, seed=seed)
    assert same_tables(dealt, tables_only)
    assert all(c == [sessions // 4] * 4 for c in wind_counts(dealt).values())


@pytest.mark.hypothesis
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 20), st.integers(1, 13), st.integers(0, 10**6))
def test_any_number_of_sessions_within_floor_and_ceiling(tables, sessions, seed):
    tables_only = tuple(random_session(4 * tables, seed + s) for s in range(sessions))
    assert_even(deal_winds(tables_only, seed=seed), sessions)


@pytest.mark.parametrize("sessions", [4, 8])
@pytest.mark.parametrize("players", SIZES)
def test_balanced_seatings_have_exact_winds(players, sessions):
    # a small search budget: the winds do not depend on how far the search went
    seating = balanced(players, sessions, seed=3, budget=20_000)
    assert report(seating).wind_spread == (sessions // 4, sessions // 4)


def test_the_command_deals_exact_winds():
    out = CliRunner().invoke(app, ["mahjong", "seat", "--players", "24", "--sessions", "8",
                                   "--seed", "5", "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    sessions = tuple(tuple(tuple(t) for t in s) for s in json.loads(out.output)["sessions"])
    assert report(sessions).wind_spread == (2, 2)
