"""The winds: seats dealt at each table so that every player sits east, south, west and north
as evenly as the number of sessions allows, and the wind counts of a seating."""

from __future__ import annotations

import random

from ball.games.mahjong.engine.seating.tables import SEATS, Seating, Table, as_table

_ORDERS = [
    (a, b, c, d) for a in range(4) for b in range(4) for c in range(4) for d in range(4)
    if len({a, b, c, d}) == 4
]


def _best_order(table: Table, counts: dict[int, list[int]]) -> Table:
    """The seats of `table`'s players (E, S, W, N) that leave their wind counts most even:
    the least highest count, then the least sum of squares (first such order on ties)."""
    rows = [counts[p] for p in table]
    best, best_key = _ORDERS[0], (1 << 30, 1 << 30)
    for order in _ORDERS:
        a = rows[order[0]][0] + 1
        b = rows[order[1]][1] + 1
        c = rows[order[2]][2] + 1
        d = rows[order[3]][3] + 1
        key = (max(a, b, c, d), a * a + b * b + c * c + d * d)
        if key < best_key:
            best, best_key = order, key
    return (table[best[0]], table[best[1]], table[best[2]], table[best[3]])


def wind_spread(seating: Seating) -> tuple[int, int]:
    """The fewest and the most times any player sat any one wind."""
    counts = wind_counts(seating)
    return min(min(c) for c in counts.values()), max(max(c) for c in counts.values())


def wind_counts(seating: Seating) -> dict[int, list[int]]:
    """Per player, how often they sat east, south, west and north."""
    counts: dict[int, list[int]] = {}
    for session in seating:
        for table in session:
            for w, p in enumerate(table):
                counts.setdefault(p, [0] * 4)[w] += 1
    return counts


# Table re-deals the wind search may make after the first deal (a few seconds at most).
WIND_WORK = 40_000


def _descend(
    out: list[list[Table]], keep: int, counts: dict[int, list[int]], work: list[int]
) -> None:
    """Re-deal each table against all the others until nothing improves (every step lowers
    the sum of squared wind counts, so this ends) or `work[0]` re-deals are spent."""
    for _ in range(8):
        changed = False
        for s in range(keep, len(out)):
            if work[0] <= 0:
                return
            work[0] -= len(out[s])
            for i, table in enumerate(out[s]):
                for w, p in enumerate(table):
                    counts[p][w] -= 1
                new = _best_order(table, counts)
                for w, p in enumerate(new):
                    counts[p][w] += 1
                changed |= new != table
                out[s][i] = new
        if not changed:
            return


def _excess(counts: dict[int, list[int]], sessions: int) -> int:
    hi, lo = -(-sessions // 4), sessions // 4
    return sum(max(0, c - hi) + max(0, lo - c) for cs in counts.values() for c in cs)


def exact_winds(seating: Seating) -> Seating:
    """The same tables with seats dealt so that every player sits each wind floor(S/4) or
    ceil(S/4) times, always (no search): an equitable edge colouring of the bipartite graph
    players - tables with the four winds as colours.

    Each player's sessions are cut into runs of four (and one shorter run), each run a
    vertex of its own; every vertex then has at most four edges and every table four, so
    by König's theorem four colours suffice, each table gets every wind once and each run
    of four every wind once: a player of S sessions sits each wind S // 4 times, plus once
    more for each wind of the last, shorter run. The colouring adds the edges one by one,
    swapping the two colours along an alternating path when the colour free at the player
    is taken at the table (the path cannot return to the player in a bipartite graph)."""
    run: dict[int, int] = {}  # sessions seen per player
    edges: list[tuple[tuple[int, int], tuple[int, int]]] = []  # (player run, table)
    for s, session in enumerate(seating):
        for t, table in enumerate(session):
            for p in table:
                edges.append(((p, run.get(p, 0) // SEATS), (s, t)))
                run[p] = run.get(p, 0) + 1
    at: dict[tuple[str, tuple[int, int]], list[int]] = {}  # vertex -> edge per colour, -1 free
    colour = [-1] * len(edges)
    for e, (u, v) in enumerate(edges):
        cu = at.setdefault(("p", u), [-1] * SEATS)
        cv = at.setdefault(("t", v), [-1] * SEATS)
        a, b = cu.index(-1), cv.index(-1)
        if cv[a] != -1:
            _swap_path(("t", v), a, b, edges, colour, at)
        colour[e], cu[a], cv[a] = a, e, e
    out = []
    for s, session in enumerate(seating):
        tables = []
        for t, _ in enumerate(session):
            seats = at[("t", (s, t))]
            tables.append(as_table([edges[seats[w]][0][0] for w in range(SEATS)]))
        out.append(tuple(tables))
    return tuple(out)


def _swap_path(
    start: tuple[str, tuple[int, int]],
    a: int,
    b: int,
    edges: list[tuple[tuple[int, int], tuple[int, int]]],
    colour: list[int],
    at: dict[tuple[str, tuple[int, int]], list[int]],
) -> None:
    """Swap colours `a` and `b` along the path from `start` whose edges alternate a, b, ...
    (`b` is free at `start`, so afterwards `a` is)."""
    path, vertex, c = [], start, a
    while (e := at[vertex][c]) != -1:
        path.append(e)
        u, v = edges[e]
        vertex = ("p", u) if vertex[0] == "t" else ("t", v)
        c = b if c == a else a
    for e in path:  # clear first, then set: an edge's two ends swap at once
        u, v = edges[e]
        at[("p", u)][colour[e]] = at[("t", v)][colour[e]] = -1
    for e in path:
        colour[e] = b if colour[e] == a else a
        u, v = edges[e]
        at[("p", u)][colour[e]] = at[("t", v)][colour[e]] = e


def deal_winds(seating: Seating, keep: int = 0, seed: int = 0) -> Seating:
    """The same tables with seats re-dealt so that every player sits each wind between
    floor(S/4) and ceil(S/4) times; the first `keep` sessions are left as they are. With
    none kept this is exact (`exact_winds`). With sessions kept, whose winds may already be
    uneven, a greedy deal session by session, then descent (`_descend`), then rounds that
    shuffle the tables of players outside the bounds and descend again, keeping the best."""
    if keep == 0:
        return exact_winds(seating)
    counts: dict[int, list[int]] = {p: [0] * 4 for s in seating for t in s for p in t}
    out = [list(session) for session in seating]
    for s, session in enumerate(out):  # first deal: greedy, session by session
        for i, table in enumerate(session):
            if s >= keep:
                table = session[i] = _best_order(table, counts)
            for w, p in enumerate(table):
                counts[p][w] += 1
    work = [WIND_WORK]
    _descend(out, keep, counts, work)
    rng, sessions = random.Random(seed), len(out)
    best, best_excess = [list(s) for s in out], _excess(counts, sessions)
    for _ in range(60):
        if best_excess == 0 or keep >= sessions or work[0] <= 0:
            break
        hi, lo = -(-sessions // 4), sessions // 4
        bad = {p for p, cs in counts.items() if max(cs) > hi or min(cs) < lo}
        for s in range(keep, sessions):
            for i, table in enumerate(out[s]):
                if bad.intersection(table) and rng.random() < 0.5:
                    order = list(table)
                    rng.shuffle(order)
                    for w, p in enumerate(table):
                        counts[p][w] -= 1
                    out[s][i] = as_table(order)
                    for w, p in enumerate(order):
                        counts[p][w] += 1
        _descend(out, keep, counts, work)
        if _excess(counts, sessions) < best_excess:
            best, best_excess = [list(s) for s in out], _excess(counts, sessions)
    return tuple(tuple(session) for session in best)
