"""What-if timings (issue 35 §3) beside their yardstick, the stored standings of the same
event measured in the same run: `ball standings --what-if` with one hypothesis and with
every table of the round being played, and the public page's "what I need" for five
players, while other tables are open (bounds by points) and at the round's last table
(three rankings).

.venv/bin/python bench/whatif.py [--players 500] [--rounds 9] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from ball.tournament import TournamentService, whatif  # noqa: E402
from tournament.generator import enter_random_results, random_sheet  # noqa: E402


def best_of(repeat: int, call: Callable[[], object]) -> float:
    """The fastest of `repeat` runs, in milliseconds (the least disturbed by neighbours)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        svc = TournamentService(Path(tmp) / "bench.db")
        svc.events.create_event(name="Bench", system="swiss", rounds=args.rounds)
        for i in range(args.players):
            svc.entrants.add_player(f"Coach {i:04d}", rating=rng.randint(1000, 2600))
        for number in range(1, args.rounds):
            enter_random_results(svc, number, svc.rounds.pair_next_round(), rng, forfeits=0.02)
        last = [t for t in svc.rounds.pair_next_round() if t["b"] is not None]
        names = [t["a"] for t in last[:5]]
        one = [whatif.Hypothesis(args.rounds, last[0]["table"], short="1-0")]
        every = [whatif.Hypothesis(args.rounds, t["table"], short="1/2") for t in last]
        yardstick = best_of(args.repeat, svc.ranking.standings)
        figures = {
            "--what-if, one table": best_of(
                args.repeat, lambda: svc.what_if.what_if_standings(one)
            ),
            f"--what-if, every table ({len(every)})": best_of(
                args.repeat, lambda: svc.what_if.what_if_standings(every)
            ),
            "what I need, 5 players, other tables open": best_of(
                args.repeat, lambda: svc.what_if.what_i_need(names)
            ),
        }
        for t in last[1:]:  # every table in but the first: its players' need is exact
            svc.results.enter_result(args.rounds, t["table"], sheet=random_sheet(rng))
        figures["what I need, the round's last table"] = best_of(
            args.repeat, lambda: svc.what_if.what_i_need([last[0]["a"], last[0]["b"]])
        )
    print(f"{args.players} entrants, round {args.rounds} being played; best of {args.repeat}")
    print(f"  standings (yardstick): {yardstick:8.1f} ms")
    for name, ms in figures.items():
        print(f"  {name}: {ms:8.1f} ms = {ms / yardstick:.2f} x standings")


if __name__ == "__main__":
    main()
