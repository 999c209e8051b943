"""Tournaments: events, entrants, pairing systems, results, standings with tie-breaks.

`ball.tournament.service.TournamentService` is the API; games plug in through
`ball.tournament.games`.
"""

from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService

__all__ = ["TournamentError", "TournamentService"]
