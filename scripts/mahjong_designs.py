"""Writes src/ball/mahjong/designs.py: seatings of four-player tables in which no two
players meet twice, built here by a checked construction (run it again to check them).

- 28 players, 9 sessions: the Hermitian unital of order 3 (the points of
  x^4 + y^4 + z^4 = 0 in PG(2, 9), blocks its secant lines, a resolvable 2-(28, 4, 1)
  design), its 63 blocks split into 9 parallel classes by exact cover.
- 40 players, 13 sessions: the points of PG(3, 3) and its 130 lines, split into 13 spreads
  (a packing, Denniston), by exact cover over the 8424 spreads.
- 32 players, 9 sessions: the social golfer solution 8-4-9 published by CSPLib (problem
  010, results/9weeksol.txt, CC BY 4.0), checked here.

    .venv/bin/python scripts/mahjong_designs.py
"""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

Design = list[list[tuple[int, ...]]]

CSPLIB_32_9 = """
1 2 3 4|5 6 7 8|9 10 11 12|13 14 15 16|17 18 19 20|21 22 23 24|25 26 27 28|29 30 31 32
1 5 9 13|2 6 10 14|3 7 11 15|4 8 12 16|17 21 25 29|18 22 26 30|19 23 27 31|20 24 28 32
1 6 11 16|2 5 12 15|3 8 9 14|4 7 10 13|17 22 27 32|18 21 28 31|19 24 25 30|20 23 26 29
1 7 17 23|2 8 18 24|3 5 19 21|4 6 20 22|9 15 25 31|10 16 26 32|11 13 27 29|12 14 28 30
1 8 19 22|2 7 20 21|3 6 17 24|4 5 18 23|9 16 27 30|10 15 28 29|11 14 25 32|12 13 26 31
1 10 18 25|2 9 17 26|3 12 20 27|4 11 19 28|5 14 22 29|6 13 21 30|7 16 24 31|8 15 23 32
1 12 21 32|2 11 22 31|3 10 23 30|4 9 24 29|5 16 17 28|6 15 18 27|7 14 19 26|8 13 20 25
1 14 20 31|2 13 19 32|3 16 18 29|4 15 17 30|5 10 24 27|6 9 23 28|7 12 22 25|8 11 21 26
1 15 24 26|2 16 23 25|3 13 22 28|4 14 21 27|5 11 20 30|6 12 19 29|7 9 18 32|8 10 17 31
"""


def exact_cover(universe: int, sets: list[tuple[int, ...]], parts: int) -> list[int] | None:
    """`parts` of `sets` covering 0..universe-1 exactly once (the element with the fewest
    choices first)."""
    masks = [sum(1 << x for x in s) for s in sets]
    by_elem: list[list[int]] = [[] for _ in range(universe)]
    for i, s in enumerate(sets):
        for x in s:
            by_elem[x].append(i)

    def go(used: int, chosen: list[int]) -> list[int] | None:
        if len(chosen) == parts:
            return chosen if used == (1 << universe) - 1 else None
        best: list[int] | None = None
        for x in range(universe):
            if not used >> x & 1:
                options = [i for i in by_elem[x] if not used & masks[i]]
                if best is None or len(options) < len(best):
                    best = options
                if not options:
                    return None
        for i in best or []:
            found = go(used | masks[i], [*chosen, i])
            if found:
                return found
        return None

    return go(0, [])


