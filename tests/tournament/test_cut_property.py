"""The Buchholz cuts and the game's figure sums, rewritten for speed (issue 15, target 2),
give exactly what their first, plainer versions gave: the oracles below are those versions
(each cut the first element of a stable sort, the sums a generator), run on the same input.
Small value domains make ties, VUR contributions and None figures frequent, which is where a
cut could pick another element than before."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.games.ball import game as ball_game
from ball.games.protocol import Figures
from ball.tournament import standings


def cut_by_sorting(values: Sequence[tuple[bool, float, float]], low: int, high: int) -> float:
    """`standings._cut` as it was before: each cut the first element of a sort."""
    kept = list(values)
    for _ in range(min(low, len(kept))):
        by_all = sorted(kept, key=lambda v: (v[1], v[2]))
        by_vur = sorted(kept, key=lambda v: (not v[0], v[2], v[1]))
        if not by_vur[0][0] or by_all[0][2] > by_vur[0][2]:
            kept.remove(by_all[0])
        else:
            kept.remove(by_vur[0])
    for _ in range(min(high, len(kept))):
        kept.remove(sorted(kept, key=lambda v: (-v[1], -v[2]))[0])
    return float(sum(v[2] for v in kept))


HALVES = st.integers(0, 8).map(lambda n: n / 2)  # scores 0, 0.5, ... 4: ties are common
CONTRIBUTION = st.tuples(st.booleans(), HALVES, HALVES)


@pytest.mark.hypothesis
@given(values=st.lists(CONTRIBUTION, max_size=9), low=st.integers(0, 2), high=st.integers(0, 2))
def test_a_cut_keeps_what_the_sorting_cut_kept(values, low, high):
    assert standings._cut(tuple(values), low, high) == cut_by_sorting(values, low, high)


def sum_by_generator(values: Sequence[Figures], key: str) -> float:
    """`ball_game._sum` as it was before."""
    return float(sum(v[key] or 0 for v in values if v.get(key) is not None))


FIGURE = st.one_of(st.none(), st.integers(-3, 9), st.integers(0, 18).map(lambda n: n / 4))
FIGURES = st.dictionaries(st.sampled_from(["td_for", "td_against", "pbatk"]), FIGURE)


@pytest.mark.hypothesis
@given(values=st.lists(FIGURES, max_size=9), key=st.sampled_from(["td_for", "pbatk"]))
def test_a_figure_sum_is_the_generator_sum(values, key):
    mine, theirs = ball_game._sum(values, key), sum_by_generator(values, key)
    assert mine == theirs and type(mine) is type(theirs)
