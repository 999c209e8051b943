"""Issue 15: responses that send what changed (`?since=N`), and undo/redo from snapshots.

The oracle for every state is the engine itself: `Game.new()` replaying the actions the test
believes were played, never the service's own cache or rebuild.
"""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.games.ball.play import replay
from ball.games.ball.play.store import GameStore
from ball.play.write_locks import write_lock
from ball.web.app import create_app

FIXTURE_REUSE = HealthCheck.function_scoped_fixture


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def moving(legal: list[str], rng: random.Random) -> str:
    return rng.choice([a for a in legal if a != "end"] or legal)


def test_apply_with_since_sends_only_the_new_entry_and_the_same_state(client):
    rng = random.Random(3)
    s = make(client)
    for ply in range(1, 61):
        if s["over"]:
            break
        r = client.post(
            f"/api/games/{s['id']}/actions",
            params={"since": ply - 1},
            json={"action": moving(s["legal"], rng), "version": s["version"]},
        )
        assert r.status_code == 200, r.text
        s = r.json()
        # the only part of the answer that could grow with the game is the log: one entry
        assert s["log_start"] == ply - 1 and [e["ply"] for e in s["log"]] == [ply]
        assert s["log"][0] == s["applied"]
        full = client.get(f"/api/games/{s['id']}").json()
        assert full["log_start"] == 0 and len(full["log"]) == ply
        assert {k: v for k, v in s.items() if k not in ("log", "log_start", "applied")} == {
            k: v for k, v in full.items() if k not in ("log", "log_start")
        }
    assert ply > 30  # the game went somewhere: the full log is many entries long


