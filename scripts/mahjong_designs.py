"""Writes src/ball/games/mahjong/engine/designs.py: seatings of four-player tables in which no
two players meet twice, built here by a checked construction (run it again to check them).

- 24 players, 7 sessions: players (x, k) for x in Z_7 and kinds k = 0, 1, 2, and three
  fixed players; one base session, found here by backtracking, in which every difference
  (same kind: +-d; kinds k < l: y - x) occurs at most once, no two fixed players sit
  together and each fixed player sits with one player of each kind; its 7 translates mod 7
  are the sessions (a cyclic construction, so every pair meets at most once).
- 28 players, 9 sessions: the Hermitian unital of order 3 (the points of
  x^4 + y^4 + z^4 = 0 in PG(2, 9), blocks its secant lines, a resolvable 2-(28, 4, 1)
  design), its 63 blocks split into 9 parallel classes by exact cover.
- 32 players, 10 sessions: the social golfer solution 8-4-10 published by Aguado (2004)
  and in the Wolfram Demonstrations Project "Social Golfer Problem" (as 11 rounds with a
  last round of pairs, left out here), players A..P and a..p numbered 1..32, checked here.
- 40 players, 13 sessions: the points of PG(3, 3) and its 130 lines, split into 13 spreads
  (a packing, Denniston), by exact cover over the 8424 spreads.

    .venv/bin/python scripts/mahjong_designs.py
"""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

Design = list[list[tuple[int, ...]]]

AGUADO_32_10 = """
ABCD EFGH IJKL MNOP abcd efgh ijkl mnop
AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO
Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn
AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN
AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn
AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP
AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp
AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm
AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp
AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo
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


def aguado_32() -> Design:
    number = {c: i + 1 for i, c in enumerate("ABCDEFGHIJKLMNOPabcdefghijklmnop")}
    return [[tuple(number[c] for c in t) for t in row.split()]
            for row in AGUADO_32_10.strip().splitlines()]  # fmt: skip


def cyclic_24() -> Design:
    """Players 0..20 are (x, k) = 7k + x, 21..23 the fixed ones; a base session is a
    partition whose pairs each use a different difference, developed mod 7."""
    n, kinds, fixed = 7, 3, 3
    points = n * kinds
    size = points + fixed

    def difference(p: int, q: int) -> tuple[int, ...] | None:
        p, q = min(p, q), max(p, q)
        if p >= points:
            return None  # two fixed players would meet in every session
        if q >= points:
            return (q, p // n)  # a fixed player meets every player of p's kind once
        (k, x), (m, y) = divmod(p, n), divmod(q, n)
        d = (y - x) % n
        return (k, m, d) if k != m else (k, k, min(d, n - d))

    used: set[tuple[int, ...]] = set()
    base: list[tuple[int, ...]] = []

    def go(seated: set[int]) -> bool:
        if len(seated) == size:
            return True
        first = min(set(range(size)) - seated)
        rest = [p for p in range(first + 1, size) if p not in seated]
        for others in itertools.combinations(rest, 3):
            table = (first, *others)
            diffs = [difference(p, q) for p, q in itertools.combinations(table, 2)]
            if None in diffs or len(set(diffs)) < 6 or used.intersection(diffs):
                continue
            used.update(d for d in diffs if d is not None)
            base.append(table)
            if go(seated | set(table)):
                return True
            base.pop()
            used.difference_update(d for d in diffs if d is not None)
        return False

    assert go(set())

    def shift(p: int, s: int) -> int:
        return p if p >= points else p // n * n + (p % n + s) % n

    return [[tuple(sorted(shift(p, s) + 1 for p in t)) for t in base] for s in range(n)]


def check(players: int, design: Design) -> None:
    met: set[tuple[int, int]] = set()
    for session in design:
        assert sorted(p for t in session for p in t) == list(range(1, players + 1))
        for table in session:
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in met, pair
                met.add(pair)


def main() -> None:
    designs = {24: cyclic_24(), 28: unital_28(), 32: aguado_32(), 40: packing_40()}
    lines = [
        '"""Seatings with no repeat meeting that no formula in `seating` gives: written by',
        "`scripts/mahjong_designs.py` (the constructions and sources are there; do not edit by",
        "hand). `DESIGNS[N]` lists sessions of tables of four, players 1..N: 24 players over 7",
        "sessions (a base session developed mod 7), 28 over 9 (the Hermitian unital of order",
        "3), 32 over 10 (the social golfer solution 8-4-10 published by Aguado, 2004), 40 over",
        "13 (a packing of PG(3, 3)). `tests/mahjong/test_designs.py` checks each is a seating",
        'with 0 repeats."""',
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
    out = Path(__file__).resolve().parent.parent / "src/ball/games/mahjong/engine/designs.py"
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}: " + ", ".join(f"{n} x {len(d)}" for n, d in designs.items()))


if __name__ == "__main__":
    main()
