"""Issue 30 items 7 and 8, the availability campaign against a live `ball serve`.

Item 7: the computer's search no longer holds the game write lock, so another player's
free-play moves are answered while a "hard" search runs. Item 8: a stranger (connections
from 127.0.0.2) filling its own quota of stored games does not block another address; a
visit stores nothing (a game is stored with its first action); abandoned games are pruned.
"""

from __future__ import annotations

import threading
import time
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import update

from ball.play.models import WebGame
from ball.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient


def stranger(base: str) -> httpx.Client:
    return httpx.Client(
        base_url=base, timeout=60, transport=httpx.HTTPTransport(local_address="127.0.0.2")
    )


def test_free_moves_are_answered_while_a_hard_search_runs(server_process):
    base = server_process().url
    with httpx.Client(base_url=base, timeout=120) as client:
        state = client.post("/api/games", json={"mode": "free"}).json()

        def search() -> None:  # N acts first: creating the game makes the computer search
            body = {"mode": "computer", "computer_side": "N", "computer_level": "hard"}
            with stranger(base) as other:
                assert other.post("/api/games", json=body).status_code == 201

        searching = threading.Thread(target=search)
        searching.start()
        # wait until the search is under way: its game is stored before the computer thinks
        while not any(g["mode"] == "computer" for g in client.get("/api/games").json()):
            pass
        answered_meanwhile = 0
        while searching.is_alive() and answered_meanwhile < 5:
            answer = client.post(
                f"/api/games/{state['id']}/actions",
                json={"action": state["legal"][0], "version": state["version"]},
            )
            assert answer.status_code == 200, answer.text
            state = answer.json()
            answered_meanwhile += searching.is_alive()
        searching.join()
    # before: the first free move waited for the whole search (the lock), so at most one
    assert answered_meanwhile == 5


def test_a_stranger_filling_its_quota_does_not_block_another_address(server_process, monkeypatch):
    monkeypatch.setenv("BALL_MAX_GAMES", "20")
    monkeypatch.setenv("BALL_MAX_GAMES_PER_ADDRESS", "15")
    monkeypatch.setenv("BALL_GAME_CREATIONS", "1000")
    base = server_process().url
    with stranger(base) as other:
        made = [other.post("/api/games", json={"mode": "free"}) for _ in range(16)]
        assert [r.status_code for r in made] == [201] * 15 + [409]
        assert "this address holds 15 stored games" in made[-1].json()["detail"]
        assert "BALL_MAX_GAMES_PER_ADDRESS" in made[-1].json()["detail"]
    with httpx.Client(base_url=base, timeout=60) as client:
        # 5 more fill the server's cap; from then on the stranger's oldest games make room
        mine = [client.post("/api/games", json={"mode": "free"}) for _ in range(8)]
        assert [r.status_code for r in mine] == [201] * 8
        xiangqi = client.post("/api/xiangqi/games", json={"mode": "hotseat"})
        assert xiangqi.status_code == 201, xiangqi.text
        stored = client.get("/api/games", params={"limit": 500}).json()
        kept = {g["id"] for g in stored}
        assert {r.json()["id"] for r in mine} <= kept
        assert len(stored) + 1 == 20  # the cap holds, Xiangqi game included
        # the stranger lost its own oldest games, not its newest
        assert made[14].json()["id"] in kept and made[0].json()["id"] not in kept


def _app(tmp_path, **limits):
    from ball.web.core.limits import Limits

    app = create_app(str(tmp_path / "quota.sqlite"))
    app.state.limits = Limits(**limits)
    return app


