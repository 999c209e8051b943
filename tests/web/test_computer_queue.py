"""The computer's reply through the database's search queue (issue 34), in one process on a
real SQLite file: a reply another process holds is answered 202 with where to ask; asked
there after that process's lease ran out, the search is run again and its reply stored
once; the queued search is the seeded search it always was. (Two real server processes
and a SIGKILL: tests/storage/test_postgres_search_kill.py.)"""

from __future__ import annotations

import dataclasses
import json
import time

from fastapi.testclient import TestClient
from sqlalchemy import select

from ball.games.ball.ai import turn
from ball.games.ball.ai.mcts import LEVELS
from ball.games.ball.engine import Game
from ball.games.xiangqi.ai.search import move_text
from ball.play import search_jobs, search_work, searches
from ball.play.models import SearchJob
from ball.web.app import create_app


def jobs(client: TestClient) -> list[SearchJob]:
    with client.app.state.sessions() as session:
        return list(session.scalars(select(SearchJob).order_by(SearchJob.id)))


def test_a_reply_held_by_a_dead_process_is_a_202_and_is_collected_after_its_lease(
    tmp_path, monkeypatch
):
    client = TestClient(create_app(str(tmp_path / "q.sqlite")))
    body = {"mode": "computer", "computer_side": "S", "computer_level": "greedy"}
    made = client.post("/api/games", json=body).json()  # N, the player, acts first
    assert made["actor"] == "N"
    searching = search_work.run
    # the process that claims the search dies before it answers: it never finishes the job
    monkeypatch.setattr(search_work, "run", lambda sessions, job, client: None)
    monkeypatch.setattr(search_work, "QUICK_WAIT", 0.0)
    monkeypatch.setattr(search_jobs, "LEASE_SECONDS", 0.5)
    state, played = made, 0
    while state["actor"] == "N":  # the player's whole turn; its last action is answered 202
        action = "end" if "end" in state["legal"] else state["legal"][0]
        answer = client.post(f"/api/games/{made['id']}/actions", json={"action": action})
        played += 1
        if answer.status_code != 200:
            break
        state = answer.json()
    assert answer.status_code == 202, answer.text
    pending = answer.json()
    poll = f"/api/games/{made['id']}/computer"
    assert pending == {
        "id": made["id"],
        "version": made["version"] + played,  # the player's actions are stored
        "state": "running",
        "ready": False,
        "poll": poll,
        "error": None,
    }
    assert client.get(f"/api/games/{made['id']}").json()["actor"] == "S"
    assert client.get(poll).json()["state"] == "running"  # its lease still holds
    monkeypatch.setattr(search_work, "run", searching)  # a live process asks next
    time.sleep(0.6)
    ready = client.get(poll).json()
    assert ready["ready"] and ready["state"] == "done"
    state = client.get(f"/api/games/{made['id']}").json()
    assert state["version"] == made["version"] + played + 1 and state["actor"] == "N"
    replies = state["log"][played:]  # stored once, after the player's turn
    assert replies and all(e["side"] == "S" for e in replies)
    assert all(e["side"] == "N" for e in state["log"][:played])
    (job,) = jobs(client)
    assert job.attempts == 2 and job.state == "done"
    assert json.loads(job.result or "") == [e["action"] for e in replies]
    after = client.get(poll).json()  # the player is to act: nothing is searched
    assert after["state"] == "none" and after["ready"] and after["poll"] is None


def test_the_queued_reply_is_the_seeded_search(tmp_path, monkeypatch):
    # the iteration budget decides (no time cap), and the search runs in this process, so
    # the patched level is the one searched (docs/ai.md, "budget and determinism")
    monkeypatch.setitem(LEVELS, "easy", dataclasses.replace(LEVELS["easy"], seconds=None))
    monkeypatch.setattr(searches.pool, "_compute", lambda job: job.work(*job.args))
    client = TestClient(create_app(str(tmp_path / "q.sqlite")))
    body = {"mode": "computer", "computer_side": "N", "computer_level": "easy"}
    state = client.post("/api/games", json=body).json()
    expected = turn.ball_turn(Game.new().to_json(), "mcts-easy", 0, "N")
    assert [e["action"] for e in state["log"]] == expected
    (job,) = jobs(client)
    assert (job.level, job.seed, job.side, job.version) == ("mcts-easy", 0, "N", 0)
    assert json.loads(job.result or "") == expected


