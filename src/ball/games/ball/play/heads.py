"""The simulator's write fast path: what this process last wrote of each game, and one
versioned SQLite statement that appends an action without the ORM.

Owns `GameHead` (a game row's fields at one version, without its action list), the bounded
table of heads by game id, and `append_action`, the optimistic write. Issue 15: loading the
row through the ORM and rewriting the action list from Python cost more CPU per action than
the engine step. The head and the rebuilt game (`ball.games.ball.play.caches`, by id and version)
stand in for the row; the write checks that the row is still at the version this process
knows (`UPDATE ... WHERE id = ? AND version = ?`), so a change by another process, or by
another engine of this one, is seen as a missed row and the caller falls back to reading
the row as before. Versions only grow, so a stale head can never match again.

Durability (D-W1): the statement runs on a connection the engine opened (so WAL and its
other pragmas) kept for these appends, and is committed before the caller answers, with
`synchronous=NORMAL` on that connection only: in WAL mode the committed transaction is in
the WAL file when the commit returns, so it survives a crash or kill of the server process;
only a power loss or an operating-system crash may lose the last actions (the database
stays consistent). Tournament data keeps `FULL`.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Protocol

from sqlalchemy import Dialect, Engine

from ball.play.models import WebGame


class GameRow(Protocol):
    """The fields of a `WebGame` that a game's state shows (a row or a `GameHead`)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def computer_side(self) -> str | None: ...
    @property
    def computer_level(self) -> str | None: ...
    @property
    def version(self) -> int: ...
    @property
    def redo(self) -> str: ...
    @property
    def first_half(self) -> str | None: ...


@dataclass(frozen=True)
class GameHead:
    """A game's row at one version, less the action list (the rebuilt game holds it)."""

    id: str
    title: str
    mode: str
    computer_side: str | None
    computer_level: str | None
    version: int
    redo: str  # JSON list, as stored
    first_half: str | None = None  # a second half's first (`GameStore.next_half`)

    @classmethod
    def of(cls, row: GameRow) -> GameHead:
        return cls(
            row.id,
            row.title,
            row.mode,
            row.computer_side,
            row.computer_level,
            row.version,
            row.redo,
            row.first_half,
        )

    def advanced(self) -> GameHead:
        """This game after one more action: the next version, nothing to redo. (Built
        directly: `dataclasses.replace` cost a few per cent of the append, issue 15.)"""
        return GameHead(
            self.id,
            self.title,
            self.mode,
            self.computer_side,
            self.computer_level,
            self.version + 1,
            "[]",
            self.first_half,
        )


class _Heads:
    """The newest head this process wrote or read of recently used games (LRU, bounded)."""

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[str, GameHead] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, game_id: str) -> GameHead | None:
        return self._items.get(game_id)

    def put(self, head: GameHead) -> None:
        with self._lock:
            known = self._items.get(head.id)
            if known is not None and known.version > head.version:
                return  # a late writer of an older version must not hide the newer one
            self._items[head.id] = head
            self._items.move_to_end(head.id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)


heads = _Heads()

# D-W1: a simulator action is committed with synchronous=NORMAL, everything else with the
# shared engine's level (`ball.storage`).
SYNCHRONOUS_FOR_ACTIONS = "NORMAL"

# One connection per engine for the appends, kept open (checking one out of the pool and
# resetting it on return cost about a third of the write); it goes with its engine.
_writers: weakref.WeakKeyDictionary[Engine, Any] = weakref.WeakKeyDictionary()
_writers_guard = threading.Lock()


def _writer(engine: Engine) -> Any:
    """The engine's append connection: one of its own connections (so the engine's pragmas
    apply) taken out of the pool for good, then switched to D-W1's synchronous level."""
    with _writers_guard:
        connection = _writers.get(engine)
        if connection is None:
            fairy = engine.raw_connection()
            connection = fairy.driver_connection
            assert connection is not None  # a checked-out connection always has one
            fairy.detach()  # no longer the pool's: never reset, never handed to anyone else
            connection.execute(f"PRAGMA synchronous={SYNCHRONOUS_FOR_ACTIONS}")
            _writers[engine] = connection
        return connection


# '$[#]' is the position after the last element (SQLite >= 3.31): SQLite appends inside
# the stored text, so Python neither parses nor re-serialises the whole list per action.
_APPEND = (
    "UPDATE web_games SET actions = json_insert(actions, '$[#]', ?), redo = '[]', "
    "version = ?, updated_at = ? WHERE id = ? AND version = ?"
)


# Each engine's answer, found once: a `GameStore` is made per request (issue 15).
_fast_paths: weakref.WeakKeyDictionary[Engine, bool] = weakref.WeakKeyDictionary()


def fast_path(engine: Engine | None) -> bool:
    """Whether `append_action` may write to this engine's database: a SQLite file (the
    statement is SQLite's dialect of SQL, and an in-memory database is its one pooled
    connection, which the append connection must not take away)."""
    if engine is None:
        return False
    known = _fast_paths.get(engine)
    if known is None:
        known = _fast_paths[engine] = _is_sqlite_file(engine)
    return known


def _is_sqlite_file(engine: Engine) -> bool:
    if engine.dialect.name != "sqlite":
        return False
    database = engine.url.database or ""
    return database not in ("", ":memory:") and "memory" not in database + str(engine.url.query)


@cache
def _stamper(dialect: Dialect) -> Callable[[Any], Any] | None:
    column_type = WebGame.__table__.c.updated_at.type
    return column_type.dialect_impl(dialect).bind_processor(dialect)


def _stamp(engine: Engine) -> Any:
    """Now, as the ORM stores `updated_at` in this database (so both paths agree)."""
    process = _stamper(engine.dialect)
    now = datetime.now(UTC)  # as `ball.web.core.models` stamps it
    return process(now) if process is not None else now


def append_action(engine: Engine, head: GameHead, action: str) -> bool:
    """Append `action` to game `head.id` if its row is still at `head.version`, and commit.

    False (nothing written) when the row moved on or is gone: the caller reads it again.
    The caller holds the database's write lock (`ball.games.ball.play.store.write_lock`)."""
    connection = _writer(engine)
    cursor = connection.execute(
        _APPEND, (action, head.version + 1, _stamp(engine), head.id, head.version)
    )
    if cursor.rowcount == 1:
        connection.commit()
        return True
    connection.rollback()
    return False
