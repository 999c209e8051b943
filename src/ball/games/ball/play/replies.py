"""The simulator computer's replies through the database's search queue (issue 34): a
turn the computer must play is a job of `ball.play.search_jobs` keyed by the game's id and
version, run by whichever process asks first (`ball.play.search_work`: this process's pool
of search processes, or Ray), stored by `GameStore.store_reply` only if the game is still
at the version searched. A reply another process holds past `search_work.QUICK_WAIT` is a
`ComputerThinking` (the API's 202), and `computer` answers "is the computer's move ready"
from any process. The Xiangqi counterpart is `ball.games.xiangqi.web.replies`."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import sessionmaker

from ball.games.ball.ai import agent_name, turn
from ball.games.ball.play.store import GameStore
from ball.play import search_jobs, search_work
from ball.play.errors import ComputerThinking


def computer_turns(store: GameStore, game_id: str) -> None:
    """The computer's turn in game `game_id` when it is to act there, stored before this
    returns; `ComputerThinking` when another process holds the search beyond the wait."""
    job = _job(store, game_id)
    if job is None:
        return
    job = search_work.settle(store.sessions, job, store.client, search_work.QUICK_WAIT)
    if not job.finished:
        raise ComputerThinking(_view(store, game_id, job))


def computer(store: GameStore, game_id: str, wait: float) -> dict[str, Any]:
    """Is the computer's move ready: its search job as any process reads it from the
    database. A job nobody holds (queued, or its worker was killed) is searched here
    first, waiting at most `wait` seconds for a job another process holds."""
    job = _job(store, game_id)
    if job is not None and not job.finished:
        job = search_work.settle(store.sessions, job, store.client, wait)
    return _view(store, game_id, job)


def _job(store: GameStore, game_id: str) -> search_jobs.Job | None:
    """The search job of the game's current position when the computer is to act there
    (queued now, or the one already asked for), else None."""
    state = store.state(game_id)
    side = state["computer_side"]
    if state["mode"] != "computer" or state["over"] or state["actor"] != side:
        return None
    if not state["legal"]:
        return None
    engine = search_work.engine_of(store.sessions)
    search_work.tidy_now_and_then(engine)
    return search_jobs.enqueue(
        engine,
        kind="ball",
        game_id=game_id,
        version=state["version"],
        level=agent_name(state["computer_level"] or "greedy"),
        seed=len(state["log"]),  # the same game gets the same replies
        side=side,
        position=json.dumps(state["position"]),
        client=store.client,
    )


def _view(store: GameStore, game_id: str, job: search_jobs.Job | None) -> dict[str, Any]:
    version = store.state(game_id)["version"]
    return search_work.view(game_id, version, job, f"/api/games/{game_id}/computer")


def _search(job: search_jobs.Job) -> tuple[Any, tuple[Any, ...]]:
    return turn.ball_turn, (json.loads(job.position), job.level, job.seed, job.side)


def _apply(sessions: sessionmaker, job: search_jobs.Job, answer: Any) -> None:
    GameStore(sessions).store_reply(job.game_id, job.version, list(answer))


search_work.register("ball", search_work.Kind(_search, _apply))
