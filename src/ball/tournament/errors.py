"""The errors a tournament operation raises for bad input: `TournamentError` and its kinds
(`IllegalSheet`, `NotFound`, `Unpairable`); the message is one line, shown as is. The first
two are the games' (`ball.games.errors`: a game's rules raise them), re-exported here."""

from __future__ import annotations

from ball.games.errors import IllegalSheet, TournamentError

__all__ = ["IllegalSheet", "NotFound", "TournamentError", "Unpairable"]


class NotFound(TournamentError):
    """The event, round, table or entrant asked for does not exist (the web answers 404)."""


class Unpairable(TournamentError):
    """The pairing rules find no pairing for the round: every way to pair those who play
    would break an absolute criterion (a repeat game, above all). Nothing was paired; the
    arbiter pairs the round by hand (`ball round manual`, the desk's manual pairing)."""
