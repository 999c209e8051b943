"""Seeded groups, then a final stage (seed 004 article 11.3): the pure rules, game-agnostic.

* `snake`: the seeds (best first) dealt into G groups in snake order (1..G, then G..1, ...),
  so the groups are as even as the ratings allow and their sizes differ by at most one;
* `group_round`: round r of a group as a round robin (single or double) by the Berger
  tables of the largest group, so every group plays the same rounds; in a smaller group the
  seat left empty gives its opponent of that round a bye (E-16);
* `qualified`: the top K of a group's ranking; a tie across the cut that the event's chain
  leaves is decided by the group seat (the higher seed, E-15), and says so;
* `bracket`: the knockout final's seeds (group winners, then the runners-up, ...) placed so
  that two entrants of one group meet as late as the bracket allows (E-17);
* `final_seats` / `final_round`: a round-robin final by the Berger tables over the
  qualifiers; with `carry`, the games two qualifiers of one group played there count in the
  final and they do not meet again (their table is left out; a round left empty is
  skipped), E-18.

Positions are 0-based seats in a list; the service maps them to entrants.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from ball.tournament import berger, knockout
from ball.tournament.errors import TournamentError

T = TypeVar("T")

FINALS = ("round-robin", "knockout")
MAX_GROUPS = 64


@dataclass(frozen=True)
class Setup:
    """How an event runs its groups and its final (stored on the event)."""

    groups: int
    cycles: int = 1  # 1: single round robin in each group, 2: double
    final: str = "knockout"  # round-robin | knockout
    qualifiers: int = 2  # the top K of each group go through
    carry: bool = False  # a round-robin final counts the qualifiers' group games


def check(setup: Setup, entrants: int | None = None) -> Setup:
    """Refuse a setup that cannot run, naming the option at fault."""
    if not 2 <= setup.groups <= MAX_GROUPS:
        raise TournamentError(f"--groups is 2 to {MAX_GROUPS}; got {setup.groups}")
    if setup.cycles not in (1, 2):
        raise TournamentError(f"--group-cycles is 1 or 2; got {setup.cycles}")
    if setup.final not in FINALS:
        raise TournamentError(f"--final is {' or '.join(FINALS)}; got {setup.final!r}")
    if setup.qualifiers < 1:
        raise TournamentError(f"--qualifiers is at least 1; got {setup.qualifiers}")
    if setup.carry and setup.final != "round-robin":
        raise TournamentError("--carry applies to a round-robin final only")
    if entrants is not None:
        smallest = entrants // setup.groups
        if smallest < 2:
            raise TournamentError(
                f"{entrants} entrants cannot make {setup.groups} groups of at least two"
            )
        if setup.qualifiers > smallest:
            raise TournamentError(
                f"--qualifiers {setup.qualifiers} exceeds the smallest group ({smallest} entrants)"
            )
    return setup


def snake(seeds: Sequence[T], groups: int) -> list[list[T]]:
    """Deal `seeds` (best first) into `groups` groups: 1..G, G..1, 1..G, ..."""
    out: list[list[T]] = [[] for _ in range(groups)]
    for i, seed in enumerate(seeds):
        lap, pos = divmod(i, groups)
        out[pos if lap % 2 == 0 else groups - 1 - pos].append(seed)
    return out


def group_rounds(sizes: Sequence[int], cycles: int) -> int:
    """Rounds of the group stage: the largest group's round robin."""
    return berger.berger_rounds(max(sizes)) * cycles


def group_round(size: int, largest: int, number: int, cycles: int) -> list[tuple[int, int | None]]:
    """Round `number` of a group of `size` seats by the Berger tables of `largest` seats:
    pairs of 0-based seats, (seat, None) a bye (the dummy, or a seat the group lacks)."""
    out: list[tuple[int, int | None]] = []
    for a, b in berger.round_robin_round(largest, number, cycles):
        seats = [x - 1 for x in (a, b) if x is not None and x <= size]
        if len(seats) == 2:
            out.append((seats[0], seats[1]))
        elif seats:
            out.append((seats[0], None))
    return out


def qualified(ranking: Sequence[tuple[int, T]], k: int) -> tuple[list[T], list[T]]:
    """The top `k` of a group's ranking, given as (rank, entrant) best first in seat order
    within a shared rank. Returns (qualified, tied): `tied` lists the entrants who share the
    rank at the cut when not all of them go through (decided by seat, E-15)."""
    chosen = [x for _, x in ranking[:k]]
    if len(ranking) <= k:
        return chosen, []
    cut = ranking[k - 1][0]
    tied = [x for rank, x in ranking if rank == cut]
    return chosen, tied if ranking[k][0] == cut else []


