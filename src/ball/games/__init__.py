"""The registry of games: one line per game. Shared code asks the game of an event what it
needs (`game(name)`, the `Game` protocol of `ball.games.protocol`) and never its name.

A game defined elsewhere (a test's fourth game) joins with `register(game)` and leaves
with `unregister(name)`.

The games are named here, not imported: each is imported the first time the registry is
read. Importing one game's rules (`ball.games.xiangqi.engine`) runs this package's
`__init__` and must not load every other game with it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any

from ball.games.errors import TournamentError
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
    Regulation,
)  # fmt: skip

__all__ = [
    "GAMES", "Commands", "Decided", "DeskForm", "Figures", "Game", "GameBase", "GameTieBreak",
    "LiveBoard", "Paper", "PlayersForm", "Regulation",
    "game", "load", "pairs_players", "register", "runs_sessions", "unregister",
]  # fmt: skip

# The games, one line each, in the order the desk lists them.
BUILT_IN = (
    "ball.games.ball.game:BallGame",
    "ball.games.xiangqi.game:XiangqiGame",
    "ball.games.mahjong.game:MahjongGame",
)


def load(name: str) -> Any:
    """A game's module that the protocol names rather than imports (its web, CLI or paper
    sits above its rules), or one of its attributes ("module:attribute"): imported when
    first asked."""
    module, _, attribute = name.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


class Registry(MutableMapping[str, Game]):
    """The games by name; the built-in ones are made on the first read."""

    def __init__(self, built_in: tuple[str, ...]) -> None:
        self._built_in = built_in
        self._games: dict[str, Game] = {}
        self._made = False

    def _entries(self) -> dict[str, Game]:
        if not self._made:
            self._made = True
            made = {entry.name: entry for entry in (load(n)() for n in self._built_in)}
            self._games = {**made, **self._games}  # the built-in games first
        return self._games

    def __getitem__(self, name: str) -> Game:
        return self._entries()[name]

    def __setitem__(self, name: str, entry: Game) -> None:
        self._entries()[name] = entry

    def __delitem__(self, name: str) -> None:
        del self._entries()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())


GAMES = Registry(BUILT_IN)


def register(entry: Game) -> Game:
    """Add a game to the registry under its name (a name taken is refused)."""
    if entry.name in GAMES:
        raise ValueError(f"a game named {entry.name!r} is registered already")
    GAMES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Take a registered game out again (a test's game, once its test is done)."""
    GAMES.pop(name, None)


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
