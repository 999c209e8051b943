"""The PIN throttle on PostgreSQL (issue 30 item 5): 40 simultaneous tries from one address
are counted and decided one at a time (row locks), so exactly five PINs are checked; and the
recovery code's table comes with the migrations."""

from __future__ import annotations

import sqlalchemy as sa

from ball.web.app import create_app
from ball.web.core import security
from security.test_pin_throttle import forty_at_once  # the same 40 tries as on SQLite


def test_forty_simultaneous_tries_on_postgres_get_exactly_five_checks(fresh_postgres_url):
    app = create_app(fresh_postgres_url)
    told = forty_at_once(app.state.sessions)
    assert told.count(0.0) == security.MAX_FAILURES
    assert len(told) == 40


def test_the_recovery_table_is_migrated_on_postgres(fresh_postgres_url):
    app = create_app(fresh_postgres_url)
    assert "desk_recovery" in sa.inspect(app.state.engine).get_table_names()
