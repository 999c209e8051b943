"""Clock figures: replaying event logs (what every API read does) and recording events in
SQLite (what every tap does). Prints figures; asserts nothing about time.

    .venv/bin/python bench/clocks.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from ball.clocks import ClockEvent, get_control, replay
from ball.clocks.store import ClockStore
from ball.storage import open_database


def xiangqi_log(moves: int) -> list[ClockEvent]:
    events = [ClockEvent("start", 0.0)]
    events += [ClockEvent("press", 10.0 * (i + 1)) for i in range(moves)]
    return events


def mahjong_log(turns: int) -> list[ClockEvent]:
    events, t = [ClockEvent("start", 0.0)], 0.0
    for i in range(turns):
        t += 5.0 + (i % 7) * 4  # some turns overrun 15 s
        events.append(ClockEvent("press", t))
        if i % 60 == 59:
            events.append(ClockEvent("next_period", t))
    return events


def timed(fn, repeat: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    print("replay of a log (median of 20):")
    for name, events in [
        ("xiangqi-6.1", xiangqi_log(200)),
        ("xiangqi-6.1", xiangqi_log(2000)),
        ("mahjong-wmc", mahjong_log(1000)),
    ]:
        control = get_control(name)
        seconds = timed(lambda c=control, e=events: replay(c, e, e[-1].at + 30).snapshot())
        rate = len(events) / seconds
        print(f"  {name:12} {len(events):5} events  {seconds * 1000:7.2f} ms  {rate:9.0f} ev/s")

    control = get_control("mahjong-wmc")
    events = [ClockEvent("start", 0.0)]
    seconds = timed(lambda: replay(control, events, 7 * 86400.0).snapshot())
    print(f"  mahjong turn left running 7 days: {seconds * 1000:.2f} ms (bulk charging)")

    with tempfile.TemporaryDirectory() as tmp:
        _engine, sessions = open_database(Path(tmp) / "bench.db")
        store = ClockStore(sessions)
        view = store.create("T1", "xiangqi-6.1", pin="2468", round="R1")
        store.record(view.id, "start")
        taps = []
        for _ in range(300):
            start = time.perf_counter()
            store.record(view.id, "press")
            taps.append(time.perf_counter() - start)
        q = statistics.quantiles(taps, n=20)
        print(
            "SQLite press (synchronous=FULL, replay + insert), 300 presses: "
            f"median {statistics.median(taps) * 1000:.1f} ms, p95 {q[18] * 1000:.1f} ms"
        )
        reads = timed(lambda: store.view(view.id).to_json(), repeat=50)
        print(f"state read with 301 events in the log: {reads * 1000:.1f} ms")
        for i in range(2, 31):
            other = store.create(f"T{i}", "ball-standard", pin="2468", round="R1")
            store.record(other.id, "start")
            for _ in range(60):
                store.record(other.id, "press")
        desk = timed(lambda: [v.to_json() for v in store.round_views("R1")], repeat=10)
        print(f"arbiter desk poll, 30 clocks (~2100 events): {desk * 1000:.1f} ms")


if __name__ == "__main__":
    main()
