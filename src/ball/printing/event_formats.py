"""The printed forms of issue 17's formats, filled in from one round of an event: the draw
sheet of a knockout round drawn by lots (who drew which card, and the seed when the desk
drew it; seed 004 §9), the bracket so far (rounds as columns, each tie's score, the bye
holder), and one team match card per team match (board, players, colours by board as
13.2/13.3 give them, a result box per board and the match's game and match points, 14.2).

View models only, like `ball.printing.forms`; `from_service` reads them through
`TournamentService` (`bracket`, `teams_page`), so the printed and the shown bracket are one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ball.games import game
from ball.printing.forms import Header

if TYPE_CHECKING:
    from ball.tournament.format_pages import Bracket, TeamsPage
    from ball.tournament.service import TournamentService



@dataclass
class DrawSheet:
    header: Header = field(default_factory=Header)
    seed: int | None = None  # None: the cards were drawn at the venue
    cards: list[tuple[str, str]] = field(default_factory=list)  # (card, name), card order
    bye: str | None = None


@dataclass
class BracketTie:
    a: str
    b: str
    score: str  # "2-1", "1½-1½ (1-1) lots", "" while open
    winner: str | None


@dataclass
class BracketColumn:
    round: int
    ties: list[BracketTie] = field(default_factory=list)
    bye: str | None = None


@dataclass
class TeamBoard:
    board: int
    first_player: str = ""
    second_player: str = ""
    first_has_first_colour: bool = True
    result: str = ""


@dataclass
class TeamCard:
    header: Header = field(default_factory=Header)
    match: int | None = None
    first: str = ""
    second: str = ""
    boards: list[TeamBoard] = field(default_factory=list)
    game_points: tuple[float, float] | None = None
    match_points: tuple[int, int] | None = None

    @property
    def game_points_text(self) -> str:
        """The game points as written on paper ("2½ – 1½"), empty while boards are open."""
        if self.game_points is None:
            return ""
        return f"{_points(self.game_points[0])} – {_points(self.game_points[1])}"


@dataclass
class FormatForms:
    """What a knockout or a team event prints beside the round's usual forms."""

    draw_sheet: DrawSheet | None = None
    bracket: list[BracketColumn] = field(default_factory=list)
    champion: str | None = None
    team_cards: list[TeamCard] = field(default_factory=list)
    # The sides' keys in the printed texts' `forms` table (`Game.paper_sides`: Xiangqi's Red
    # and Black), or None for the first and second colour.
    sides: tuple[tuple[str, str], tuple[str, str]] | None = None


def _points(x: float) -> str:
    whole = int(x)
    return (str(whole) if whole else "") + "½" if x - whole == 0.5 else str(whole)


def _columns(bracket: Bracket) -> list[BracketColumn]:
    out = []
    for r in bracket.rounds:
        ties = []
        for t in r.ties:
            score = ""
            if t.games or t.decided:
                score = f"{_points(t.points[0])}-{_points(t.points[1])}"
                if any(g.extra for g in t.games):
                    score += f" ({_points(t.extra_points[0])}-{_points(t.extra_points[1])})"
            ties.append(BracketTie(t.a, t.b or "", score, t.winner))
        out.append(BracketColumn(r.number, ties, r.bye))
    return out


def knockout_forms(bracket: Bracket, number: int, header: Header) -> FormatForms:
    rnd = next((r for r in bracket.rounds if r.number == number), None)
    sheet = None
    if rnd is not None and rnd.draw is not None:
        cards = [(card, name) for name, card in rnd.draw.cards]
        sheet = DrawSheet(header, rnd.draw.seed, cards, rnd.draw.bye)
    return FormatForms(
        draw_sheet=sheet,
        bracket=_columns(bracket),
        champion=bracket.champion,
        sides=game(bracket.event.game).paper_sides,
    )


def team_forms(page: TeamsPage, number: int, header: Header) -> FormatForms:
    cards = [
        TeamCard(
            header,
            c.match,
            c.first,
            c.second or "",
            [
                TeamBoard(
                    b.board, b.first_player, b.second_player, b.first_has_first_colour, b.result
                )
                for b in c.boards
            ],  # fmt: skip
            c.game_points,
            c.match_points,
        )
        for c in page.cards
        if c.round == number and c.second is not None
    ]
    return FormatForms(team_cards=cards, sides=game(page.event.game).paper_sides)


def from_service(
    service: TournamentService, event_id: int, number: int, header: Header
) -> FormatForms | None:
    """The round's format forms, or None for an event of single games paired otherwise."""
    formats = service.formats.event_formats(event_id)
    if formats.knockout:
        return knockout_forms(service.formats.bracket(event_id), number, header)
    if formats.team_boards:
        return team_forms(service.formats.teams_page(event_id), number, header)
    return None


