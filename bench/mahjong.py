"""Mahjong seating figures: time to seat 64 and 256 players over 7 sessions, and the repeat
meetings left, beside a yardstick measured in the same run (seeded random sessions: their
time and repeat count). 64 and 256 are powers of 4, where the affine-geometry start already
has no repeat; 60 and 252 players show the tabu search from a deal. Prints figures; asserts
nothing about time.

    .venv/bin/python bench/mahjong.py
"""

from __future__ import annotations

import time

from ball.games.mahjong.engine.seating import balanced, random_session, repeat_bound, report

SESSIONS = 7


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    print(f"{'players':>7} {'teams':>5} {'method':>9} {'seconds':>8} {'repeats':>7} "
          f"{'bound':>5} {'winds':>6} {'clashes':>7}")
    for players in (64, 256, 60, 252):
        for teams in (None, {p: f"C{(p - 1) // 4}" for p in range(1, players + 1)}):
            seating, seconds = timed(lambda p=players, t=teams: balanced(p, SESSIONS, t, seed=1))
            found = report(seating, teams)
            low, high = found.wind_spread
            print(f"{players:>7} {'4s' if teams else '-':>5} {'balanced':>9} {seconds:>8.2f} "
                  f"{found.repeats:>7} {repeat_bound(players, SESSIONS, teams):>5} "
                  f"{low}..{high:<3} {len(found.team_clashes):>7}")
        yard, seconds = timed(
            lambda p=players: tuple(random_session(p, seed=s) for s in range(SESSIONS))
        )
        found = report(yard)
        low, high = found.wind_spread
        print(f"{players:>7} {'-':>5} {'random':>9} {seconds:>8.2f} {found.repeats:>7} "
              f"{repeat_bound(players, SESSIONS):>5} {low}..{high:<3} {0:>7}")


if __name__ == "__main__":
    main()
