"""The PIN throttle on PostgreSQL (issue 30 item 5): 40 simultaneous tries from one address
are counted and decided one at a time (row locks), so exactly five PINs are checked; and the
recovery code's table comes with the migrations."""

from __future__ import annotations

import threading

import sqlalchemy as sa

from ball.web import security
from ball.web.app import create_app

T0 = 1_800_000_000.0


def forty_at_once(sessions, client: str = "10.0.0.66") -> list[float]:
    """40 threads start a PIN try of one address at the same moment; what `take` told each."""
    throttle = security.PinThrottle(sessions, "desk")
    start = threading.Barrier(40)
    told: list[float] = []

    def one() -> None:
        start.wait()
        told.append(throttle.take(7, client, T0))

    threads = [threading.Thread(target=one) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return told


def test_forty_simultaneous_tries_on_postgres_get_exactly_five_checks(fresh_postgres_url):
    app = create_app(fresh_postgres_url)
    told = forty_at_once(app.state.sessions)
    assert told.count(0.0) == security.MAX_FAILURES
    assert len(told) == 40


def test_the_recovery_table_is_migrated_on_postgres(fresh_postgres_url):
    app = create_app(fresh_postgres_url)
    assert "desk_recovery" in sa.inspect(app.state.engine).get_table_names()
