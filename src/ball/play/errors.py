"""What a request to the simulator's games can be refused with: `GameError` and its kinds,
each with the HTTP status the web answers it with (`status`), so the store names the
fault and the routes only translate it."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """A request the game cannot serve; `status` is the HTTP status it maps to."""

    status = 400


class GameNotFound(GameError):
    status = 404


class GameConflict(GameError):
    status = 409


class BadPosition(GameError):
    status = 422


class ComputerBusy(GameError):
    """Too many computer searches queued (`ball.play.searches`): ask again later."""

    status = 429


class ComputerThinking(GameError):
    """The computer's reply is not ready within the request (another process holds its
    search): answered 202 with `view`, where to ask again (`ball.games.ball.play.replies`)."""

    status = 202

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(f"the computer is still thinking; ask {view['poll']}")
        self.view = view


class StoredGameBroken(GameError):
    """A stored game that no longer replays (e.g. after a rules change); data is kept."""

    status = 409


