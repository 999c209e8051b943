"""View models of the forms every game's round prints (the pairing list and its table
cards, the standings with their crosstable), the `FormSet` of a round's edition, and the
`GameForms` protocol through which a game prints its own forms beside them (BALL's score
sheets and desk forms, Xiangqi's, Mahjong's: each in its `paper/` folder).

Every form is plain data: the same template prints it blank (the defaults below: empty
fields and ruled rows) or filled in from an event (see `ball.printing.from_event`). Values that
are `None` or empty print as an empty box for the arbiter to write in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ball.games import GAMES, Paper, load

if TYPE_CHECKING:
    from ball.printing.event_formats import FormatForms
    from ball.printing.render import TocEntry


@dataclass
class Header:
    """What every form repeats at its top."""

    event: str = ""
    round: str = ""
    date: str = ""
    referee: str = ""


@dataclass
class PairingRow:
    table: str = ""
    coach_a: str = ""
    coach_b: str = ""
    result: str = ""
    bye: str = ""  # kind of bye (pab, half, zero, full) when there is no coach B
    qr_a: str = ""  # the table links' QR codes (the table card prints them)
    qr_b: str = ""


@dataclass
class Pairings:
    """Appendix B: the list, and one card per table (blank: two cards to fill in)."""

    header: Header = field(default_factory=Header)
    rows: list[PairingRow] = field(default_factory=list)
    # What proved the pairing (`pairing_check.reference`: swiss, berger, draw); "" when
    # it was not checked or the check did not pass: then the form says nothing.
    checked: str = ""


@dataclass
class StandingRow:
    rank: str = ""
    name: str = ""
    played: int | None = None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    points: str = ""
    tiebreaks: list[str] = field(default_factory=list)


@dataclass
class Standings:
    """Appendix D: ranking with its tie-break columns, and the crosstable."""

    header: Header = field(default_factory=Header)
    after_round: str = ""
    tiebreaks: list[str] = field(default_factory=list)  # keys of labels forms.standings.tiebreak
    rows: list[StandingRow] = field(default_factory=list)
    # crosstable[i][j]: what entrant i (in `rows` order) scored against j, "" when not played
    crosstable: list[list[str]] = field(default_factory=list)


@dataclass
class FormSet:
    """Everything a round's edition prints: the shared forms, a game's own (`game`, which
    prints the shared ones it keeps among its own), a knockout's or a team round's forms.
    Without a game's own forms the edition prints the shared pairing list and standings."""

    pairings: Pairings = field(default_factory=Pairings)
    standings: Standings = field(default_factory=Standings)
    prefilled: bool = False
    # A knockout's draw sheet and bracket, or a team round's match cards (issue 17).
    formats: FormatForms | None = None
    # A game's own forms (its `paper/`: BALL's appendices A-F, Xiangqi's score sheet, foul
    # record and result slip; Mahjong's session forms).
    game: GameForms | None = None


class GameForms(Protocol):
    """A game's own forms of a round: the edition's templates that print them (in order,
    with the shared pairing list and standings where the game keeps them), the event they
    head, and the contents and title they give the edition in the printed texts `t` of its
    language (`formats`: the entries of a knockout's or a team round's forms, which the game
    keeps or leaves out)."""

    templates: tuple[str, ...]
    label: str  # the game's name in the refusal to print the regulation with them

    @property
    def folder(self) -> Path:
        """Where the game's own templates are (searched after the printing's)."""
        ...

    @property
    def game_name(self) -> str:
        """The game's name in the registry (`ball.games`): its `Paper` says whether it
        prints the regulation, and how its round's PDF is made."""
        ...

    def event_name(self) -> str: ...

    def contents(self, t: dict[str, Any], formats: list[TocEntry]) -> list[TocEntry]: ...

    def title(self, t: dict[str, Any]) -> str: ...


def regulation_paper() -> Paper | None:
    """The `Paper` of the game the printed regulation is of: the registry's game whose
    `Paper.regulation` names one (BALL's); None without one."""
    for entry in GAMES.values():
        if entry.paper is not None and entry.paper.regulation is not None:
            return entry.paper
    return None


def blank_forms(event: str = "") -> FormSet:
    """The regulation's appendices blank (optionally with the event name printed): the
    blank forms (`Paper.blank`) of the regulation's game; the shared forms without one."""
    paper = regulation_paper()
    if paper is None or paper.blank is None:
        header = Header(event=event)
        return FormSet(pairings=Pairings(header=header), standings=Standings(header=header))
    forms: FormSet = load(paper.blank)(event)
    return forms
