"""The errors a tournament operation raises for bad input: `TournamentError` and its kinds
(`IllegalSheet`, `NotFound`, `Unpairable`); the message is one line, shown as is."""

from __future__ import annotations


class TournamentError(ValueError):
    """A request the tournament cannot carry out; nothing was written.

    The message is one line that names what was wrong (the CLI prints it and exits with
    status 2; the web answers 4xx with it).
    """


class IllegalSheet(TournamentError):
    """A game's result document that is not a legal result. The message says so ("illegal
    sheet: ..."); `fault` is the fault alone, for a page whose form is the sheet itself
    (the desk's result check), where the prefix would only repeat what the page is."""

    def __init__(self, fault: str) -> None:
        super().__init__(f"illegal sheet: {fault}")
        self.fault = fault


class NotFound(TournamentError):
    """The event, round, table or entrant asked for does not exist (the web answers 404)."""


class Unpairable(TournamentError):
    """The pairing rules find no pairing for the round: every way to pair those who play
    would break an absolute criterion (a repeat game, above all). Nothing was paired; the
    arbiter pairs the round by hand (`ball round manual`, the desk's manual pairing)."""
