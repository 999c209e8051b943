"""SIGKILL campaign for the table devices (issue 30): the tablets of an event's tables press
their clocks and play the moves of the desk-linked Xiangqi games, each with its table's key,
while the `ball serve` process is killed at random moments and started again on the same
database. No acknowledged press or move is lost, and none is stored half: each clock's log
runs 1..n without a gap and folds (from its snapshot) to what a full replay gives; each
game's version counts exactly its stored moves, and they are the moves acknowledged so far
followed by at most the one whose answer the crash swallowed."""

from __future__ import annotations

import random
import sqlite3
import threading
import time

import httpx
import pytest

from ball.clocks.store import ClockStore
from ball.games.xiangqi.web.game_store import XiangqiStore
from ball.storage import open_database
from ball.tournament import TournamentService

KILLS = 4
PLAYERS = 8  # four tables, four clocks
GAMES = 2


def _moves(state: dict) -> int:
    return sum(p["moves"] for p in state["players"])


class ClockDevice:
    """A table's clock tablet: starts the clock, then presses for whoever is to move."""

    def __init__(self, clock_id: int, key: str) -> None:
        self.path = f"/clock/api/clocks/{clock_id}"
        self.headers = {"X-Table-Key": key}
        self.id = clock_id
        self.acked = 0  # presses in the state of the last acknowledged answer
        self.state: dict | None = None

    def step(self, http: httpx.Client) -> None:
        if self.state is None:  # after a crash the tablet reads the clock again
            self.state = http.get(self.path).json()["state"]
        state = self.state
        if state["status"] == "ready":
            body: dict = {"kind": "start"}
        else:
            body = {"kind": "press", "data": {"by": state["players"][state["mover"]]["name"]}}
        self.state = None  # unknown until answered
        answer = http.post(self.path + "/events", json=body, headers=self.headers)
        if answer.status_code == 200:
            self.state = answer.json()["state"]
            assert _moves(self.state) >= self.acked, "an acknowledged press went missing"
            self.acked = _moves(self.state)
        else:
            assert answer.status_code == 409, answer.text  # a lost answer's press is in


class GameDevice:
    """A Xiangqi table's tablet: plays a legal move (seeded choice) on the version it read."""

    def __init__(self, game_id: int, key: str, seed: int) -> None:
        self.path = f"/api/xiangqi/games/{game_id}"
        self.headers = {"X-Table-Key": key}
        self.rng = random.Random(seed)
        self.acked: list[str] = []
        self.sent: str | None = None  # the move whose answer the crash may have swallowed
        self.state: dict | None = None

    def step(self, http: httpx.Client) -> None:
        if self.state is None:
            self.state = http.get(self.path).json()
        state = self.state
        if state["over"]:
            return
        move = self.rng.choice(state["legal"])
        self.state, self.sent = None, move
        body = {"move": move, "version": state["version"]}
        answer = http.post(self.path + "/moves", json=body, headers=self.headers)
        if answer.status_code == 200:
            self.state = answer.json()
            self.acked = [m["iccs"] for m in self.state["moves"]]
            self.sent = None
        else:
            assert answer.status_code == 409, answer.text  # stale version: read it again


def play(url: str, devices: list, stop: threading.Event, faults: list[str]) -> None:
    """Every tablet in turn, from a LAN address, until the test stops them; a request the
    crash cuts off leaves that tablet to read its clock or game again."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(transport=transport, base_url=url, timeout=10) as http:
        while not stop.is_set():
            for device in devices:
                try:
                    device.step(http)
                except httpx.TransportError:
                    device.state = None
                    time.sleep(0.02)
                except AssertionError as exc:
                    faults.append(str(exc))
                    return


def check_clocks(db: str, devices: list[ClockDevice], url: str) -> None:
    with sqlite3.connect(db) as con:
        assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
        for device in devices:
            seqs = [s for (s,) in con.execute(
                "select seq from clock_events where clock_id = ? order by seq", (device.id,)
            )]  # fmt: skip
            assert seqs == list(range(1, len(seqs) + 1)), f"clock {device.id}: a gap in its log"
            presses = con.execute(
                "select count(*) from clock_events where clock_id = ? and kind = 'press'",
                (device.id,),
            ).fetchone()[0]
            assert presses >= device.acked, f"clock {device.id}: an acknowledged press lost"
            # The full replay (a read) agrees with the log: no event stored half.
            state = httpx.get(url + device.path, timeout=10).json()["state"]
            assert _moves(state) == presses


def check_games(devices: list[GameDevice], url: str) -> None:
    for device in devices:
        state = httpx.get(url + device.path, timeout=10).json()
        stored = [m["iccs"] for m in state["moves"]]
        assert state["version"] == len(stored), "a move stored without its version, or not"
        assert stored[: len(device.acked)] == device.acked, "an acknowledged move was lost"
        extra = stored[len(device.acked) :]
        assert len(extra) <= 1, "moves stored that nobody sent"
        if extra:  # the answer was lost, the move is in: it is the one that was sent
            assert extra == [device.sent]
        device.acked, device.sent = stored, None


def _setup(db: str) -> tuple[list[ClockDevice], list[GameDevice]]:
    svc = TournamentService(db)
    ball = svc.events.create_event(name="Power Cut Open", system="round-robin")["id"]
    for i in range(PLAYERS):
        svc.entrants.add_player(f"P{i}", event=ball)
    svc.rounds.pair_next_round(event=ball)
    xq = svc.events.create_event(
        name="Power Cut Xiangqi", system="round-robin", game_name="xiangqi"
    )
    engine, sessions = open_database(db)
    try:
        clocks = ClockStore(sessions)
        clock_devices = []
        for t in svc.rounds.pairings(1, event=ball):
            view = clocks.create(str(t["table"]), "ball-standard", None, None, "R1", ball)
            clock_devices.append(ClockDevice(view.id, clocks.key_of(view.id)[1]))
        games = XiangqiStore(sessions)
        game_devices = []
        for table in range(1, GAMES + 1):
            game_id = games.for_table(xq["id"], 1, table, f"table {table}")
            access = games.table_access(str(game_id))
            assert access is not None
            game_devices.append(GameDevice(game_id, access[1], seed=table))
    finally:
        engine.dispose()
    return clock_devices, game_devices


@pytest.mark.slow
def test_presses_and_moves_survive_sigkill(server_process, tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # faster restarts
    db = str(tmp_path / "devices.sqlite")
    clock_devices, game_devices = _setup(db)
    server = server_process(db)
    rng = random.Random(30)
    faults: list[str] = []
    for kill in range(KILLS + 1):
        if kill:  # back after the crash: everything acknowledged is there, whole
            server.start()
            check_clocks(db, clock_devices, server.url)
            check_games(game_devices, server.url)
        if kill == KILLS:
            break
        stop = threading.Event()
        devices = [*clock_devices, *game_devices]
        worker = threading.Thread(target=play, args=(server.url, devices, stop, faults))
        worker.start()
        time.sleep(rng.uniform(0.5, 1.8))
        server.kill()
        stop.set()
        worker.join(timeout=30)
        assert not worker.is_alive() and faults == [], faults
    presses = sum(d.acked for d in clock_devices)
    moves = sum(len(d.acked) for d in game_devices)
    print(f"{KILLS} kills: {presses} presses and {moves} moves acknowledged, none lost")
    assert presses >= KILLS and moves >= KILLS, (presses, moves)
