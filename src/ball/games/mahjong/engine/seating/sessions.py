"""One session at a time: a seeded shuffle (`random_session`) or the ranking's order
(`by_ranking`), team-mates moved apart the shortest way (decision M-24)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence

from ball.games.mahjong.engine.seating.starts import deal
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
from ball.games.mahjong.engine.seating.winds import deal_winds


def _chunks(order: Sequence[int]) -> Session:
    return tuple(
        (order[i], order[i + 1], order[i + 2], order[i + 3]) for i in range(0, len(order), SEATS)
    )


def random_session(
    players: int, seed: int = 0, teams: Mapping[int, str] | None = None
) -> Session:
    """Players 1..N shuffled (seeded) into tables; with `teams`, a seeded deal that keeps
    team-mates apart where every team has at most one player per table (M-07)."""
    check_size(players, 1)
    if teams:
        team_numbers(players, teams)  # checks the players named
        if teams_separable(players, teams):
            return tuple(as_table(t) for t in deal(players, teams, random.Random(seed)))
    order = list(range(1, players + 1))
    random.Random(seed).shuffle(order)
    return _chunks(order)


def by_ranking(
    ranking: Sequence[int], history: Seating = (), teams: Mapping[int, str] | None = None
) -> Session:
    """The top four together, the next four, ... (`ranking` best first). With `teams`,
    team-mates are kept apart as decision M-24 says (`_separate_by_rank`). Without
    `history` the seats follow the ranking; with the sessions already played, the winds are
    dealt so that each player's wind counts over the event stay even (`deal_winds`)."""
    if sorted(ranking) != list(range(1, len(ranking) + 1)):
        raise SeatingError("ranking: must list every player 1..N exactly once")
    check_size(len(ranking), 1)
    tables = [list(t) for t in _chunks(list(ranking))]
    _separate_by_rank(tables, list(ranking), team_numbers(len(ranking), teams))
    session = tuple(as_table(t) for t in tables)
    if not history:
        return session
    for i, played in enumerate(history, 1):
        check_session(played, len(ranking), f"session {i}")
    return deal_winds((*history, session), keep=len(history))[-1]


def _separate_by_rank(tables: list[list[int]], ranking: list[int], team: list[int]) -> None:
    """Move team-mates apart in a session seated by ranking, displacing ranks as little as
    the teams allow (decision M-24). Tables are taken best first; while a table seats two
    team-mates, the lower-ranked of them leaves it along the shortest chain of moves
    (`_chain`): in the simplest case they change places with the player nearest to them in
    rank at the nearest table. No table a move touches is left with team-mates, so a table
    put right stays right. A clash no chain removes stays (`report` counts it). Each table is
    sorted by rank again afterwards, so seats still follow the ranking."""
    rank = {p: i for i, p in enumerate(ranking)}
    for i, table in enumerate(tables):
        for _ in range(SEATS):  # each chain takes one clashing player away for good
            clashing = sorted(_clashing(table, team), key=rank.__getitem__, reverse=True)
            chain = next(filter(None, (_chain(tables, i, p, rank, team) for p in clashing)), None)
            if chain is None:
                break
            for j, leaving, coming in chain:
                tables[j][tables[j].index(leaving)] = coming
    for table in tables:
        table.sort(key=rank.__getitem__)


def _clashing(table: Sequence[int], team: list[int]) -> list[int]:
    """The players of `table` who share it with a team-mate."""
    return [p for p in table if team[p] >= 0 and sum(team[q] == team[p] for q in table) > 1]


def _chain(
    tables: list[list[int]], i: int, mover: int, rank: dict[int, int], team: list[int]
) -> list[tuple[int, int, int]] | None:
    """The moves (table, player leaving it, player taking the seat) that take `mover` away
    from table `i`: `mover` sits down at another table, whose player leaves for a third,
    ... until a player takes `mover`'s seat. Breadth first, so the fewest tables change;
    nearer tables (a lower one first at the same distance) and, in each, the player nearest
    in rank are tried first. No player may join a table where a team-mate sits. None when
    no chain exists."""
    stay = [q for q in tables[i] if q != mover]
    order = sorted(range(len(tables)), key=lambda j: (abs(j - i), j < i))
    queue: deque[tuple[int, list[tuple[int, int, int]]]] = deque([(mover, [])])
    seen = {(i, team[mover])}  # a table reached by a player of a team: reached by any of it
    while queue:
        coming, moves = queue.popleft()
        touched = {j for j, _, _ in moves}
        for j in order:
            if j in touched or (j, team[coming]) in seen or j == i:
                continue
            seen.add((j, team[coming]))
            for leaving in sorted(tables[j], key=lambda q: abs(rank[q] - rank[coming])):
                if not _fits(coming, [q for q in tables[j] if q != leaving], team):
                    continue
                path = [*moves, (j, leaving, coming)]
                if _fits(leaving, stay, team):
                    return [*path, (i, mover, leaving)]
                queue.append((leaving, path))
    return None


def _fits(player: int, others: Sequence[int], team: list[int]) -> bool:
    return team[player] < 0 or all(team[q] != team[player] for q in others)