def meeting_round(i: int, j: int) -> int:
    """The round in which bracket slots i and j (0-based) can first meet."""
    return (i ^ j).bit_length()


def bracket(qualified_by_group: Sequence[Sequence[T]]) -> list[T | None]:
    """The final's bracket in slot order (None: a bye's empty slot). Seeds: every group's
    winner (group order), then the runners-up, ...; the entrants of each place after the
    first are ordered so that two of one group meet as late as possible (E-17)."""
    groups = len(qualified_by_group)
    places = max((len(q) for q in qualified_by_group), default=0)
    seeded: list[tuple[int, T]] = [
        (g, q[0]) for g, q in enumerate(qualified_by_group) if q
    ]  # winners, fixed
    size = knockout.bracket_size(sum(len(q) for q in qualified_by_group))
    slot_of_seed = {seed: slot for slot, seed in enumerate(knockout.seed_positions(size))}
    for place in range(1, places):
        here = [(g, q[place]) for g, q in enumerate(qualified_by_group) if len(q) > place]
        seeded += _best_order(seeded, here, slot_of_seed) if groups <= 7 else here
    slots: list[T | None] = [None] * size
    for seed, (_, entrant) in enumerate(seeded, start=1):
        slots[slot_of_seed[seed]] = entrant
    return slots


def _best_order(
    placed: list[tuple[int, T]], here: list[tuple[int, T]], slot_of_seed: dict[int, int]
) -> list[tuple[int, T]]:
    """The order of `here` (seeds after `placed`) that keeps group mates apart longest:
    the earliest possible meeting of two of one group as late as possible, then the sum."""

    def score(order: tuple[tuple[int, T], ...]) -> tuple[int, int]:
        seeded = placed + list(order)
        rounds = [
            meeting_round(slot_of_seed[i + 1], slot_of_seed[j + 1])
            for i, j in itertools.combinations(range(len(seeded)), 2)
            if seeded[i][0] == seeded[j][0]
        ]
        return (min(rounds, default=99), sum(rounds))

    best = max(itertools.permutations(here), key=score)
    return list(best)


def final_seats(qualified_by_group: Sequence[Sequence[T]]) -> list[T]:
    """A round-robin final's seats (Berger numbers 1..n): with two per group, the two of a
    group sit at n+1-i of each other, so Berger round 1 pairs exactly the group mates (the
    round a carried final leaves out); otherwise by place, then group."""
    places = max((len(q) for q in qualified_by_group), default=0)
    by_place = [q[p] for p in range(places) for q in qualified_by_group if len(q) > p]
    if places == 2 and all(len(q) == 2 for q in qualified_by_group):
        firsts = [q[0] for q in qualified_by_group]
        seconds = [q[1] for q in reversed(qualified_by_group)]
        return firsts + seconds
    return by_place


def final_rounds(seats: int, carry_pairs: set[frozenset[int]]) -> list[int]:
    """The Berger rounds a round-robin final plays: every round with a table left after the
    carried pairs (0-based seats) are taken out."""
    out = []
    for r in range(1, berger.berger_rounds(seats) + 1):
        tables = _seats_of_round(seats, r)
        if any(b is not None and _table_left(a, b, carry_pairs) for a, b in tables):
            out.append(r)
    return out


def final_round(
    seats: int, berger_round: int, carry_pairs: set[frozenset[int]]
) -> list[tuple[int, int | None]]:
    """The tables of one Berger round of the final, 0-based seats; a carried pair is left
    out (both sit the round out: their game is the one they played in the group)."""
    return [
        (a, b) for a, b in _seats_of_round(seats, berger_round) if _table_left(a, b, carry_pairs)
    ]


def planned_final_rounds(setup: Setup) -> int:
    """The rounds the final will take when every group has `qualifiers` (a knockout's
    replays come on top)."""
    qualified = [[(g, p) for p in range(setup.qualifiers)] for g in range(setup.groups)]
    n = setup.groups * setup.qualifiers
    if setup.final == "knockout":
        return knockout.bracket_size(n).bit_length() - 1
    seats = final_seats(qualified)
    carried = {
        frozenset((i, j))
        for i, j in itertools.combinations(range(n), 2)
        if setup.carry and seats[i][0] == seats[j][0]
    }
    return len(final_rounds(n, carried))


def _seats_of_round(seats: int, r: int) -> list[tuple[int, int | None]]:
    return [(a - 1, b - 1 if b is not None else None) for a, b in berger.berger_round(seats, r)]


def _table_left(a: int, b: int | None, carry_pairs: set[frozenset[int]]) -> bool:
    return b is None or frozenset((a, b)) not in carry_pairs
