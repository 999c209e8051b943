"""Swiss pairing figures: one Dutch pairing through this process's pairing server (a forked
copy of a process that imported gacrux once) beside the yardstick, the same pairing as a
plain `python -m gacrux.pairingchecker` child process (what every pairing cost before).
Both answers are compared, so the figures are for identical pairings. Prints figures;
asserts nothing about time.

    .venv/bin/python bench/swiss_pairing.py [players] [repeats]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from ball.tournament import TournamentService, swiss


def event_trf(folder: Path, players: int) -> tuple[str, int, int]:
    """The TRF the service hands the engine for round 1 of a `players` event (caught on
    its way to `pair_dutch`)."""
    seen: list[tuple[str, int, int]] = []
    real = swiss.pair_dutch

    def catch(text: str, rnd: int, total: int) -> list[tuple[int, int]]:
        seen.append((text, rnd, total))
        return real(text, rnd, total)

    svc = TournamentService(folder / "bench.db")
    svc.events.create_event(name="Bench", system="swiss", rounds=5)
    for i in range(players):
        svc.entrants.add_player(f"P{i + 1}", rating=2400 - 3 * i)
    swiss.pair_dutch = catch
    try:
        svc.rounds.pair_next_round()
    finally:
        swiss.pair_dutch = real
    return seen[0]


def timed(fn, repeat: int) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as folder:
        trf, rnd, total = event_trf(Path(folder), players)
    argv = swiss.command(rnd, total)
    swiss._SERVER.run(argv[3:], trf, swiss.TIMEOUT_SECONDS)  # start-up, paid once per process
    served, a = timed(lambda: swiss._SERVER.run(argv[3:], trf, swiss.TIMEOUT_SECONDS), repeat)
    child, b = timed(lambda: swiss._run_child(trf, argv), repeat)
    same = swiss._answer(a)["pairingResult"] == swiss._answer(b)["pairingResult"]
    print(f"{players} players, round {rnd}, median of {repeat}; identical pairings: {same}")
    print(f"  pairing server (forked copy): {served * 1000:8.1f} ms")
    print(f"  yardstick, a child process:   {child * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
