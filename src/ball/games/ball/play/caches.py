"""What one server process keeps of BALL's stored games between requests (issue 15): the
games it rebuilt, by (id, version), and each game's mode, so the API knows without a read
whether an action may make the computer think. The one write lock per database is shared
(`ball.play.write_locks`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ball.games.ball.play.replay import Rebuilt


class RebuiltGames:
    """Recently rebuilt games by (id, version); entries are never mutated by callers."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[tuple[str, int], Rebuilt] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: tuple[str, int]) -> Rebuilt | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple[str, int], value: Rebuilt) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


rebuilt_games = RebuiltGames()


class Modes:
    """Each recently seen game's mode (fixed at creation), so the API can tell without a
    database read whether an action may make the computer think (a long, threaded job)."""

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, game_id: str) -> str | None:
        return self._items.get(game_id)

    def put(self, game_id: str, mode: str) -> None:
        with self._lock:
            self._items[game_id] = mode
            if len(self._items) > self._size:
                self._items.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)


modes = Modes()


def known_mode(game_id: str) -> str | None:
    """The mode of game `game_id` if this process has served it, else None."""
    return modes.get(game_id)
