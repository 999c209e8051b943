"""The Xiangqi computer's replies through the database's search queue (issue 34), as the
simulator's (`ball.games.ball.play.store`): a reply is a job of `ball.play.search_jobs` keyed by the
game's id and version, run by whichever process asks first (`ball.play.search_work`), stored
by `XiangqiStore.store_reply` only if the game is still where it was searched. A reply
another process holds past `search_work.QUICK_WAIT` is a `ComputerThinking` (202), and
`reply` answers "is the computer's move ready" from any process."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ball.games.xiangqi.ai.search import move_text
from ball.games.xiangqi.web.game_store import XiangqiStore
from ball.play import search_jobs, search_work
from ball.play.errors import ComputerThinking


def computer_reply(store: XiangqiStore, text: str) -> None:
    """The computer's move in game `text` when it is to move there, stored before this
    returns; `ComputerThinking` when another process holds the search beyond the wait."""
    job = _job(store, text)
    if job is None:
        return
    job = search_work.settle(store.sessions, job, store.client, search_work.QUICK_WAIT)
    if not job.finished:
        raise ComputerThinking(_view(store, text, job))


def reply(store: XiangqiStore, text: str, wait: float) -> dict[str, Any]:
    """Is the computer's move ready: a search nobody holds is run here first."""
    job = _job(store, text)
    if job is not None and not job.finished:
        job = search_work.settle(store.sessions, job, store.client, wait)
    return _view(store, text, job)


def _job(store: XiangqiStore, text: str) -> search_jobs.Job | None:
    """The search job of the game's position when the computer is to move there."""
    state = store.state(text)
    if state["mode"] != "computer" or state["level"] is None or state["over"]:
        return None
    if state["turn"] != state["computer"]:
        return None
    return search_jobs.enqueue(
        search_work.engine_of(store.sessions),
        kind="xiangqi",
        game_id=str(state["id"]),
        version=state["version"],
        level=state["level"],
        seed=len(state["moves"]),  # the same game gets the same replies
        side=state["computer"],
        position=state["fen"],
        client=store.client,
    )


def _view(store: XiangqiStore, text: str, job: search_jobs.Job | None) -> dict[str, Any]:
    state = store.state(text)
    number = str(state["id"])
    return search_work.view(number, state["version"], job, f"/api/xiangqi/games/{number}/computer")


def _search(job: search_jobs.Job) -> tuple[Any, tuple[Any, ...]]:
    return move_text, (job.position, job.level, job.seed)


def _apply(sessions: sessionmaker[Session], job: search_jobs.Job, answer: Any) -> None:
    XiangqiStore(sessions).store_reply(job.game_id, job.version, answer)


search_work.register("xiangqi", search_work.Kind(_search, _apply))
