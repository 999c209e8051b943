"""Tournament timings: pair one round of a 500-entrant Swiss; standings of 500 x 9 rounds.

.venv/bin/python bench/tournament.py [--players 500] [--rounds 9]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from ball.tournament import TournamentService  # noqa: E402
from tournament.generator import enter_random_results  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        svc = TournamentService(Path(tmp) / "bench.db")
        svc.create_event(name="Bench", system="swiss", rounds=args.rounds)
        for i in range(args.players):
            svc.add_player(f"Coach {i:04d}", rating=rng.randint(1000, 2600))
        pair_times = []
        for number in range(1, args.rounds + 1):
            t0 = time.perf_counter()
            tables = svc.pair_next_round()
            pair_times.append(time.perf_counter() - t0)
            enter_random_results(svc, number, tables, rng)
            print(f"round {number}: paired {len(tables)} tables in {pair_times[-1]:.2f} s")
        t0 = time.perf_counter()
        table = svc.standings()
        standings_time = time.perf_counter() - t0
        t0 = time.perf_counter()
        svc.export_trf()
        trf_time = time.perf_counter() - t0
    print(
        f"pair one round of a {args.players}-entrant Swiss: "
        f"median {sorted(pair_times)[len(pair_times) // 2]:.2f} s, max {max(pair_times):.2f} s"
    )
    print(
        f"standings of {len(table.standings)} entrants x {args.rounds} rounds: "
        f"{standings_time:.2f} s (TRF export {trf_time:.2f} s)"
    )


if __name__ == "__main__":
    main()
