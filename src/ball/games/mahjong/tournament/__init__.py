"""Mahjong's own tournament use cases (tables of four seated by sessions): the sessions
(`sessions`: seating, sheets, table points, standings), the desk's pages of a session
(`desk`), the seats' links (`seat_links`) and the views they share (`views`).

`compose(store)` builds them on the tournament's store (`MahjongGame.tournament`); the
shared `TournamentService` holds them by their names (`svc.sessions`, `svc.mahjong_desk`,
`svc.seat_links`) beside its own use cases, without naming the game.
"""

from __future__ import annotations

from typing import Any

from ball.games.mahjong.tournament.desk import MahjongDeskUseCases
from ball.games.mahjong.tournament.seat_links import MahjongLinkUseCases
from ball.games.mahjong.tournament.sessions import SessionUseCases
from ball.tournament.store import Store


class MahjongTournament:
    """The Mahjong use cases of one store, each given the others it needs."""

    def __init__(self, store: Store) -> None:
        self.sessions = SessionUseCases(store)
        self.mahjong_desk = MahjongDeskUseCases(store, self.sessions)
        self.seat_links = MahjongLinkUseCases(store, self.sessions, self.mahjong_desk)

    def use_cases(self) -> dict[str, Any]:
        """The use cases by the names the service holds them under."""
        return {
            "sessions": self.sessions,
            "mahjong_desk": self.mahjong_desk,
            "seat_links": self.seat_links,
        }

    def standings(self, event: Any = None) -> dict[str, Any]:
        """The event's standings in the game's own way (table points, M-04)."""
        return self.sessions.session_standings(event=event)


def compose(store: Store) -> MahjongTournament:
    return MahjongTournament(store)
