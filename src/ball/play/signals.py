"""Who wants to hear that a stored game changed: the live boards' streams
(`ball.web.public.live_stream`) listen, the game stores (`ball.games.ball.play.store`,
`ball.games.xiangqi.web.game_store`) tell after each committed write. A listener must be
quick and thread-safe (writes run on the server's worker threads); a stream also re-reads
the game's version on its own, so a write of another process, which nobody here hears,
still reaches it.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

Listener = Callable[[str, str], None]

# Bound methods, held weakly: an app's hub that is gone (a test's app) stops listening.
_listeners: list[weakref.WeakMethod[Any]] = []
_lock = threading.Lock()
LOG = logging.getLogger(__name__)


def listen(listener: Listener) -> None:
    """Call the bound method `listener(kind, game_id)` after every game write."""
    with _lock:
        _listeners.append(weakref.WeakMethod(listener))


def unlisten(listener: Listener) -> None:
    with _lock:
        _listeners[:] = [ref for ref in _listeners if ref() not in (None, listener)]


def changed(kind: str, game_id: str) -> None:
    """Game `game_id` of `kind` ("xiangqi", "ball": a match's first half) has a new version."""
    with _lock:
        _listeners[:] = [ref for ref in _listeners if ref() is not None]
        listeners = [ref() for ref in _listeners]
    for listener in listeners:
        if listener is not None:
            try:
                listener(kind, game_id)
            except Exception:  # the write is committed: a listener's fault must not undo it
                LOG.exception("game change listener failed")