def test_get_since_is_the_full_logs_tail(client):
    rng = random.Random(5)
    s = make(client)
    for _ in range(25):
        s = client.post(
            f"/api/games/{s['id']}/actions", json={"action": moving(s["legal"], rng)}
        ).json()
    full = client.get(f"/api/games/{s['id']}").json()
    n = len(full["log"])
    for since in (0, 1, n // 2, n - 1, n, n + 5, 10**6):
        tail = client.get(f"/api/games/{s['id']}", params={"since": since}).json()
        assert tail["log_start"] == min(since, n)
        assert tail["log"] == full["log"][min(since, n) :]
        assert full["log"][: tail["log_start"]] + tail["log"] == full["log"]


@pytest.mark.parametrize("since", ["-1", "x", "1.5"])
def test_a_bad_since_is_a_422_naming_it(client, since):
    s = make(client)
    r = client.get(f"/api/games/{s['id']}", params={"since": since})
    assert r.status_code == 422 and "since" in r.json()["detail"]


def test_undo_and_redo_answer_tails_and_check_the_version(client):
    s = make(client)
    for action in s["legal"][:1] * 1:
        s = client.post(f"/api/games/{s['id']}/actions", json={"action": action}).json()
    gid, version = s["id"], s["version"]
    stale = client.post(f"/api/games/{gid}/undo", params={"version": version - 1})
    assert stale.status_code == 409 and f"version {version}" in stale.json()["detail"]
    u = client.post(f"/api/games/{gid}/undo", params={"since": 1, "version": version}).json()
    assert u["log_start"] == 0 and u["log"] == [] and u["can_redo"]  # the entry went away
    r = client.post(f"/api/games/{gid}/redo", params={"since": 0, "version": u["version"]})
    assert r.status_code == 200 and r.json()["log"] == s["log"]


def test_undo_replays_at_most_a_snapshot_interval(client, monkeypatch):
    rng = random.Random(11)
    s = make(client)
    for _ in range(3 * replay.SNAPSHOT_EVERY + 5):
        s = client.post(
            f"/api/games/{s['id']}/actions", json={"action": moving(s["legal"], rng)}
        ).json()
    assert not s["over"]
    calls = []
    real = Game.apply
    monkeypatch.setattr(Game, "apply", lambda self, a: calls.append(a) or real(self, a))
    for _ in range(replay.SNAPSHOT_EVERY + 2):  # crosses a snapshot
        u = client.post(f"/api/games/{s['id']}/undo")
        assert u.status_code == 200, u.text
        assert len(calls) < replay.SNAPSHOT_EVERY  # not the 50-odd plies of the game
        calls.clear()
    oracle = Game.new()
    for entry in u.json()["log"]:
        oracle.apply(entry["action"])
    assert u.json()["position"] == oracle.to_json()


def test_the_language_cookie_is_still_set_by_the_pure_asgi_middleware(client):
    r = client.get("/", params={"lang": "ko"})
    assert r.status_code == 200 and '<html lang="ko">' in r.text
    assert "ball_lang=ko" in r.headers["set-cookie"] and "Max-Age=31536000" in r.headers[
        "set-cookie"
    ]
    fresh = TestClient(client.app)
    unknown = fresh.get("/", params={"lang": "xx"})  # not a language: English, no cookie
    assert '<html lang="en">' in unknown.text and "set-cookie" not in unknown.headers
    fresh.cookies.set("ball_lang", "bg")
    again = fresh.get("/")
    assert '<html lang="bg">' in again.text and "set-cookie" not in again.headers


@pytest.fixture(scope="module")
def store() -> GameStore:
    return GameStore(create_app(None).state.sessions)


OPS = st.lists(
    st.one_of(st.integers(0, 10**6), st.just("undo"), st.just("redo")), min_size=1, max_size=60
)


@settings(max_examples=40, deadline=None, suppress_health_check=[FIXTURE_REUSE])
@given(ops=OPS, every=st.sampled_from([1, 3, 16]))
def test_undo_and_redo_equal_a_replay_from_the_start(store, ops, every):
    """Whatever mix of actions, undos and redos, the state equals the engine replaying the
    actions in force from the initial position (snapshots every `every` plies)."""
    saved = replay.SNAPSHOT_EVERY
    replay.SNAPSHOT_EVERY = every
    try:
        state = store.create()
        played: list[str] = []
        undone: list[str] = []
        for op in ops:
            if op == "undo" and played:
                state = store.undo(state["id"])
                undone.append(played.pop())
            elif op == "redo" and undone:
                state = store.redo(state["id"])
                played.append(undone.pop())
            elif isinstance(op, int) and state["legal"]:
                action = state["legal"][op % len(state["legal"])]
                state, _ = store.apply(state["id"], action, since=len(played))
                played.append(action)
                undone.clear()
                state = store.state(state["id"])
            oracle = Game.new()
            for action in played:
                oracle.apply(action)
            assert state["position"] == oracle.to_json()
            assert state["legal"] == oracle.legal_actions()
            assert [e["action"] for e in state["log"]] == played
            assert state["can_redo"] == bool(undone)
    finally:
        replay.SNAPSHOT_EVERY = saved


def test_the_stored_actions_follow_undo_and_redo(store):
    """The rows still hold the plain action list (records and exports read it)."""
    state = store.create()
    first, second = state["legal"][0], None
    state, _ = store.apply(state["id"], first)
    second = state["legal"][0]
    store.apply(state["id"], second)
    store.undo(state["id"])
    initial, actions, _ = store.history(state["id"])
    assert actions == [first] and json.dumps(initial)
    store.redo(state["id"])
    assert store.history(state["id"])[1] == [first, second]


def test_the_event_loop_never_waits_on_a_held_write_lock(client):
    """A computer reply (in the thread pool) may hold the write lock for seconds: a free
    game's request must then go to the pool too, not block every other request."""
    import threading

    s = make(client)
    lock = write_lock(client.app.state.sessions)
    answers: dict[str, int] = {}

    def apply() -> None:
        r = client.post(f"/api/games/{s['id']}/actions", json={"action": s["legal"][0]})
        answers["apply"] = r.status_code

    with lock:  # held by this thread, as a computer reply would hold it
        writer = threading.Thread(target=apply)
        writer.start()
        reader = threading.Thread(
            target=lambda: answers.update(get=client.get(f"/api/games/{s['id']}").status_code)
        )
        reader.start()
        reader.join(timeout=30)
        assert answers.get("get") == 200  # the loop kept serving while the write waited
        assert "apply" not in answers
    writer.join(timeout=30)
    assert answers["apply"] == 200