def all_covers(universe: int, sets: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Every set of disjoint `sets` covering 0..universe-1 (as sorted indices)."""
    masks = [sum(1 << x for x in s) for s in sets]
    by_elem: list[list[int]] = [[] for _ in range(universe)]
    for i, s in enumerate(sets):
        for x in s:
            by_elem[x].append(i)
    out: list[tuple[int, ...]] = []

    def go(used: int, chosen: list[int]) -> None:
        if used == (1 << universe) - 1:
            out.append(tuple(sorted(chosen)))
            return
        x = next(i for i in range(universe) if not used >> i & 1)
        for i in by_elem[x]:
            if not used & masks[i]:
                go(used | masks[i], [*chosen, i])

    go(0, [])
    return sorted(set(out))


def resolve(points: int, blocks: list[tuple[int, ...]]) -> Design:
    classes = all_covers(points, blocks)
    chosen = exact_cover(len(blocks), classes, len(blocks) * 4 // points)
    assert chosen is not None
    return [[tuple(p + 1 for p in blocks[b]) for b in classes[c]] for c in chosen]


def unital_28() -> Design:
    def add(x: int, y: int) -> int:  # GF(9) = GF(3)[i], i^2 = -1, x = a + 3b for a + bi
        return (x % 3 + y % 3) % 3 + 3 * ((x // 3 + y // 3) % 3)

    def mul(x: int, y: int) -> int:
        a, b, c, d = x % 3, x // 3, y % 3, y // 3
        return (a * c - b * d) % 3 + 3 * ((a * d + b * c) % 3)

    def norm(x: int) -> int:  # x^(q+1) = x times its conjugate, in GF(3)
        return (x % 3 * (x % 3) + x // 3 * (x // 3)) % 3

    plane = [v for v in itertools.product(range(9), repeat=3)
             if any(v) and next(x for x in v if x) == 1]  # fmt: skip
    unital = [p for p in plane if sum(norm(x) for x in p) % 3 == 0]
    assert len(unital) == 28
    blocks = set()
    for line in plane:
        on = tuple(i for i, p in enumerate(unital)
                   if add(add(mul(line[0], p[0]), mul(line[1], p[1])), mul(line[2], p[2])) == 0)
        if len(on) == 4:
            blocks.add(on)
    assert len(blocks) == 63
    return resolve(28, sorted(blocks))


def packing_40() -> Design:
    space = [v for v in itertools.product(range(3), repeat=4)
             if any(v) and next(x for x in v if x) == 1]  # fmt: skip
    index = {p: i for i, p in enumerate(space)}

    def point(v: tuple[int, ...]) -> int:
        lead = next(x for x in v if x)
        return index[tuple(x * lead % 3 for x in v)]  # 1 and 2 are their own inverses

    lines = set()
    for a, b in itertools.combinations(range(40), 2):
        pa, pb = space[a], space[b]
        pairs = list(zip(pa, pb, strict=True))
        third = point(tuple((x + y) % 3 for x, y in pairs))
        fourth = point(tuple((x + 2 * y) % 3 for x, y in pairs))
        lines.add(tuple(sorted({a, b, third, fourth})))
    assert len(lines) == 130
    return resolve(40, sorted(lines))


def csplib_32() -> Design:
    return [[tuple(int(x) for x in t.split()) for t in row.split("|")]
            for row in CSPLIB_32_9.strip().splitlines()]  # fmt: skip


def check(players: int, design: Design) -> None:
    met: set[tuple[int, int]] = set()
    for session in design:
        assert sorted(p for t in session for p in t) == list(range(1, players + 1))
        for table in session:
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in met, pair
                met.add(pair)


def main() -> None:
    designs = {28: unital_28(), 32: csplib_32(), 40: packing_40()}
    lines = [
        '"""Seatings with no repeat meeting that no formula in `seating` gives: written by',
        "`scripts/mahjong_designs.py` (the constructions and sources are there; do not edit by",
        "hand). `DESIGNS[N]` lists sessions of tables of four, players 1..N: 28 players over 9",
        "sessions (the Hermitian unital of order 3), 32 over 9 (the social golfer solution",
        "8-4-9 published by CSPLib, problem 010, CC BY 4.0), 40 over 13 (a packing of",
        'PG(3, 3)). `tests/mahjong/test_designs.py` checks each is a seating with 0 repeats."""',
        "",
        "from __future__ import annotations",
        "",
        "DESIGNS: dict[int, tuple[tuple[tuple[int, int, int, int], ...], ...]] = {",
    ]
    for players, design in designs.items():
        check(players, design)
        lines.append(f"    {players}: (")
        for session in design:
            text = "(" + ", ".join(str(tuple(t)) for t in session) + "),"
            lines.extend(textwrap.wrap(text, 96, initial_indent=" " * 8,
                                       subsequent_indent=" " * 9))  # fmt: skip
        lines.append("    ),")
    lines.append("}")
    out = Path(__file__).resolve().parent.parent / "src/ball/mahjong/designs.py"
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}: " + ", ".join(f"{n} x {len(d)}" for n, d in designs.items()))


if __name__ == "__main__":
    main()
