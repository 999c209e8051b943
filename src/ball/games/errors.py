"""The errors a game's result rules raise for bad input: `TournamentError` and
`IllegalSheet`. They live below the tournament, beside the `Game` protocol, because a game
decides its result documents without knowing the tournament; `ball.tournament.errors`
re-exports them with the tournament's own kinds."""

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
