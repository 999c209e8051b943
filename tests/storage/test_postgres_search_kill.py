"""A computer move requested from one `ball serve` process and collected from another after
the first is SIGKILLed mid-search (issue 34): two real server processes on a throwaway
PostgreSQL, the search queue in the database between them."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request

from sqlalchemy import create_engine, select

from ball.games.ball.engine import Game
from ball.play.models import SearchJob, WebGame


def _call(url: str, method: str = "GET", body: dict | None = None, timeout: float = 60.0):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return answer.status, json.loads(answer.read())


def _job(engine) -> SearchJob | None:
    with engine.connect() as connection:
        return connection.execute(select(SearchJob)).first()


def test_a_computer_move_asked_of_a_killed_worker_is_collected_from_another(
    fresh_postgres_url, server_process
):
    first = server_process(fresh_postgres_url)
    second = server_process(fresh_postgres_url)
    engine = create_engine(fresh_postgres_url)
    # the computer (North, "hard": about 2 s per turn) acts first: creating the game asks
    body = {"mode": "computer", "computer_side": "N", "computer_level": "hard"}

    def ask() -> None:
        with contextlib.suppress(OSError, urllib.error.URLError):  # its server is killed
            _call(f"{first.url}/api/games", "POST", body)

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    deadline = time.monotonic() + 60
    while (job := _job(engine)) is None or job.state != "running":
        assert time.monotonic() < deadline, "the first worker never started the search"
        time.sleep(0.02)
    assert job.worker is not None and f":{first.proc.pid}:" in job.worker
    first.kill()  # SIGKILL mid-search: no handler runs, its lease is left to run out
    asking.join(timeout=30)
    with engine.connect() as connection:
        (game_id,) = connection.execute(select(WebGame.id)).one()
    poll = f"{second.url}/api/games/{game_id}/computer"
    deadline = time.monotonic() + 90
    while True:
        status, answer = _call(poll)
        assert status == 200 and answer["state"] != "failed", answer
        if answer["ready"]:
            break
        assert time.monotonic() < deadline, f"the second worker never answered: {answer}"
        time.sleep(0.3)
    status, state = _call(f"{second.url}/api/games/{game_id}")
    assert status == 200 and state["actor"] == "S"  # the computer's turn is played
    log = state["log"]
    assert log and all(e["side"] == "N" for e in log)  # stored once: one turn of North
    replay = Game.new()
    for entry in log:
        replay.apply(entry["action"])  # legal, in order
    assert replay.to_json() == state["position"]
    done = _job(engine)
    assert done is not None and done.state == "done" and done.attempts == 2
    assert f":{second.proc.pid}:" in (done.worker or "")
    assert json.loads(done.result or "") == [e["action"] for e in log]
    engine.dispose()
