"""The printed forms of a Mahjong event (issue 18): the seating list of a session (by table
and by name), table cards with the winds, the hand-by-hand score sheet in the MCR layout
(one row per hand: winner, discarder or self-drawn, fan, the four seats' points and the
running totals; penalty rows; signatures), the session result slip and the standings.

View models only, like `ball.games.xiangqi.paper.forms`: the template `forms/mahjong.html.j2`
prints them blank (one copy of each form, empty names, ruled rows) or filled in from one
session of an event (`from_board`, read through `ball.games.mahjong.tournament.views`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ball.games.mahjong.engine.winds import WINDS
from ball.games.mahjong.tournament.views import (
    HandView,
    MahjongBoard,
    RulingView,
    SeatView,
    SessionView,
    StandingView,
    TableView,
    TeamView,
    mahjong_board,
    points_text,
)
from ball.printing.forms import FormSet, Header
from ball.printing.render import TocEntry

HANDS = 16  # MCR: a session of 16 hands (the event may set another number)
PENALTY_ROWS = 4  # ruled rows for rulings written at the table
STANDING_ROWS = 16  # ruled rows of a blank standings form


@dataclass(frozen=True)
class NameRow:
    """The seating list by name: where a player sits this session."""

    name: str
    team: str
    table: int
    wind: str


@dataclass
class MahjongForms:
    """Every form of one session; `session` None prints one blank copy of each."""

    header: Header = field(default_factory=Header)
    hands: int = HANDS
    session: SessionView | None = None
    standings: tuple[StandingView, ...] = ()
    teams: tuple[TeamView, ...] = ()
    sessions_done: int | None = None
    penalty_rows: int = PENALTY_ROWS
    # table -> wind -> its seat's link as a QR code (`session_codes`), printed on
    # the score sheet once the printer knows the server's address (issue 35 §1)
    codes: dict[int, dict[str, str]] = field(default_factory=dict)
    # `GameForms`: seating, table cards, MCR score sheet, result slip, standings
    templates: tuple[str, ...] = ("forms/mahjong.html.j2",)
    # the folder of its own templates, searched after the printing's shared ones
    folder: ClassVar[Path] = Path(__file__).with_name("templates")
    game_name: ClassVar[str] = "mahjong"  # its game in the registry (`ball.games`)
    label: str = "Mahjong"

    def event_name(self) -> str:
        return self.header.event

    def contents(self, t: dict[str, Any], formats: list[TocEntry]) -> list[TocEntry]:
        """Its five forms as appendices A-E (a session has no knockout or team forms)."""
        word, m = t["doc"]["appendix"], t["forms"]["mahjong"]
        keys = ("seating_title", "cards_title", "sheet_title", "slip_title", "standings_title")
        return [
            TocEntry(f"appendix-{letter.lower()}", f"{word} {letter} — {m[key]}", "appendix")
            for letter, key in zip("ABCDE", keys, strict=True)
        ]

    def title(self, t: dict[str, Any]) -> str:
        return str(t["forms"]["mahjong"]["forms_title"])

    def tables(self) -> list[TableView]:
        """The session's tables, or one blank table."""
        if self.session is not None and self.session.tables:
            return list(self.session.tables)
        blank = tuple(SeatView(w, "", "") for w in WINDS)
        return [TableView(session=0, table=0, seats=blank)]

    def by_name(self) -> list[NameRow]:
        rows = [
            NameRow(seat.name, seat.team, t.table, seat.wind)
            for t in (self.session.tables if self.session else ())
            for seat in t.seats
        ]
        return sorted(rows, key=lambda r: (r.name.casefold(), r.name))

    def hand_rows(self, table: TableView) -> list[HandView | None]:
        """One row per hand of the session: the entered hands, then empty rows."""
        rows: list[HandView | None] = list(table.hands[: max(self.hands, len(table.hands))])
        return rows + [None] * (self.hands - len(rows))

    def penalty_lines(self, table: TableView) -> list[RulingView | None]:
        rows: list[RulingView | None] = list(table.rulings)
        return rows + [None] * max(0, self.penalty_rows - len(rows))

    def standing_rows(self) -> list[StandingView | None]:
        if self.standings:
            return list(self.standings)
        return [None] * STANDING_ROWS

    @staticmethod
    def points(exact: str | None) -> str:
        return "" if exact is None else points_text(exact)

    @staticmethod
    def clock(ruling: RulingView) -> str:
        """The ruling's time as the arbiter wrote it (seconds of the day -> HH:MM)."""
        minutes = int(ruling.at // 60)
        return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def blank(event: str = "", hands: int = HANDS) -> MahjongForms:
    return MahjongForms(header=Header(event=event), hands=hands)


def blank_set(event: str = "") -> FormSet:
    """The blank forms `ball pdf forms --game mahjong` prints (`MahjongGame.blank_forms`)."""
    return FormSet(game=blank(event))


def from_board(board: MahjongBoard, session: int) -> MahjongForms:
    """The forms of session `session` of `board`, filled in where sheets are entered."""
    seated = board.session(session)
    header = Header(
        event=board.name, round=str(session), date=board.date_start, referee=board.arbiter
    )
    return MahjongForms(
        header=header,
        hands=board.hands_per_session,
        session=seated,
        standings=board.standings,
        teams=board.teams,
        sessions_done=board.sessions_done,
    )


def from_service(
    service: Any, event: int | str | None, session: int, desk: Any = True, link_base: str = ""
) -> FormSet:
    """The forms of session `session` of a Mahjong event (id, name or None for the latest;
    `TournamentError` when the session is not seated): `from_event`'s way in. `desk` (a
    bool, or a check of the event id) says whether the arbiter's notes on rulings print;
    `link_base` (the server's address as the players' phones reach it), when given, puts
    each seat's link on the score sheet as a QR code."""
    from ball.tournament.errors import TournamentError

    name = service.sessions.session_standings(event=event)["event"]  # event names are unique
    event_id = next(e.id for e in service.desk.event_list() if e.name == name)
    board = mahjong_board(service, event_id)
    if board.session(session) is None:
        raise TournamentError(f"session {session} is not seated")
    forms = from_board(board, session)
    if link_base:
        forms.codes = session_codes(service, event_id, session, link_base)
    if not (desk if isinstance(desk, bool) else desk(event_id)):
        forms = _without_notes(forms)
    return FormSet(game=forms, prefilled=True)


def _without_notes(forms: MahjongForms) -> MahjongForms:
    """The forms as anyone may print them: the rulings as the public pages show them,
    without the arbiter's own words (a waiver's or a penalty's note is the desk's)."""
    from dataclasses import replace

    if forms.session is None:
        return forms
    tables = tuple(
        replace(t, rulings=tuple(replace(r, note="") for r in t.rulings))
        for t in forms.session.tables
    )
    return replace(forms, session=replace(forms.session, tables=tables))


def session_codes(service: Any, event_id: int, number: int, base: str) -> dict[int, dict[str, str]]:
    """Each table of a session -> wind -> its seat's link as a QR code."""
    from ball.printing import table_qr

    return table_qr.codes(service.seat_links.seat_link_tokens(event_id, number), base)
