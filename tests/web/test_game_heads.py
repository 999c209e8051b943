"""Issue 15: the simulator's apply without the ORM (`ball.games.ball.play.heads`).

An action on a game this process knows is written by one versioned UPDATE that appends to
the stored list. These tests check what that must not change: a stale version still answers
409, a change by another writer (another process) is seen and built upon, the stored row is
the one the ORM path reads back, a game stored before (the old list format) continues, the
commit survives a killed process (D-W1), and the pooled connections keep the shared
synchronous level (FULL). The oracle for positions is the engine replaying the stored list
from the start.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.games.ball.play import caches
from ball.games.ball.play import heads as game_heads
from ball.games.ball.play.store import GameStore
from ball.play.errors import GameConflict
from ball.play.write_locks import write_lock
from ball.web.app import create_app


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def moving(legal: list[str], rng: random.Random) -> str:
    return rng.choice([a for a in legal if a != "end"] or legal)


def stored(db_path: str, game_id: str) -> tuple[list[str], int, str]:
    """The row as SQLite holds it, read without the app: actions, version, redo."""
    with sqlite3.connect(db_path) as db:
        actions, version, redo = db.execute(
            "SELECT actions, version, redo FROM web_games WHERE id = ?", (game_id,)
        ).fetchone()
    return json.loads(actions), version, redo


def replayed(actions: list[str]) -> dict:
    game = Game.new()
    for action in actions:
        game.apply(action)
    return game.to_json()


def replayed_legal(actions: list[str]) -> list[str]:
    game = Game.new()
    for action in actions:
        game.apply(action)
    return game.legal_actions()


def other_process_plays(db_path: str, game_id: str, action: str) -> None:
    """What a second server process on the same file does: its own write, through SQLite,
    behind this process's back (its caches never see it). Like any apply, it empties the
    redo list (a redo kept across another's action would redo onto a position it was
    never played in)."""
    actions, version, _ = stored(db_path, game_id)
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE web_games SET actions = ?, version = ?, redo = '[]' WHERE id = ?",
            (json.dumps([*actions, action]), version + 1, game_id),
        )


def test_two_clients_on_one_version_one_wins_the_other_gets_409(client, db_path):
    s = make(client)
    first, second = s["legal"][0], s["legal"][-1]
    won = client.post(f"/api/games/{s['id']}/actions", json={"action": first, "version": 0})
    lost = client.post(f"/api/games/{s['id']}/actions", json={"action": second, "version": 0})
    assert won.status_code == 200, won.text
    assert lost.status_code == 409
    assert "version 1, not 0" in lost.json()["detail"]
    assert stored(db_path, s["id"])[:2] == ([first], 1)


def test_a_change_by_another_process_is_seen_not_overwritten(client, db_path):
    rng = random.Random(5)
    s = make(client)
    s = client.post(
        f"/api/games/{s['id']}/actions", json={"action": moving(s["legal"], rng)}
    ).json()
    theirs = moving(s["legal"], rng)
    other_process_plays(db_path, s["id"], theirs)
    # this process still holds version 1 in its caches: the version it was told is stale
    stale = client.post(
        f"/api/games/{s['id']}/actions", json={"action": theirs, "version": s["version"]}
    )
    assert stale.status_code == 409
    # without a version the action goes after the other writer's, on the stored position
    after = client.get(f"/api/games/{s['id']}").json()
    assert after["version"] == 2
    ours = moving(after["legal"], rng)
    r = client.post(f"/api/games/{s['id']}/actions", json={"action": ours})
    assert r.status_code == 200, r.text
    actions, version, _ = stored(db_path, s["id"])
    assert version == 3 and actions[1:] == [theirs, ours]
    assert r.json()["position"] == replayed(actions)


def test_an_action_the_stale_cache_refuses_is_judged_on_the_stored_game(client, db_path):
    # after another process moved, an action legal only in the stored position is accepted
    s = make(client)
    # an action of the initial position after which something new is legal
    theirs = next(a for a in s["legal"] if set(replayed_legal([a])) - set(s["legal"]))
    other_process_plays(db_path, s["id"], theirs)
    legal_now = client.get(f"/api/games/{s['id']}/legal").json()["actions"]
    caches.rebuilt_games._items.clear()  # as in a process that never saw the new version
    only_now = next(a for a in legal_now if a not in s["legal"])
    r = client.post(f"/api/games/{s['id']}/actions", json={"action": only_now})
    assert r.status_code == 200, r.text
    assert stored(db_path, s["id"])[0] == [theirs, only_now]


def test_the_fast_path_writes_the_row_the_orm_path_reads(client, db_path):
    rng = random.Random(11)
    s = make(client)
    played = []
    for _ in range(20):
        action = moving(s["legal"], rng)
        r = client.post(f"/api/games/{s['id']}/actions", json={"action": action})
        assert r.status_code == 200, r.text
        s = r.json()
        played.append(action)
    assert stored(db_path, s["id"]) == (played, 20, "[]")
    # a fresh process: nothing cached, the ORM reads and replays the row
    caches.rebuilt_games._items.clear()
    game_heads.heads._items.clear()
    fresh = client.get(f"/api/games/{s['id']}").json()
    assert fresh["position"] == replayed(played) == s["position"]
    listed = next(g for g in client.get("/api/games").json() if g["id"] == s["id"])
    assert listed["plies"] == 20
    assert datetime.fromisoformat(listed["updated_at"]).year >= 2024


def test_updated_at_is_stored_as_the_orm_stores_it(db_path):
    app = create_app(db_path)
    store = GameStore(app.state.sessions)
    s = store.create()
    with sqlite3.connect(db_path) as db:
        (created,) = db.execute("SELECT updated_at FROM web_games").fetchone()
    store.apply(s["id"], s["legal"][0])
    with sqlite3.connect(db_path) as db:
        (updated,) = db.execute("SELECT updated_at FROM web_games").fetchone()
    assert len(updated) == len(created) and updated >= created  # same text format, later
    assert store.recent()[0]["plies"] == 1


def test_a_game_stored_in_the_old_list_format_continues(db_path):
    # rows written before issue 15 hold json.dumps' spaced list; SQLite appends to it
    app = create_app(db_path)
    store = GameStore(app.state.sessions)
    s = store.create()
    game = Game.new()
    old = []
    for _ in range(3):
        action = game.legal_actions()[0]
        game.apply(action)
        old.append(action)
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE web_games SET actions = ?, version = 3 WHERE id = ?",
            (json.dumps(old), s["id"]),
        )
    caches.rebuilt_games._items.clear()
    game_heads.heads._items.clear()
    state = store.state(s["id"])  # read as before: loads and replays the old row
    assert state["position"] == game.to_json()
    nxt = state["legal"][0]
    store.apply(s["id"], nxt)  # the head is known now: the fast path appends
    assert game_heads.heads.get(s["id"]).version == 4
    assert stored(db_path, s["id"])[:2] == ([*old, nxt], 4)


def test_pooled_connections_keep_the_shared_synchronous_level(db_path):
    app = create_app(db_path)
    store = GameStore(app.state.sessions)
    s = store.create()
    store.apply(s["id"], s["legal"][0])
    # every pooled connection still commits the toolbox's other data with FULL (2)
    for _ in range(3):
        with app.state.engine.connect() as connection:
            level = connection.exec_driver_sql("PRAGMA synchronous").scalar()
        assert level == 2


def test_apply_uses_no_orm_load_for_a_known_game(db_path, monkeypatch):
    app = create_app(db_path)
    store = GameStore(app.state.sessions)
    s = store.create()
    loads = []
    real = GameStore._row
    monkeypatch.setattr(
        GameStore, "_row", lambda self, *a, **kw: loads.append(a) or real(self, *a, **kw)
    )
    state, _ = store.apply(s["id"], s["legal"][0])
    assert loads == [] and state["version"] == 1
    theirs = state["legal"][0]
    other_process_plays(db_path, s["id"], theirs)
    game = Game.new()
    for action in (s["legal"][0], theirs):
        game.apply(action)
    ours = game.legal_actions()[0]
    state, _ = store.apply(s["id"], ours)  # the versioned write misses: the row is read
    assert len(loads) == 1 and state["version"] == 3


def test_conflict_error_is_the_same_from_the_service(db_path):
    app = create_app(db_path)
    store = GameStore(app.state.sessions)
    s = store.create()
    store.apply(s["id"], s["legal"][0], expected_version=0)
    with pytest.raises(GameConflict, match="at version 1, not 0"):
        store.apply(s["id"], s["legal"][0], expected_version=0)


@pytest.mark.hypothesis
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.sampled_from(["apply", "apply", "other", "undo", "redo", "forget"]), max_size=25)
)
def test_any_mix_of_writers_equals_a_replay_of_the_stored_list(tmp_path_factory, steps):
    db_path = str(tmp_path_factory.mktemp("heads") / "h.sqlite")
    app = create_app(db_path)
    store = GameStore(app.state.sessions)
    game_id = store.create()["id"]
    rng = random.Random(len(steps))
    for step in steps:
        state = store.state(game_id)
        if state["over"]:
            break
        if step == "apply":
            store.apply(game_id, moving(state["legal"], rng))
        elif step == "other":
            other_process_plays(db_path, game_id, moving(state["legal"], rng))
        elif step == "undo" and state["can_undo"]:
            store.undo(game_id)
        elif step == "redo" and state["can_redo"]:
            store.redo(game_id)
        elif step == "forget":
            caches.rebuilt_games._items.clear()
        actions, version, _ = stored(db_path, game_id)
        assert store.state(game_id)["position"] == replayed(actions)
        assert store.state(game_id)["version"] == version


CRASHER = textwrap.dedent(
    """
    import os, sys
    from ball.web.app import create_app
    from ball.games.ball.play.store import GameStore
    store = GameStore(create_app(sys.argv[1]).state.sessions)
    state = store.create()
    for _ in range(5):
        state, _ = store.apply(state["id"], state["legal"][0])
    print(state["id"], state["version"], flush=True)  # answered: now die without cleanup
    os.kill(os.getpid(), 9)
    """
)


@pytest.mark.process
def test_answered_actions_survive_a_killed_server_process(db_path):
    done = subprocess.run(
        [sys.executable, "-c", CRASHER, db_path],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert done.returncode == -9, done.stderr
    game_id, version = done.stdout.split()
    actions, stored_version, _ = stored(db_path, game_id)
    assert (len(actions), stored_version) == (5, int(version))


def test_one_write_lock_per_database_whichever_sessionmaker_asks(tmp_path):
    """The lock is remembered per sessionmaker (no URL rendered per action), but two apps on
    one file still share one, and another file has its own."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    first = sessionmaker(bind=create_engine(f"sqlite:///{tmp_path / 'a.sqlite'}"))
    again = sessionmaker(bind=create_engine(f"sqlite:///{tmp_path / 'a.sqlite'}"))
    other = sessionmaker(bind=create_engine(f"sqlite:///{tmp_path / 'b.sqlite'}"))
    lock = write_lock(first)
    assert write_lock(first) is lock
    assert write_lock(again) is lock
    assert write_lock(other) is not lock


def test_a_fast_apply_finds_at_most_one_action_list(db_path, monkeypatch):
    """The cached game's list, found for the last answer, judges the action: the only list
    found per action is the new position's, for the answer, and not even that one when the
    engine's step handed it over (issue 15). Before, the copy lost the list and the narration
    cleared it, so each action found two."""
    import ball.games.ball.engine.game as game_module

    store = GameStore(create_app(db_path).state.sessions)
    state = store.create()
    found = {"n": 0}
    real = game_module.legal

    def counted(s):
        found["n"] += 1
        return real(s)

    monkeypatch.setattr(game_module, "legal", counted)
    rng, played = random.Random(5), []
    for ply in range(40):
        if state["over"]:
            break
        action = moving(state["legal"], rng)
        before = found["n"]
        state, _ = store.apply(state["id"], action, state["version"], since=ply)
        played.append(action)
        assert found["n"] - before <= 1, f"ply {ply + 1}: {found['n'] - before} lists"
    assert len(played) > 10
    assert state["position"] == replayed(played) and state["legal"] == replayed_legal(played)
