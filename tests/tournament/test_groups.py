"""The pure rules of seeded groups then a final (seed 004 article 11.3; `groups`)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.tournament import berger, groups, knockout
from ball.tournament.errors import TournamentError


def test_snake_seeding_deals_1_to_g_then_back():
    # 11.3: seeds spread over the groups; 16 seeds into 4 groups.
    assert groups.snake(list(range(1, 17)), 4) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]
    assert groups.snake(list(range(1, 8)), 3) == [[1, 6, 7], [2, 5], [3, 4]]


@pytest.mark.hypothesis
@given(st.integers(4, 40), st.integers(2, 8))
def test_snake_groups_differ_by_one_and_keep_every_seed(n, g):
    dealt = groups.snake(list(range(n)), g)
    sizes = [len(x) for x in dealt]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(itertools.chain.from_iterable(dealt)) == list(range(n))
    # each group's seeds are in seed order (the best first)
    assert all(x == sorted(x) for x in dealt)


@pytest.mark.hypothesis
@given(st.integers(2, 9), st.integers(0, 1), st.integers(1, 2))
def test_every_group_plays_an_exact_round_robin_in_the_same_rounds(size, smaller, cycles):
    # E-16: a group one smaller than the largest plays by the largest's tables; the seat it
    # lacks gives a bye, and every pair still meets once per cycle.
    largest = size + smaller
    rounds = groups.group_rounds([size, largest], cycles)
    assert rounds == berger.berger_rounds(largest) * cycles
    met: Counter[frozenset[int]] = Counter()
    for r in range(1, rounds + 1):
        tables = groups.group_round(size, largest, r, cycles)
        seats = [x for a, b in tables for x in (a, b) if x is not None]
        assert len(seats) == len(set(seats)) and set(seats) <= set(range(size))
        met.update(frozenset((a, b)) for a, b in tables if b is not None)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(size), 2)}
    assert set(met.values()) == {cycles}


def test_qualified_reports_a_tie_the_chain_left_at_the_cut():
    assert groups.qualified([(1, "a"), (2, "b"), (3, "c")], 2) == (["a", "b"], [])
    # b and c share rank 2: b (the earlier seat) goes through, the tie is reported (E-15)
    assert groups.qualified([(1, "a"), (2, "b"), (2, "c"), (4, "d")], 2) == (
        ["a", "b"],
        ["b", "c"],
    )
    # a shared rank wholly inside the cut is no tie at the cut
    assert groups.qualified([(1, "a"), (1, "b"), (3, "c")], 2) == (["a", "b"], [])


def _earliest_group_meeting(slots: list[tuple[int, int] | None]) -> int:
    rounds = [
        groups.meeting_round(i, j)
        for i, j in itertools.combinations(range(len(slots)), 2)
        if slots[i] is not None and slots[j] is not None and slots[i][0] == slots[j][0]
    ]
    return min(rounds, default=99)


def test_knockout_final_of_4_groups_keeps_group_mates_in_opposite_halves():
    qualified = [[(g, p) for p in range(2)] for g in range(4)]
    slots = groups.bracket(qualified)
    assert len(slots) == 8 and None not in slots
    # group winners are seeds 1-4: never in the same quarter
    winners = [i for i, s in enumerate(slots) if s is not None and s[1] == 0]
    assert len({i // 2 for i in winners}) == 4
    # two of one group can meet only in the final (round 3 of 3)
    assert _earliest_group_meeting(slots) == 3


@pytest.mark.hypothesis
@given(st.integers(2, 6), st.integers(1, 3))
def test_bracket_places_everyone_once_and_separates_group_mates_as_far_as_possible(g, k):
    qualified = [[(grp, p) for p in range(k)] for grp in range(g)]
    slots = groups.bracket(qualified)
    placed = [s for s in slots if s is not None]
    assert sorted(placed) == sorted(x for q in qualified for x in q)
    assert len(slots) == knockout.bracket_size(g * k)
    # no better placement exists: compare with every order of the later places
    best = 0
    size = len(slots)
    slot_of_seed = {seed: slot for slot, seed in enumerate(knockout.seed_positions(size))}
    if k == 2 and g <= 5:
        for order in itertools.permutations(range(g)):
            seeded = [(x, 0) for x in range(g)] + [(x, 1) for x in order]
            trial: list = [None] * size
            for seed, entrant in enumerate(seeded, start=1):
                trial[slot_of_seed[seed]] = entrant
            best = max(best, _earliest_group_meeting(trial))
        assert _earliest_group_meeting(slots) == best


@pytest.mark.hypothesis
@given(st.integers(2, 6), st.integers(1, 3), st.booleans())
def test_round_robin_final_meets_everyone_once_except_carried_group_mates(g, k, carry):
    # E-18: carried, two of one group do not meet again; otherwise all meet once.
    qualified = [[(grp, p) for p in range(k)] for grp in range(g)]
    seats = groups.final_seats(qualified)
    assert sorted(seats) == sorted(x for q in qualified for x in q)
    carried = (
        {
            frozenset((i, j))
            for i, j in itertools.combinations(range(len(seats)), 2)
            if seats[i][0] == seats[j][0]
        }
        if carry
        else set()
    )
    plan = groups.final_rounds(len(seats), carried)
    met: Counter[frozenset[int]] = Counter()
    for r in plan:
        tables = groups.final_round(len(seats), r, carried)
        assert any(b is not None for _, b in tables)  # no round without a game
        met.update(frozenset((a, b)) for a, b in tables if b is not None)
    everyone = {frozenset(p) for p in itertools.combinations(range(len(seats)), 2)}
    assert set(met) == everyone - carried and set(met.values()) <= {1}
    if carry and k == 2:
        # two per group: the group mates all fall in Berger round 1, which is left out
        assert len(plan) == berger.berger_rounds(len(seats)) - 1


def test_setup_errors_name_the_option():
    with pytest.raises(TournamentError, match="--groups"):
        groups.check(groups.Setup(1))
    with pytest.raises(TournamentError, match="--final"):
        groups.check(groups.Setup(4, final="swiss"))
    with pytest.raises(TournamentError, match="--carry"):
        groups.check(groups.Setup(4, final="knockout", carry=True))
    with pytest.raises(TournamentError, match="--qualifiers 3 exceeds"):
        groups.check(groups.Setup(4, qualifiers=3), entrants=8)
    with pytest.raises(TournamentError, match="groups of at least two"):
        groups.check(groups.Setup(4), entrants=7)
    with pytest.raises(TournamentError, match="--group-cycles"):
        groups.check(groups.Setup(4, cycles=3))


@pytest.mark.parametrize(
    ("setup", "rounds"),
    [
        (groups.Setup(4, final="knockout", qualifiers=2), 3),  # 8 in a bracket
        (groups.Setup(3, final="knockout", qualifiers=2), 3),  # 6 in a bracket of 8
        (groups.Setup(4, final="round-robin", qualifiers=2), 7),
        (groups.Setup(4, final="round-robin", qualifiers=2, carry=True), 6),
        (groups.Setup(3, final="round-robin", qualifiers=1), 3),  # 3 entrants: 3 rounds
    ],
)
def test_planned_final_rounds(setup, rounds):
    assert groups.planned_final_rounds(setup) == rounds
