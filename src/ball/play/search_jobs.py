"""The queue of computer searches in the database (issue 34): what every server process sees.

A search the computer must make (its turn in a simulator game) is a row of `web_search_jobs`
before anyone runs it: one row per game and version, so asking again for the same position
finds the same job. A worker *claims* a job with a lease (`state` running, `worker`, and
`lease_until` a few seconds ahead) that it renews while the search runs
(`ball.play.search_work`); a job whose lease ran out (its worker was killed) is claimable
again by any process, so a killed worker loses no request. The claim is one statement:
`UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED)` on PostgreSQL, so two workers
never take the same row; on SQLite, whose writers take turns, the same UPDATE without the
row lock is already atomic.

The queue also holds the limits across processes: a client may have `QUEUED_PER_CLIENT`
live searches and everyone together `QUEUED_IN_ALL` (`searches.SearchesBusy`, a 429); a job
abandoned with its killed worker stops counting after `ABANDONED_SECONDS`.
Times are wall-clock seconds (`time.time()`), as leases are compared between processes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table, and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from ball.play.models import SearchJob
from ball.play.searches import QUEUED_IN_ALL, QUEUED_PER_CLIENT, SearchesBusy

LEASE_SECONDS = 6.0  # a killed worker's search is taken again this long after its last renewal
MAX_ATTEMPTS = 3  # a search that killed its worker this often is given up, not tried forever
KEEP_FINISHED_SECONDS = 3600.0  # finished jobs are answers to "is my move ready" for a while
# A job nobody has claimed for this long, or whose lease ran out (its worker was killed and
# its asker has not asked again), no longer counts against the limits: it is still run the
# next time someone asks about its game, but it cannot lock its address out meanwhile.
ABANDONED_SECONDS = 60.0
UNFINISHED = ("queued", "running")
FINISHED = ("done", "failed")

_table = cast(Table, SearchJob.__table__)
_c = _table.c


@dataclass(frozen=True)
class Job:
    """A row of `web_search_jobs` as plain values."""

    id: int
    kind: str
    game_id: str
    version: int
    level: str
    seed: int
    side: str
    position: str
    client: str
    state: str
    worker: str | None
    lease_until: float
    attempts: int
    result: str | None

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    @classmethod
    def of(cls, row: Any) -> Job:
        m = row._mapping
        return cls(**{name: m[name] for name in cls.__dataclass_fields__})


_COLUMNS = [_c[name] for name in Job.__dataclass_fields__]


def check(connection: Connection, client: str) -> None:
    """`SearchesBusy` if `client`, or everyone, has as many live searches as allowed
    (queued lately, or running under a lease that holds)."""
    now = time.time()
    live = or_(
        and_(_c.state == "queued", _c.created_at > now - ABANDONED_SECONDS),
        and_(_c.state == "running", _c.lease_until > now),
    )
    mine, everyone = connection.execute(
        select(
            func.count().filter(_c.client == client),
            func.count(),
        ).where(live)
    ).one()
    if mine >= QUEUED_PER_CLIENT:
        raise SearchesBusy(
            f"this address already has {QUEUED_PER_CLIENT} computer searches under way; "
            "wait for their answers"
        )
    if everyone >= QUEUED_IN_ALL:
        raise SearchesBusy(
            f"the server is running the most computer searches it queues ({QUEUED_IN_ALL}); "
            "try again in a few seconds"
        )


def _find(connection: Connection, kind: str, game_id: str, version: int) -> Job | None:
    row = connection.execute(
        select(*_COLUMNS).where(_c.kind == kind, _c.game_id == game_id, _c.version == version)
    ).first()
    return None if row is None else Job.of(row)


def enqueue(
    engine: Engine,
    *,
    kind: str,
    game_id: str,
    version: int,
    level: str,
    seed: int,
    side: str,
    position: str,
    client: str,
) -> Job:
    """The job searching game `game_id` at `version`: the one already asked for, else a new
    queued one (`SearchesBusy` when the limits are reached)."""
    try:
        with engine.begin() as connection:
            known = _find(connection, kind, game_id, version)
            if known is not None:
                return known
            check(connection, client)
            connection.execute(
                _table.insert().values(
                    kind=kind,
                    game_id=game_id,
                    version=version,
                    level=level,
                    seed=seed,
                    side=side,
                    position=position,
                    client=client[:64],
                    state="queued",
                    lease_until=0.0,
                    attempts=0,
                    created_at=time.time(),
                )
            )
            made = _find(connection, kind, game_id, version)
    except IntegrityError:  # another process asked for the same position at the same moment
        with engine.connect() as connection:
            made = _find(connection, kind, game_id, version)
    if made is None:  # pragma: no cover - the row was just written or found
        raise RuntimeError(f"search job of {kind} game {game_id!r} v{version} vanished")
    return made


def _claimable(now: float) -> Any:
    return and_(
        or_(_c.state == "queued", and_(_c.state == "running", _c.lease_until < now)),
        _c.attempts < MAX_ATTEMPTS,
    )


def claim(engine: Engine, worker: str, job_id: int | None = None) -> Job | None:
    """Take a job for `worker` with a lease: job `job_id` if it is claimable, else (None)
    the oldest claimable one; None when there is nothing to take."""
    now = time.time()
    pick = select(_c.id).where(_claimable(now))
    pick = pick.where(_c.id == job_id) if job_id is not None else pick.order_by(_c.id).limit(1)
    if engine.dialect.name == "postgresql":
        pick = pick.with_for_update(skip_locked=True)
    statement = (
        update(_table)
        .where(_c.id == pick.scalar_subquery(), _claimable(now))
        .values(
            state="running",
            worker=worker,
            lease_until=now + LEASE_SECONDS,
            attempts=_c.attempts + 1,
        )
        .returning(*_COLUMNS)
    )
    with engine.begin() as connection:
        row = connection.execute(statement).first()
    return None if row is None else Job.of(row)


def renew(engine: Engine, worker: str) -> int:
    """Push the leases of every job `worker` runs `LEASE_SECONDS` ahead; how many."""
    with engine.begin() as connection:
        done = connection.execute(
            update(_table)
            .where(_c.worker == worker, _c.state == "running")
            .values(lease_until=time.time() + LEASE_SECONDS)
        )
    return int(done.rowcount)


def release(engine: Engine, job_id: int, worker: str) -> None:
    """Give a claimed job back to the queue unsearched (this process could not run it now):
    the attempt is not counted."""
    with engine.begin() as connection:
        connection.execute(
            update(_table)
            .where(_c.id == job_id, _c.worker == worker, _c.state == "running")
            .values(state="queued", worker=None, lease_until=0.0, attempts=_c.attempts - 1)
        )


def finish(engine: Engine, job_id: int, worker: str, state: str, result: str) -> bool:
    """Record the job's answer (`done`) or its error (`failed`) if `worker` still holds it;
    False when its lease was lost to another worker (who will record its own)."""
    if state not in FINISHED:
        raise ValueError(f"state: one of {', '.join(FINISHED)}, not {state!r}")
    with engine.begin() as connection:
        done = connection.execute(
            update(_table)
            .where(_c.id == job_id, _c.worker == worker, _c.state == "running")
            .values(state=state, result=result, finished_at=time.time())
        )
    return int(done.rowcount) == 1


def read(engine: Engine, job_id: int) -> Job | None:
    with engine.connect() as connection:
        row = connection.execute(select(*_COLUMNS).where(_c.id == job_id)).first()
    return None if row is None else Job.of(row)


def newest(engine: Engine, kind: str, game_id: str) -> Job | None:
    """The game's latest search job (of its highest version), if any."""
    with engine.connect() as connection:
        row = connection.execute(
            select(*_COLUMNS)
            .where(_c.kind == kind, _c.game_id == game_id)
            .order_by(_c.version.desc())
            .limit(1)
        ).first()
    return None if row is None else Job.of(row)


def tidy(engine: Engine) -> int:
    """Give up jobs that used all their attempts and whose last lease ran out (`failed`), and
    forget finished jobs older than `KEEP_FINISHED_SECONDS` and unfinished ones nobody held
    for as long (asked about again, such a game gets a new job); how many rows changed."""
    now = time.time()
    with engine.begin() as connection:
        given_up = connection.execute(
            update(_table)
            .where(
                _c.state == "running",
                _c.lease_until < now,
                _c.attempts >= MAX_ATTEMPTS,
            )
            .values(
                state="failed",
                result=f"the search stopped its worker {MAX_ATTEMPTS} times; given up",
                finished_at=now,
            )
        )
        old = now - KEEP_FINISHED_SECONDS
        gone = connection.execute(
            delete(_table).where(
                or_(
                    and_(_c.state.in_(FINISHED), _c.finished_at < old),
                    and_(_c.state.in_(UNFINISHED), _c.created_at < old, _c.lease_until < now),
                )
            )
        )
    return int(given_up.rowcount) + int(gone.rowcount)