def test_asking_about_a_game_without_a_computer_to_act(tmp_path):
    client = TestClient(create_app(str(tmp_path / "q.sqlite")))
    free = client.post("/api/games", json={"mode": "free"}).json()
    answer = client.get(f"/api/games/{free['id']}/computer").json()
    assert answer["state"] == "none" and answer["ready"] and answer["version"] == 0
    missing = client.get("/api/games/nosuchgame/computer")
    assert missing.status_code == 404 and "does not exist" in missing.json()["detail"]
    assert jobs(client) == []


def test_a_xiangqi_reply_held_by_a_dead_process_is_a_202_and_collected_after_its_lease(
    tmp_path, monkeypatch
):
    client = TestClient(create_app(str(tmp_path / "q.sqlite")))
    made = client.post("/api/xiangqi/games", json={"mode": "computer", "computer": "black"})
    assert made.status_code == 201, made.text
    number = made.json()["id"]
    searching = search_work.run
    monkeypatch.setattr(search_work, "run", lambda sessions, job, client: None)
    monkeypatch.setattr(search_work, "QUICK_WAIT", 0.0)
    monkeypatch.setattr(search_jobs, "LEASE_SECONDS", 0.5)
    answer = client.post(f"/api/xiangqi/games/{number}/moves", json={"move": "h2e2"})
    assert answer.status_code == 202, answer.text
    poll = f"/api/xiangqi/games/{number}/computer"
    assert answer.json() == {
        "id": str(number),
        "version": 1,
        "state": "running",
        "ready": False,
        "poll": poll,
        "error": None,
    }
    assert client.get(poll).json()["state"] == "running"  # its lease still holds
    monkeypatch.setattr(search_work, "run", searching)
    time.sleep(0.6)
    ready = client.get(poll).json()
    assert ready["ready"] and ready["state"] == "done" and ready["version"] == 2, ready
    state = client.get(f"/api/xiangqi/games/{number}").json()
    assert [m["iccs"] for m in state["moves"]][0] == "h2e2" and len(state["moves"]) == 2
    (job,) = jobs(client)
    assert (job.kind, job.attempts, job.state) == ("xiangqi", 2, "done")
    assert json.loads(job.result or "") == state["moves"][1]["iccs"]
    assert client.get(poll).json()["state"] == "none"  # red, the player, is to move


def test_the_queued_xiangqi_reply_is_the_seeded_search(tmp_path):
    client = TestClient(create_app(str(tmp_path / "q.sqlite")))
    body = {"mode": "computer", "computer": "red", "level": "easy"}
    state = client.post("/api/xiangqi/games", json=body).json()  # red, the computer, first
    (job,) = jobs(client)
    assert (job.level, job.seed, job.side, job.version) == ("easy", 0, "red", 0)
    expected = move_text(job.position, "easy", 0)
    assert [m["iccs"] for m in state["moves"]] == [expected]


def test_a_search_that_fails_is_told_in_one_line_and_the_game_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(searches.pool, "_compute", lambda job: job.work(*job.args))

    def broken(*args):
        raise RuntimeError("no evaluation for this position\nTraceback details")

    monkeypatch.setattr(turn, "ball_turn", broken)
    client = TestClient(create_app(str(tmp_path / "q.sqlite")))
    made = client.post("/api/games", json={"mode": "computer", "computer_side": "N"})
    assert made.status_code == 201, made.text
    state = made.json()
    assert state["log"] == [] and state["actor"] == "N"  # nothing stored of the search
    answer = client.get(f"/api/games/{state['id']}/computer").json()
    assert answer["state"] == "failed" and answer["ready"] and answer["poll"] is None
    assert answer["error"] == "the search failed: no evaluation for this position"