def test_a_visit_stores_nothing_and_the_first_action_stores_the_game(tmp_path):
    client = TestClient(_app(tmp_path))
    preview = client.post("/api/games/preview", json={"mode": "free"})
    assert preview.status_code == 200 and preview.json()["id"] == ""
    assert client.get("/api/games").json() == []
    bad = client.post("/api/games", json={"mode": "free", "action": "A1-A9"})
    assert bad.status_code == 400 and "illegal action" in bad.json()["detail"]
    assert client.get("/api/games").json() == []
    first = preview.json()["legal"][0]
    made = client.post("/api/games", json={"mode": "free", "action": first})
    assert made.status_code == 201
    assert [e["action"] for e in made.json()["log"]] == [first]
    assert made.json()["version"] == 1
    again = client.get(f"/api/games/{made.json()['id']}").json()
    assert [e["action"] for e in again["log"]] == [first]
    # Xiangqi alike
    xq = client.post("/api/xiangqi/games/preview", json={"mode": "hotseat"}).json()
    assert xq["id"] is None and client.get("/api/xiangqi/games").json() == []
    made = client.post("/api/xiangqi/games", json={"mode": "hotseat", "move": "h2e2"})
    assert made.status_code == 201 and made.json()["last"] == "h2e2"


def test_games_per_address_are_rate_limited(tmp_path):
    client = TestClient(_app(tmp_path, game_creations=3), client=("10.0.0.9", 5000))
    codes = [client.post("/api/games", json={}).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    other = TestClient(client.app, client=("10.0.0.10", 5000))
    assert other.post("/api/games", json={}).status_code == 201


def test_abandoned_empty_games_are_pruned_at_the_quota(tmp_path):
    app = _app(tmp_path, max_games_per_address=3)
    client = TestClient(app, client=("10.0.0.9", 5000))
    first = [client.post("/api/games", json={}).json()["id"] for _ in range(3)]
    played = client.post("/api/games", json={"action": "end"})
    assert played.status_code == 409  # at the quota, nothing abandoned yet
    long_ago = datetime.now(UTC) - timedelta(hours=2)
    with app.state.sessions() as session:  # the first game untouched for two hours
        session.execute(update(WebGame).where(WebGame.id == first[0]).values(updated_at=long_ago))
        session.commit()
    assert client.post("/api/games", json={}).status_code == 201
    left = {g["id"] for g in client.get("/api/games").json()}
    assert first[0] not in left and set(first[1:]) <= left


def test_the_search_worker_ends_with_a_killed_server(server_process):
    server = server_process()
    body = {"mode": "computer", "computer_side": "N", "computer_level": "greedy"}
    assert httpx.post(f"{server.url}/api/games", json=body, timeout=60).status_code == 201
    pid = server.proc.pid
    # each thread's own children: the worker is started from the pool's thread
    tasks = Path(f"/proc/{pid}/task").glob("*/children")
    children = [c for task in tasks for c in task.read_text().split()]
    assert children  # the search worker process (and multiprocessing's resource tracker)
    server.kill()  # SIGKILL: no shutdown handler runs
    for _ in range(300):
        alive = [c for c in children if Path(f"/proc/{c}").exists() and not _zombie(c)]
        if not alive:
            break
        time.sleep(0.1)
    assert alive == []  # no orphan keeps a core busy or a pipe open


def _zombie(pid: str) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def test_a_full_search_queue_refuses_the_action_and_stores_nothing(tmp_path, monkeypatch):
    from ball.play import searches

    client = TestClient(_app(tmp_path))
    body = {"mode": "computer", "computer_side": "S", "computer_level": "greedy"}
    made = client.post("/api/games", json=body).json()  # N, the player, acts first
    monkeypatch.setattr(searches, "pool", searches.SearchPool(per_client=0))
    answer = client.post(f"/api/games/{made['id']}/actions", json={"action": made["legal"][0]})
    assert answer.status_code == 429 and "computer searches" in answer.json()["detail"]
    assert client.get(f"/api/games/{made['id']}").json()["version"] == made["version"]
    xq = {"mode": "computer", "computer": "black", "move": "h2e2"}
    refused = client.post("/api/xiangqi/games", json=xq)
    assert refused.status_code == 429 and client.get("/api/xiangqi/games").json() == []
