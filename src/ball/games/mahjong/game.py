"""Mahjong as a `Game`: the event is created by game name like any other, but its
tables seat four and take session sheets (`tournament.sessions`), so the two-player result
path (`decide`, forfeits) refuses with a message that says where to go instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ball.games.errors import IllegalSheet, TournamentError
from ball.games.protocol import Commands, Decided, Figures, GameBase, GameTieBreak, Paper
from ball.i18n import N_

TWO_PLAYER = "a Mahjong table seats four and takes a session sheet ('ball result enter --sheet')"


class MahjongGame(GameBase):
    """Mahjong (MCR, WMC rules): standings by table points, then score
    (`ball.games.mahjong.engine`)."""

    name = "mahjong"
    label = N_("Mahjong")
    seats = 4
    tiebreaks: dict[str, GameTieBreak] = {}
    default_chains: dict[str, list[str]] | None = {"sessions": []}
    paper: Paper | None = Paper(
        round="ball.games.mahjong.paper.forms:from_service",
        blank="ball.games.mahjong.paper.forms:blank_set",
        labels="ball.games.mahjong.printed_labels:LABELS",
    )
    # the WMC clock (turn limit, hand budget, penalty points), shipped as a file
    clock_controls: str | None = "ball.games.mahjong.clocks:CONTROLS"
    templates: Path | None = Path(__file__).with_name("templates")
    static: Path | None = Path(__file__).with_name("static")
    commands: tuple[Commands, ...] = (
        Commands(
            "mahjong",
            "ball.games.mahjong.cli.commands",
            "Mahjong (MCR): hand scoring and seatings.",
        ),
    )
    routers: tuple[str, ...] = (
        "ball.games.mahjong.web.desk",
        "ball.games.mahjong.web.entry",
        "ball.games.mahjong.web.public",
    )
    event_commands: str | None = "ball.games.mahjong.cli.event"
    own_links: str | None = "ball.games.mahjong.web.entry"
    tournament: str | None = "ball.games.mahjong.tournament:compose"
    new_event: str | None = "ball.games.mahjong.web.desk:create_event"
    public_standings: str | None = "ball.games.mahjong.web.public"
    public_views: tuple[str, ...] = ("seating", "tables")

    def decide(self, sheet: dict[str, Any]) -> Decided:
        raise IllegalSheet(TWO_PLAYER)

    def forfeit(self, winner: str) -> dict[str, Figures]:
        raise TournamentError(TWO_PLAYER)

    def double_forfeit(self) -> dict[str, Figures]:
        raise TournamentError(TWO_PLAYER)
