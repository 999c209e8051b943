"""The seating table of docs/mahjong.md: for each size (players x sessions, with or without
clubs of four), the repeat meetings `balanced` leaves, the lower bound, the best published
figure, the wind spread and the time, beside a yardstick measured in the same run: the same
number of seeded random sessions (their repeats and time). Prints a Markdown table; asserts
nothing about time.

    .venv/bin/python bench/mahjong_table.py
"""

from __future__ import annotations

import time

from ball.games.mahjong.engine.seating import balanced, random_session, report

# (players, sessions, clubs of four, best published repeats or None, where it is published)
CASES: list[tuple[int, int, bool, int | None, str]] = [
    (16, 5, False, 0, "affine plane AG(2,4)"),
    (16, 7, False, 48, "the bound"),
    (24, 6, False, 0, "social golfer 6-4-6"),
    (24, 6, True, 0, "the bound"),
    (24, 7, False, None, ""),
    (24, 7, True, None, ""),
    (28, 8, False, 0, "prefix of 28 x 9"),
    (28, 9, False, 0, "resolvable 2-(28,4,1)"),
    (32, 7, True, 0, "the bound"),
    (32, 8, False, 0, "prefix of 32 x 10"),
    (32, 9, True, 0, "the bound"),
    (32, 10, False, 0, "Aguado 2004"),
    (40, 13, False, 0, "packing of PG(3,3)"),
    (64, 21, False, 0, "AG(3,4)"),
    (128, 8, False, 0, "the bound"),
]


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def clubs(players: int) -> dict[int, str]:
    return {p: f"C{(p - 1) // 4}" for p in range(1, players + 1)}


def main() -> None:
    print("| players | sessions | clubs of 4 | repeats | bound | best published | winds "
          "| seconds | random: repeats | random: seconds |")
    print("|---:|---:|:---:|---:|---:|---|:---:|---:|---:|---:|")
    for players, sessions, teamed, best, source in CASES:
        teams = clubs(players) if teamed else None
        seating, seconds = timed(lambda p=players, s=sessions, t=teams: balanced(p, s, t, seed=1))
        found = report(seating, teams)
        yard, yard_seconds = timed(
            lambda p=players, s=sessions: tuple(random_session(p, seed=k) for k in range(s))
        )
        low, high = found.wind_spread
        published = "—" if best is None else f"{best} ({source})"
        clashes = f", {len(found.team_clashes)} clashes" if teamed else ""
        print(f"| {players} | {sessions} | {'yes' if teamed else 'no'} | "
              f"{found.repeats}{clashes} | {found.repeat_bound} | {published} | {low}..{high} "
              f"| {seconds:.2f} | {report(yard).repeats} | {yard_seconds:.4f} |")


if __name__ == "__main__":
    main()
