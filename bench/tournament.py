"""Tournament timings: pair one round of a 500-entrant Swiss; standings of 500 x 9 rounds.
With `--writes`: the CPU of the service's writes at 1,000 entrants, and of the reads of one
round's tables, the event with its entrants and the log (`writes`).

.venv/bin/python bench/tournament.py [--players 500] [--rounds 9]
.venv/bin/python bench/tournament.py --writes [--players 1000] [--rounds 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from ball.tournament import TournamentService  # noqa: E402
from tournament.generator import enter_random_results, random_sheet  # noqa: E402

T = TypeVar("T")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, help="default 500 (1,000 with --writes)")
    parser.add_argument("--rounds", type=int, help="default 9 (1 with --writes)")
    parser.add_argument("--writes", action="store_true", help="time the service's writes")
    args = parser.parse_args()
    if args.writes:
        writes(args.players or 1000, args.rounds or 1)
        return
    args.players, args.rounds = args.players or 500, args.rounds or 9
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        svc = TournamentService(Path(tmp) / "bench.db")
        svc.events.create_event(name="Bench", system="swiss", rounds=args.rounds)
        for i in range(args.players):
            svc.entrants.add_player(f"Coach {i:04d}", rating=rng.randint(1000, 2600))
        pair_times = []
        for number in range(1, args.rounds + 1):
            t0 = time.perf_counter()
            tables = svc.rounds.pair_next_round()
            pair_times.append(time.perf_counter() - t0)
            enter_random_results(svc, number, tables, rng)
            print(f"round {number}: paired {len(tables)} tables in {pair_times[-1]:.2f} s")
        t0 = time.perf_counter()
        table = svc.ranking.standings()
        standings_time = time.perf_counter() - t0
        t0 = time.perf_counter()
        svc.trf.export_trf()
        trf_time = time.perf_counter() - t0
    print(
        f"pair one round of a {args.players}-entrant Swiss: "
        f"median {sorted(pair_times)[len(pair_times) // 2]:.2f} s, max {max(pair_times):.2f} s"
    )
    print(
        f"standings of {len(table.standings)} entrants x {args.rounds} rounds: "
        f"{standings_time:.2f} s (TRF export {trf_time:.2f} s)"
    )


def cpu_ms(samples: list[float], call: Callable[[], T]) -> T:
    """Run `call`, adding its CPU time (this process: user + sys) in milliseconds."""
    start = time.process_time()
    out = call()
    samples.append((time.process_time() - start) * 1000)
    return out


def median(samples: list[float]) -> float:
    return sorted(samples)[len(samples) // 2]


def writes(players: int, rounds: int) -> None:
    """The CPU of the writes an arbiter makes during an event of `players` entrants, beside
    the yardstick of the same run: a read transaction of one row (`list_events`). Pairing
    is timed in wall time too: the Dutch engine runs in a process of its own (`swiss`),
    whose CPU `process_time` does not count."""
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        svc = TournamentService(Path(tmp) / "bench.db")
        svc.events.create_event(name="Bench", system="swiss", rounds=rounds + 2)
        entry: list[float] = []
        for i in range(players):
            cpu_ms(entry, partial(svc.entrants.add_player, f"Coach {i:04d}", rating=1000 + i))
        pair_cpu: list[float] = []
        others: dict[str, list[float]] = {
            "start signal 1 (latest round)": [],
            "half end (latest round)": [],
            "half end (round named, as the desk)": [],
            "record one result (table result)": [],
            "late entry (after the rounds)": [],
            "withdrawal": [],
            "sanction by name": [],
            "tables of round 1 (pairings)": [],
            "tables of the latest round (pairings)": [],
            "event info (summary and entrants)": [],
            "log": [],
        }
        for number in range(1, rounds + 1):
            t0 = time.perf_counter()
            tables = cpu_ms(pair_cpu, svc.rounds.pair_next_round)
            pair_wall = time.perf_counter() - t0
            cpu_ms(
                others["start signal 1 (latest round)"], partial(svc.arbiter.give_signal, None, 1)
            )
            for t in tables[:20]:
                cpu_ms(
                    others[
                        "half end (latest round)"
                    ], partial(svc.arbiter.record_half_end, None, t.table)
                )
            for t in tables[20:40]:
                named = partial(svc.arbiter.record_half_end, number, t.table)
                cpu_ms(others["half end (round named, as the desk)"], named)
            for t in tables:
                if t.b is not None:
                    enter = partial(
                        svc.results.record_table_result, number, t.table, sheet=random_sheet(rng)
                    )
                    cpu_ms(others["record one result (table result)"], enter)
        for i in range(20):
            name = f"Coach {i * (players // 20):04d}"
            cpu_ms(others[
                "late entry (after the rounds)"
            ], partial(svc.entrants.add_player, f"Late {i}"))
            cpu_ms(others["withdrawal"], partial(svc.entrants.withdraw, name, reason="bench"))
            sanction = partial(svc.arbiter.give_sanction, "warning", "bench", player=name)
            cpu_ms(others["sanction by name"], sanction)
        for _ in range(20):  # reads of one round, or of the event and its entrants
            cpu_ms(others["tables of round 1 (pairings)"], partial(svc.rounds.pairings, 1))
            cpu_ms(others["tables of the latest round (pairings)"], svc.rounds.pairings)
            cpu_ms(others["event info (summary and entrants)"], svc.events.event_info)
            cpu_ms(others["log"], svc.arbiter.log)
        yard: list[float] = []
        for _ in range(50):
            cpu_ms(yard, svc.events.list_events)
    unit = median(yard)
    print(
        f"service writes and reads, Swiss of {players} entrants, {rounds} rounds "
        "(CPU of this process)"
    )
    print(f"  yardstick: a one-row read transaction       {unit:8.2f} ms")
    figures = {"entry before round 1 (last 100)": entry[-100:], **others}
    for label, samples in figures.items():
        m = median(samples)
        print(f"  {label:<43} {m:8.2f} ms  ({m / unit:6.1f} yardsticks, n={len(samples)})")
    print(
        f"  pair round {rounds} (here; wall {pair_wall:.2f} s)          {pair_cpu[-1]:8.2f} ms  "
        f"({pair_cpu[-1] / unit:6.1f} yardsticks)"
    )


if __name__ == "__main__":
    main()
