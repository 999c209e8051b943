"""The one write lock per database that every game's stored games take (BALL's simulator,
Xiangqi's board): SQLite serialises writers anyway, and waiting on a Python lock is far
cheaper (and fairer) than SQLite's busy-retry sleeps."""

from __future__ import annotations

import threading
import weakref

from sqlalchemy.orm import sessionmaker

# One writer at a time per database: SQLite serialises writers anyway, and waiting on a
# Python lock is far cheaper (and fairer) than SQLite's busy-retry sleeps. Re-entrant, so
# the async API can take it without waiting before calling the service (`ball.games.ball.web.api`).
_write_locks: dict[str, threading.RLock] = {}
_write_locks_guard = threading.Lock()


# The lock of each sessionmaker seen, so an action does not render the URL twice (issue 15).
_locks_by_maker: weakref.WeakKeyDictionary[sessionmaker, threading.RLock] = (
    weakref.WeakKeyDictionary()
)


def write_lock(sessions: sessionmaker) -> threading.RLock:
    known = _locks_by_maker.get(sessions)
    if known is not None:
        return known
    bind = sessions.kw.get("bind")
    key = str(bind.url) if bind is not None else str(id(sessions))
    with _write_locks_guard:
        lock = _locks_by_maker[sessions] = _write_locks.setdefault(key, threading.RLock())
        return lock
