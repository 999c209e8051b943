"""The one error a tournament operation raises for bad input; its message is shown as is."""

from __future__ import annotations


class TournamentError(ValueError):
    """A request the tournament cannot carry out; nothing was written.

    The message is one line that names what was wrong (the CLI prints it and exits with
    status 2; the web answers 4xx with it).
    """


class NotFound(TournamentError):
    """The event, round, table or entrant asked for does not exist (the web answers 404)."""
