"""Clock figures: replaying event logs (what every API read does) and recording events in
SQLite (what every tap does), and a press at 1,000 events from the stored fold snapshot
beside the full replay it replaced (issue 15 target 5). Prints figures; asserts nothing.

    .venv/bin/python bench/clocks.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from ball.clocks import ClockEvent, get_control, replay
from ball.clocks.models import ClockRow
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
    press_at_1000()


def press_at_1000() -> None:
    """A press on a clock whose log holds 1,000 events: the fold from the snapshot plus the
    tail (what `ClockStore.record` does now) beside the full replay (what it did before),
    both in this run; and the whole `record` call, commit included."""
    import json

    from ball.clocks.models import ClockEventRow

    with tempfile.TemporaryDirectory() as tmp:
        _engine, sessions = open_database(Path(tmp) / "press.db")
        store = ClockStore(sessions)
        view = store.create("T1", "xiangqi-6.1", pin="2468")
        log = xiangqi_log(999)  # start + 999 presses
        t0 = time.time() - 20_000
        with sessions() as session, session.begin():
            session.add_all(
                ClockEventRow(
                    clock_id=view.id, seq=i + 1, kind=e.kind, at=t0 + e.at, data=json.dumps({})
                )
                for i, e in enumerate(log)
            )
        store.record(view.id, "press")  # event 1,000: writes the first snapshot
        with sessions() as session:
            row = session.get(ClockRow, view.id)
            full = timed(
                lambda: ClockStore._replay(row, ClockStore._events(session, view.id), None)
            )
            snap = timed(lambda: store._fold_to_end(session, row))
        presses = []
        for _ in range(20):
            start = time.perf_counter()
            store.record(view.id, "press")
            presses.append(time.perf_counter() - start)
        print(
            f"press at 1,000 events: fold from snapshot + tail {snap * 1000:.2f} ms, "
            f"full replay (yardstick, the old way) {full * 1000:.2f} ms = {full / snap:.0f}x; "
            f"whole record() incl. SQLite commit median {statistics.median(presses) * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
