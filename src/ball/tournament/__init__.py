"""Tournaments: events, entrants, pairing systems, results, standings with tie-breaks.

`ball.tournament.service.TournamentService` is the API; games plug in through the
registry `ball.games`.

`TournamentService` is loaded on first use (PEP 562 `__getattr__`), not with the package:
it brings every use case (desk, teams, groups, knockouts, Mahjong sessions), and a module of
the package (the models, the ranking code) can then be imported without them, e.g. for the
import floor of `bench/cli.py` (issue 15, target 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ball.tournament.errors import TournamentError

if TYPE_CHECKING:
    from ball.tournament.service import TournamentService

__all__ = ["TournamentError", "TournamentService"]


def __getattr__(name: str) -> Any:
    if name == "TournamentService":
        from ball.tournament.service import TournamentService

        globals()[name] = TournamentService  # once loaded, an ordinary attribute
        return TournamentService
    raise AttributeError(f"module 'ball.tournament' has no attribute {name!r}")
