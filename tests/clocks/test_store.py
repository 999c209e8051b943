"""Clocks in the database: the log is kept, state is replayed, bad events write nothing."""

import threading

import pytest

from ball.clocks import ClockRejected
from ball.clocks.store import ClockNotFound, ClockStore, PinRefused, pin_matches
from ball.storage import open_database


class FakeTime:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path):
    _engine, sessions = open_database(tmp_path / "clocks.db")
    return ClockStore(sessions, FakeTime())


def test_time_keeps_running_between_reads(store):
    v = store.create("T1", "xiangqi-6.5", pin="2468", round="R1")
    store.record(v.id, "start")
    store.now.t += 125
    assert store.view(v.id).clock.snapshot()["players"][0]["main_left"] == pytest.approx(1675)
    store.record(v.id, "press", {"by": "red"})
    store.now.t += 10
    state = store.view(v.id).clock.snapshot()
    assert state["mover"] == 1 and state["players"][1]["main_left"] == pytest.approx(1790)


def test_a_new_store_on_the_same_database_sees_everything(store, tmp_path):
    v = store.create("T1", "mahjong-wmc", pin="2468", players=["Ai", "Bo", "Cy", "Di"])
    store.record(v.id, "start")
    store.now.t += 40
    other = ClockStore(open_database(tmp_path / "clocks.db")[1], FakeTime(store.now.t))
    state = other.view(v.id).clock.snapshot()
    assert state["players"][0]["name"] == "Ai" and state["players"][0]["penalty_points"] == 10
    assert [e.kind for e in other.events(v.id)] == ["start"]


def test_arbiter_events_need_the_pin(store):
    v = store.create("T1", "ball-standard", pin="2468")
    store.record(v.id, "start")
    with pytest.raises(PinRefused):
        store.record(v.id, "pause")
    with pytest.raises(PinRefused):
        store.record(v.id, "pause", pin="1111")
    store.record(v.id, "pause", pin="2468")
    assert store.view(v.id).clock.status == "paused"
    assert len(store.events(v.id)) == 2


def test_pin_is_stored_hashed(store):
    v = store.create("T1", "ball-standard", pin="2468")
    from ball.clocks.models import ClockRow

    with store.sessions() as s:
        stored = s.get(ClockRow, v.id).pin_hash
    assert "2468" not in stored and pin_matches("2468", stored) and not pin_matches("2469", stored)


def test_rejected_events_write_nothing(store):
    v = store.create("T1", "xiangqi-6.5", pin="2468")
    with pytest.raises(ClockRejected, match="not started"):
        store.record(v.id, "press")
    with pytest.raises(ClockRejected, match="kind"):
        store.record(v.id, "flag")
    store.record(v.id, "start")
    with pytest.raises(ClockRejected, match="red's turn"):
        store.record(v.id, "press", {"by": "black"})
    assert [e.kind for e in store.events(v.id)] == ["start"]


def test_bad_creation_input(store):
    with pytest.raises(ClockRejected, match="pin"):
        store.create("T1", "xiangqi-6.5", pin="12")
    with pytest.raises(ClockRejected, match="unknown time control"):
        store.create("T1", "blitz", pin="2468")
    with pytest.raises(ClockRejected, match="needs 2 names"):
        store.create("T1", "xiangqi-6.5", pin="2468", players=["a", "b", "c"])
    with pytest.raises(ClockRejected, match="all different"):
        store.create("T1", "xiangqi-6.5", pin="2468", players=["a", "a"])
    with pytest.raises(ClockNotFound):
        store.view(99)


def test_wall_clock_stepping_back_never_reorders_the_log(store):
    v = store.create("T1", "xiangqi-6.5", pin="2468")
    store.record(v.id, "start")
    store.now.t -= 30
    store.record(v.id, "press")
    at = [e.at for e in store.events(v.id)]
    assert at[1] >= at[0]


def test_round_listing(store):
    for table in ("T1", "T2"):
        store.create(table, "ball-standard", pin="2468", round="R1")
    store.create("T9", "ball-standard", pin="2468", round="R2")
    assert [v.table for v in store.round_views("R1")] == ["T1", "T2"]
    assert store.rounds() == ["R1", "R2"]


def test_racing_presses_land_once(store):
    v = store.create("T1", "xiangqi-6.5", pin="2468")
    store.record(v.id, "start")
    outcomes = []

    def press():
        try:
            store.record(v.id, "press", {"by": "red"})
            outcomes.append("ok")
        except ClockRejected as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=press) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("ok") == 1
    assert [e.kind for e in store.events(v.id)] == ["start", "press"]


@pytest.mark.parametrize("bad", ["T1\nT2", "T\r1", "T\x1b1", "T\u20281", "T\x001"])
def test_labels_and_player_names_are_one_line(store, bad):
    with pytest.raises(ClockRejected, match="table: one line"):
        store.create(bad, "xiangqi-6.5", pin="2468")
    with pytest.raises(ClockRejected, match="round: one line"):
        store.create("T1", "xiangqi-6.5", pin="2468", round=bad)
    with pytest.raises(ClockRejected, match="players: one line"):
        store.create("T1", "xiangqi-6.5", pin="2468", players=["Ann", bad])
    assert store.rounds() == []  # nothing was stored
    with pytest.raises(ClockNotFound):
        store.view(1)


def test_period_ends_are_read_by_table_number_for_the_event_alone(store):
    """The desk's first-half ends from the table clocks (spec 15, R-signal): the clock's table
    label gives the table number, only the event's own clocks count, the first end is kept."""

    def started(table: str, round: str = "Open R1", event_id: int | None = 7):
        view = store.create(table, "ball-standard", "1357", round=round, event_id=event_id)
        key = store.key_of(view.id)[1]  # a bound clock's table device presses it
        store.record(view.id, "start", {"first": view.clock.players[0].name}, key=key)
        return view

    one, unnamed = started("Table 1"), started("desk")
    started("2")  # table 2 still plays its first half
    elsewhere, loose = started("3", event_id=8), started("4", event_id=None)
    store.now.t += 600
    for view in (one, unnamed, elsewhere, loose):
        store.record(view.id, "end_period", {"reason": "touchdown"}, pin="1357")
    ended = store.now.t
    assert store.period_ends("Open R1", 7, 1) == {1: ended}
    assert store.period_ends("Open R1", 7, 2) == {}
    assert store.period_ends("Open R1", 8, 1) == {3: ended}
    assert store.period_ends("Other R1", 7, 1) == {}
