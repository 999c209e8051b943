"""Balanced schedules: whole seatings with as few repeat meetings as the search finds,
team-mates apart, and templates relabelled so that team-mates never share a table."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ball.games.mahjong.engine.designs import DESIGNS
from ball.games.mahjong.engine.seating.checking import report
from ball.games.mahjong.engine.seating.starts import (
    dealt_start,
    design_start,
    geometry_start,
    power_of_four,
)
from ball.games.mahjong.engine.seating.tables import (
    SEATS,
    Seating,
    SeatingError,
    Session,
    as_table,
    check_session,
    check_size,
    team_numbers,
    teams_separable,
)
from ball.games.mahjong.engine.seating.tabu import Search, pair_cost_bound, tabu_search
from ball.games.mahjong.engine.seating.winds import deal_winds


def balanced(
    players: int,
    sessions: int,
    teams: Mapping[int, str] | None = None,
    seed: int = 0,
    fixed: Sequence[Session] = (),
    budget: int | None = None,
) -> Seating:
    """A seating of `sessions` sessions with as few repeat meetings as the search finds
    (the bound is `repeat_bound`), team-mates apart (hard when `teams_separable`), winds
    dealt evenly. `fixed` sessions (imported or already played) are kept as they are and
    only the sessions after them are built."""
    check_size(players, sessions)
    if len(fixed) > sessions:
        raise SeatingError(f"fixed: {len(fixed)} sessions given for a seating of {sessions}")
    for i, session in enumerate(fixed, 1):
        check_session(session, players, f"session {i}")
    team = team_numbers(players, teams)
    rng = random.Random(seed)
    work = budget if budget is not None else min(3_000_000, 300_000 + 8_000 * players)
    start = _start(players, sessions - len(fixed), fixed, team, rng, work // 4)
    sched = [[list(t) for t in session] for session in fixed] + start
    st = Search(sched, len(fixed) + _whole_design(players, sessions, fixed, team), team,
                 teams_separable(players, teams), rng)
    tabu_search(st, pair_cost_bound(players, sessions, teams), work)
    tables = tuple(tuple(as_table(t) for t in session) for session in st.sched)
    return deal_winds(tables, keep=len(fixed), seed=seed)


def _whole_design(players: int, sessions: int, fixed: Sequence[Session], team: list[int]) -> int:
    """How many sessions of the start to keep as they are: all of a known design's sessions
    (no repeat among them) when more sessions than it has are asked for, no teams are kept
    apart and nothing was played. The search then seats only the sessions beyond it, which
    it does better than reworking the whole."""
    if fixed or max(team) >= 0:
        return 0
    if power_of_four(players):
        whole = (players - 1) // (SEATS - 1)
    elif players in DESIGNS:
        whole = len(DESIGNS[players])
    else:
        return 0
    return whole if sessions > whole else 0


def _start(
    players: int,
    todo: int,
    fixed: Sequence[Session],
    team: list[int],
    rng: random.Random,
    work: int,
) -> list[list[list[int]]]:
    """The sessions the search starts from. Without teams: the geometry, or a deal. With
    teams kept apart: a seating built without them and then relabelled so that team-mates
    never met in it (`_relabel`), which keeps its repeat count; failing that, a deal that
    keeps them apart."""
    spare: list[list[list[int]]] = []
    if power_of_four(players):
        start = geometry_start(players, todo, rng)
    elif players in DESIGNS:
        whole = design_start(players, max(todo, len(DESIGNS[players])), rng)
        start, spare = whole[:todo], whole[todo:]
    else:
        start = dealt_start(players, todo, {}, rng)
    named = {p: str(team[p]) for p in range(1, players + 1) if team[p] >= 0}
    if not named or not teams_separable(players, named):
        return start
    if not fixed:
        free = Search([[list(t) for t in s] for s in start], 0, [-1] * (players + 1), False,
                       rng)
        tabu_search(free, pair_cost_bound(players, todo), work)
        relabelled = _relabel(free.sched, team, rng, spare=spare)
        if relabelled is not None:
            return relabelled
    return dealt_start(players, todo, named, rng)


def _relabel(
    sched: list[list[list[int]]],
    team: list[int],
    rng: random.Random,
    tries: int = 200,
    spare: Sequence[Sequence[Sequence[int]]] = (),
) -> list[list[list[int]]] | None:
    """Give the seats of `sched` to the players again so that no two team-mates hold seats
    that ever share a table: each team, largest first, takes seats none of which met
    another (random greedy, a few hundred tries). `spare` sessions (a design's sessions
    left out of `sched`) hold tables of seats that never met: the first tries offer the
    seats table by table of one of them, so teams of up to four fill those tables. None
    when no try succeeds."""
    seats = len(team) - 1
    met: list[set[int]] = [set() for _ in range(seats + 1)]
    for session in sched:
        for table in session:
            for p in table:
                met[p].update(q for q in table if q != p)
    groups: dict[int, list[int]] = {}
    for p in range(1, seats + 1):
        groups.setdefault(team[p], []).append(p)
    teamless = groups.pop(-1, [])
    for attempt in range(tries):
        order = sorted(groups.values(), key=lambda g: (-len(g), rng.random()))
        left = _seat_order(seats, spare[attempt] if attempt < len(spare) else (), rng)
        label = _place_teams(order, left, met)
        if label is not None:
            for p, seat in zip(teamless, [x for x in left if x not in label], strict=True):
                label[seat] = p
            return [[[label[x] for x in t] for t in session] for session in sched]
    return None


def _seat_order(seats: int, session: Sequence[Sequence[int]], rng: random.Random) -> list[int]:
    """Seats 1..seats shuffled; given a session, its tables in turn (each shuffled)."""
    if not session:
        left = list(range(1, seats + 1))
        rng.shuffle(left)
        return left
    tables = [list(t) for t in session]
    rng.shuffle(tables)
    for t in tables:
        rng.shuffle(t)
    return [p for t in tables for p in t]


def separate_teams(seating: Seating, teams: Mapping[int, str], seed: int = 0) -> Seating:
    """A template (an imported seating) whose tables seat team-mates together, with its
    places given to the players again so that team-mates never share a table (the same
    tables, so the same repeat meetings and wind counts; seeded, so every session of the
    template is relabelled alike). A template with no clash, or one no relabelling frees
    of clashes, is returned as it is."""
    players = sum(len(t) for t in seating[0]) if seating else 0
    if not seating or not teams_separable(players, teams) or not report(
        seating, teams
    ).team_clashes:
        return seating
    team = team_numbers(players, teams)
    sched = [[list(t) for t in session] for session in seating]
    relabelled = _relabel(sched, team, random.Random(seed))
    if relabelled is None:
        return seating
    return tuple(tuple(as_table(t) for t in session) for session in relabelled)


def _place_teams(
    groups: list[list[int]], seats: list[int], met: list[set[int]]
) -> dict[int, int] | None:
    """seat -> player for every team member, team-mates on seats that never met."""
    label: dict[int, int] = {}
    for group in groups:
        chosen: list[int] = []
        for seat in seats:
            if len(chosen) == len(group):
                break
            if seat not in label and not any(seat in met[c] for c in chosen):
                chosen.append(seat)
        if len(chosen) < len(group):
            return None
        for seat, p in zip(chosen, group, strict=True):
            label[seat] = p
    return label
