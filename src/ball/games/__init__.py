"""The registry of games: one line per game. Shared code asks the game of an event what it
needs (`game(name)`, the `Game` protocol of `ball.games.protocol`) and never its name.

A game defined elsewhere (a test's fourth game) joins with `register(game)` and leaves
with `unregister(name)`.
"""

from __future__ import annotations

import importlib
from typing import Any

from ball.games.ball.game import BallGame
from ball.games.errors import TournamentError
from ball.games.mahjong.game import MahjongGame
from ball.games.protocol import (
    Commands,
    Decided,
    DeskForm,
    Figures,
    Game,
    GameBase,
    GameTieBreak,
    LiveBoard,
    Paper,
    PlayersForm,
)  # fmt: skip
from ball.games.xiangqi.game import XiangqiGame

__all__ = [
    "GAMES", "Commands", "Decided", "DeskForm", "Figures", "Game", "GameBase", "GameTieBreak",
    "LiveBoard", "Paper", "PlayersForm",
    "game", "load", "pairs_players", "register", "runs_sessions", "unregister",
]  # fmt: skip

GAMES: dict[str, Game] = {}


def register(entry: Game) -> Game:
    """Add a game to the registry under its name (a name taken is refused)."""
    if entry.name in GAMES:
        raise ValueError(f"a game named {entry.name!r} is registered already")
    GAMES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Take a registered game out again (a test's game, once its test is done)."""
    GAMES.pop(name, None)


register(BallGame())
register(XiangqiGame())
register(MahjongGame())


def load(name: str) -> Any:
    """A game's module that the protocol names rather than imports (its web, CLI or paper
    sits above its rules), or one of its attributes ("module:attribute"): imported when
    first asked."""
    module, _, attribute = name.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


def game(name: str) -> Game:
    """The registered game `name`; an unknown name is a `TournamentError` listing the known."""
    try:
        return GAMES[name]
    except KeyError:
        raise TournamentError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


def pairs_players(name: str) -> bool:
    """Whether the game `name` pairs two players a table, so its events are run by rounds
    and rank by points and a tie-break chain (standings pages, projector); tables of four
    are seated by sessions and rank by table points."""
    entry = GAMES.get(name)
    return entry is not None and entry.seats == 2


def runs_sessions(name: str) -> bool:
    """Whether the game `name` seats tables of four, run by sessions (not rounds)."""
    entry = GAMES.get(name)
    return entry is not None and entry.seats == 4
