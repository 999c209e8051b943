"""Locks that hold across every process on one database (issue 34): the server's workers,
the CLI, a second server.

`hold(session, space, key)` takes a lock for the rest of the session's transaction: on
PostgreSQL a transaction-level advisory lock, so another transaction asking for the same
(space, key) waits until this one commits or rolls back, and a process killed mid-way
releases it with its connection. On SQLite nothing is taken: a writing transaction there
already begins with the database's write lock (`BEGIN IMMEDIATE`, `ball.tournament.service`),
which is a stronger lock. The lock orders writers only; it makes no row visible or not.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

# Lock spaces (the first of PostgreSQL's two 32-bit keys), so that different kinds of
# lock on the same id never wait for each other.
PAIRING = 0x42_41_01  # an event's round pairing: one at a time per event
CREATIONS = 0x42_41_02  # one client address's creations of one kind (`key_of(kind, client)`)


def key_of(*parts: str) -> int:
    """A 32-bit lock key for a name (two names may share one: they then wait for each
    other, which is only slower, never wrong)."""
    import zlib

    number = zlib.crc32("|".join(parts).encode())
    return number - (1 << 32) if number >= 1 << 31 else number  # PostgreSQL's int4 is signed


def takes_effect(session: Session) -> bool:
    """Whether `hold` locks anything on the session's database (PostgreSQL)."""
    return session.get_bind().dialect.name == "postgresql"


def hold(session: Session, space: int, key: int) -> None:
    """Lock (space, key) until the session's transaction ends (PostgreSQL; see the doc)."""
    if not takes_effect(session):
        return
    session.execute(select(func.pg_advisory_xact_lock(space, key)))
