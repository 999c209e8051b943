"""Where the balanced search starts: sessions from AG(k, 4)'s parallel classes, from a shipped
design with no repeat (`designs.DESIGNS`), or seeded deals that keep team-mates apart."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ball.games.mahjong.engine.designs import DESIGNS
from ball.games.mahjong.engine.seating.tables import SEATS

# --- geometry start: AG(k, 4) -----------------------------------------------------------

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))  # x^2 = x + 1; add = xor


def power_of_four(n: int) -> int:
    k = 0
    while n > 1 and n % 4 == 0:
        n, k = n // 4, k + 1
    return k if n == 1 and k >= 2 else 0


def _vec(i: int, k: int) -> list[int]:
    return [(i >> (2 * j)) & 3 for j in range(k)]


def _index(v: Sequence[int]) -> int:
    return sum(x << (2 * j) for j, x in enumerate(v))


def _directions(k: int) -> list[list[int]]:
    """One vector per parallel class: nonzero, last nonzero coordinate 1."""
    out = []
    for i in range(1, 4**k):
        v = _vec(i, k)
        if [x for x in v if x][-1] == 1:
            out.append(v)
    return out


def _parallel_class(k: int, d: Sequence[int]) -> list[list[int]]:
    lines: dict[int, list[int]] = {}
    for p in range(4**k):
        pv = _vec(p, k)
        line = sorted(_index([pv[j] ^ _GF4_MUL[t][d[j]] for j in range(k)]) for t in range(4))
        lines.setdefault(line[0], line)
    return list(lines.values())


def geometry_start(players: int, sessions: int, rng: random.Random) -> list[list[list[int]]]:
    """Sessions from AG(k, 4)'s parallel classes (cycled when there are more sessions)."""
    k = power_of_four(players)
    label = list(range(1, players + 1))
    rng.shuffle(label)
    directions = _directions(k)
    rng.shuffle(directions)
    classes = [_parallel_class(k, d) for d in directions[:sessions]]
    return [
        [[label[p] for p in line] for line in classes[s % len(classes)]] for s in range(sessions)
    ]


def design_start(players: int, sessions: int, rng: random.Random) -> list[list[list[int]]]:
    """Sessions of a shipped design with no repeat meeting (`designs.DESIGNS`), relabelled
    and reordered by the seed (cycled when there are more sessions)."""
    design = DESIGNS[players]
    label = list(range(1, players + 1))
    rng.shuffle(label)
    order = list(range(len(design)))
    rng.shuffle(order)
    return [
        [[label[p - 1] for p in table] for table in design[order[s % len(order)]]]
        for s in range(sessions)
    ]


def dealt_start(
    players: int, sessions: int, team_of: Mapping[int, str], rng: random.Random
) -> list[list[list[int]]]:
    """Seeded deals in which no two team-mates share a table when every team has at most
    one player per table (`teams_separable`)."""
    return [deal(players, team_of, rng) for _ in range(sessions)]


def deal(players: int, team_of: Mapping[int, str], rng: random.Random) -> list[list[int]]:
    """Largest team first, each team onto the tables with the most free seats (random among
    equals), then everyone without a team into the seats left; if that ever fails, a deal
    round the tables in team order, which always separates a separable field."""
    tables = players // SEATS
    members: dict[str, list[int]] = {}
    for p in range(1, players + 1):
        if p in team_of:
            members.setdefault(team_of[p], []).append(p)
    groups = sorted(members.values(), key=lambda g: (-len(g), rng.random()))
    session: list[list[int]] = [[] for _ in range(tables)]
    for group in groups:
        rng.shuffle(group)
        free = sorted(range(tables), key=lambda t: (len(session[t]), rng.random()))
        if len(group) > tables or len(session[free[len(group) - 1]]) >= SEATS:
            return _round_robin(players, team_of, rng)
        for p, t in zip(group, free, strict=False):
            session[t].append(p)
    rest = [p for p in range(1, players + 1) if p not in team_of]
    rng.shuffle(rest)
    for t in range(tables):
        while len(session[t]) < SEATS:
            session[t].append(rest.pop())
    return session


def _round_robin(
    players: int, team_of: Mapping[int, str], rng: random.Random
) -> list[list[int]]:
    tables = players // SEATS
    order = list(range(1, players + 1))
    rng.shuffle(order)
    order.sort(key=lambda p: team_of.get(p, ""))
    session: list[list[int]] = [[] for _ in range(tables)]
    for i, p in enumerate(order):
        session[i % tables].append(p)
    return session
