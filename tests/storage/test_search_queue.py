"""The database's queue of computer searches (`ball.play.search_jobs`, issue 34) on a real
SQLite file and a real PostgreSQL: one job per game and version, a claim taken by one worker
only (also when many claim at once), a killed worker's job taken again once its lease ran
out, an answer recorded only by the worker holding the job, and the limits across processes."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import update

from ball.play import search_jobs
from ball.play.models import SearchJob
from ball.play.searches import SearchesBusy
from ball.storage import make_engine, migrate


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request, tmp_path):
    if request.param == "sqlite":
        url = str(tmp_path / "queue.sqlite")
    else:
        url = request.getfixturevalue("fresh_postgres_url")
    made = make_engine(url)
    migrate(made)
    yield made
    made.dispose()


def ask(engine, game: str, version: int = 0, client: str = "10.0.0.1") -> search_jobs.Job:
    return search_jobs.enqueue(
        engine,
        kind="ball",
        game_id=game,
        version=version,
        level="greedy",
        seed=version,
        side="N",
        position="{}",
        client=client,
    )


def expire(engine, job_id: int) -> None:
    """The lease of `job_id` ran out, as when its worker was SIGKILLed long enough ago."""
    with engine.begin() as connection:
        connection.execute(
            update(SearchJob).where(SearchJob.id == job_id).values(lease_until=time.time() - 1)
        )


def test_one_job_per_game_and_version(engine):
    first = ask(engine, "g1", 3)
    assert ask(engine, "g1", 3).id == first.id  # asked again: the same job
    assert ask(engine, "g1", 4).id != first.id  # the next position is a new search
    assert first.state == "queued" and first.attempts == 0


def test_a_job_is_claimed_by_one_worker_and_given_again_after_its_lease(engine):
    job = ask(engine, "g1")
    held = search_jobs.claim(engine, "A", job.id)
    assert held is not None and held.worker == "A" and held.attempts == 1
    assert held.lease_until > time.time()
    assert search_jobs.claim(engine, "B", job.id) is None  # A holds it
    assert search_jobs.claim(engine, "B") is None  # nothing else to take
    assert search_jobs.renew(engine, "A") == 1
    expire(engine, job.id)  # A was killed: no renewal
    taken = search_jobs.claim(engine, "B")
    assert taken is not None and taken.id == job.id and taken.worker == "B"
    assert taken.attempts == 2
    # A's late answer is not recorded; B's is, once
    assert not search_jobs.finish(engine, job.id, "A", "done", '["x"]')
    assert search_jobs.finish(engine, job.id, "B", "done", '["y"]')
    assert not search_jobs.finish(engine, job.id, "B", "done", '["z"]')
    done = search_jobs.read(engine, job.id)
    assert done is not None and done.state == "done" and done.result == '["y"]'
    assert search_jobs.claim(engine, "C", job.id) is None  # finished jobs stay finished


def test_many_workers_claiming_at_once_take_each_job_once(engine):
    jobs = {ask(engine, f"g{i}", client=f"10.0.0.{i}").id for i in range(12)}
    taken: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def work(name: str) -> None:
        try:
            start.wait()
            while (job := search_jobs.claim(engine, name)) is not None:
                taken.append(job.id)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"W{i}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert sorted(taken) == sorted(jobs)  # every job, none twice


def test_a_released_job_is_queued_again_without_counting_an_attempt(engine):
    job = ask(engine, "g1")
    assert search_jobs.claim(engine, "A", job.id) is not None
    search_jobs.release(engine, job.id, "A")
    again = search_jobs.read(engine, job.id)
    assert again is not None and again.state == "queued" and again.attempts == 0
    assert search_jobs.claim(engine, "B") is not None


def test_a_search_that_keeps_killing_its_worker_is_given_up(engine):
    job = ask(engine, "g1")
    for attempt in range(search_jobs.MAX_ATTEMPTS):
        assert search_jobs.claim(engine, f"W{attempt}", job.id) is not None
        expire(engine, job.id)
    assert search_jobs.claim(engine, "last") is None
    assert search_jobs.tidy(engine) == 1
    failed = search_jobs.read(engine, job.id)
    assert failed is not None and failed.state == "failed" and "given up" in str(failed.result)


def test_limits_hold_across_processes(engine, monkeypatch):
    ask(engine, "g1", client="10.0.0.1")
    ask(engine, "g2", client="10.0.0.1")
    with pytest.raises(SearchesBusy, match="this address already has 2 computer searches"):
        ask(engine, "g3", client="10.0.0.1")
    ask(engine, "g1", client="10.0.0.1")  # the same position again is no new search
    monkeypatch.setattr(search_jobs, "QUEUED_IN_ALL", 3)
    ask(engine, "g4", client="10.0.0.2")
    with pytest.raises(SearchesBusy, match="the most computer searches it queues"):
        ask(engine, "g5", client="10.0.0.3")
    held = search_jobs.claim(engine, "A")
    assert held is not None
    search_jobs.finish(engine, held.id, "A", "done", "[]")  # a finished search frees a place
    ask(engine, "g5", client="10.0.0.3")


def test_abandoned_jobs_stop_counting_against_the_limits_but_are_still_run(engine):
    held = ask(engine, "g1")
    search_jobs.claim(engine, "killed", held.id)
    ask(engine, "g2")
    with pytest.raises(SearchesBusy):
        ask(engine, "g3")
    expire(engine, held.id)  # its worker was killed: the lease runs out
    ask(engine, "g3")  # the address is not locked out by it
    with pytest.raises(SearchesBusy):
        ask(engine, "g4")
    with engine.begin() as connection:  # g2 and g3 were queued long ago, never claimed
        connection.execute(
            update(SearchJob)
            .where(SearchJob.state == "queued")
            .values(created_at=time.time() - search_jobs.ABANDONED_SECONDS - 1)
        )
    ask(engine, "g4")
    again = search_jobs.claim(engine, "B", held.id)  # asked about again, it is run
    assert again is not None and again.attempts == 2


def test_old_finished_jobs_are_forgotten(engine, monkeypatch):
    job = ask(engine, "g1")
    search_jobs.claim(engine, "A", job.id)
    search_jobs.finish(engine, job.id, "A", "done", "[]")
    assert search_jobs.tidy(engine) == 0  # kept a while: it answers "is my move ready"
    stale = ask(engine, "g2")  # queued, its asker gone for good
    monkeypatch.setattr(search_jobs, "KEEP_FINISHED_SECONDS", -1.0)
    assert search_jobs.tidy(engine) == 2
    assert search_jobs.read(engine, job.id) is None and search_jobs.read(engine, stale.id) is None
    assert ask(engine, "g2").id != stale.id  # asked about again: a new job
