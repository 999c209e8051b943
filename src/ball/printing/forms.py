"""View models of the printed forms (the regulation's appendices).

Every form is plain data: the same template prints it blank (the defaults below: empty
fields and ruled rows) or filled in from an event (see `ball.printing.from_event`). Values that
are `None` or empty print as an empty box for the arbiter to write in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from ball.printing.event_formats import FormatForms
    from ball.printing.render import TocEntry

Side = Literal["A", "B"]
# Order of the forms in the printed edition; the letters are the appendix letters.
APPENDICES: tuple[tuple[str, str], ...] = (
    ("A", "score_sheet"),
    ("B", "pairings"),
    ("C", "round_control"),
    ("D", "standings"),
    ("E", "incident"),
    ("F", "release_log"),
)


@dataclass
class Header:
    """What every form repeats at its top."""

    event: str = ""
    round: str = ""
    date: str = ""
    referee: str = ""


@dataclass
class StealRow:
    turn: int | None = None
    stealer: Side | None = None
    choice: Literal["continue", "reset"] | None = None

    @property
    def pb(self) -> int | None:
        """PB the steal adds on the sheet: 1 with continue, 2 with reset (spec D-17)."""
        return None if self.choice is None else (1 if self.choice == "continue" else 2)


@dataclass
class SanctionRow:
    half: int | None = None
    turn: int | None = None
    coach: Side | None = None
    level: Literal["warning", "turn", "possession", "match"] | None = None
    reason: str = ""
    time: str = ""  # "HH:MM" when the desk logged it


@dataclass
class HalfSheet:
    """One half of the score sheet. `atk` is the coach who starts the half as ATK."""

    number: int
    atk: Side
    pb: dict[Side, dict[str, int]] | None = None  # {"A": {"atk": n, "def": n}, "B": {...}}
    steals: list[StealRow] = field(default_factory=list)
    touchdown: Side | Literal["none"] | None = None
    td_pbatk: int | None = None
    timer_expired: str = ""
    extra_turn: Literal["given", "not_needed"] | None = None
    ended_at: str = ""
    research_only: bool = False  # the unfinished half of a forfeit (R-forfeit)

    @property
    def defender(self) -> Side:
        return "B" if self.atk == "A" else "A"

    @property
    def dual_entry_ok(self) -> dict[str, bool]:
        """The two cross-checks of the tally, ticked when the recorded counters agree."""
        if not self.pb:
            return {"a_atk": False, "b_atk": False}
        a, b = self.pb["A"], self.pb["B"]
        return {"a_atk": a["atk"] == b["def"], "b_atk": b["atk"] == a["def"]}

    def tally_lines(self, boxes: int) -> int:
        """Strip lines of `boxes` PB each: enough for the largest counter of the half."""
        largest = max((v for c in (self.pb or {}).values() for v in c.values()), default=0)
        return max(1, -(-largest // boxes))


@dataclass
class MatchResult:
    td: dict[Side, int] | None = None
    sd: dict[Side, int] | None = None
    # "efficiency_sd": a 1-1 with equal PBATK decided by SD (D-18), not a 0-0
    criterion: Literal["td", "efficiency", "efficiency_sd", "defence", "draw", "forfeit"] | None = (
        None
    )
    winner: Side | Literal["draw"] | None = None


@dataclass
class ScoreSheet:
    """Appendix A. Coach A is ATK in the first half, coach B in the second."""

    header: Header = field(default_factory=Header)
    table: str = ""
    coach_a: str = ""
    coach_b: str = ""
    halves: list[HalfSheet] = field(default_factory=lambda: [HalfSheet(1, "A"), HalfSheet(2, "B")])
    sanctions: list[SanctionRow] = field(default_factory=list)
    result: MatchResult = field(default_factory=MatchResult)
    # The table links' QR codes of side A and B (data URIs, `ball.printing.table_qr`);
    # empty on blank forms and when the printer knows no address for them.
    qr_a: str = ""
    qr_b: str = ""


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
class ControlRow:
    table: str = ""
    first_half_end: str = ""  # "HH:MM" — end of the first half, Final Drive included
    final_drive: bool | None = None
    second_half_start: str = ""
    match_end: str = ""


@dataclass
class RoundControl:
    """Appendix C: the common start signals of one round."""

    header: Header = field(default_factory=Header)
    signal_1: str = ""
    gap_minutes: int = 10
    rows: list[ControlRow] = field(default_factory=list)

    @property
    def last_first_half_end(self) -> str:
        """Latest recorded first-half end, only once every listed table has one."""
        ends = [r.first_half_end for r in self.rows if r.table]
        if not ends or not all(ends):
            return ""
        return max(ends, key=_minutes)

    @property
    def earliest_signal_2(self) -> str:
        last = self.last_first_half_end
        if not last:
            return ""
        at = datetime.strptime(last, "%H:%M") + timedelta(minutes=self.gap_minutes)
        return at.strftime("%H:%M")


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


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
class Incident:
    """Appendix E (first form): one incident or sanction."""

    header: Header = field(default_factory=Header)
    table: str = ""
    involved: str = ""
    half: int | None = None
    turn: int | None = None
    time: str = ""
    level: str = ""


@dataclass
class Forfeit:
    """Appendix E (second form): a refused or abandoned half."""

    header: Header = field(default_factory=Header)
    table: str = ""
    forfeiting: str = ""
    opponent: str = ""
    half: int | None = None
    how: Literal["refused", "abandoned"] | None = None
    result: str = ""
    kept: bool | None = None  # data of an unfinished half kept for research


@dataclass
class ReleaseRow:
    table: str = ""
    half: int | None = None
    turn: int | None = None
    coach: str = ""
    start: str = ""


@dataclass
class ReleaseLog:
    """Appendix F: every use of the release-phase time protocol."""

    header: Header = field(default_factory=Header)
    rows: list[ReleaseRow] = field(default_factory=list)


@dataclass
class FormSet:
    """Everything the appendices print, in appendix order. Lists may hold several copies
    (one score sheet per table); an empty list prints one blank copy."""

    score_sheets: list[ScoreSheet] = field(default_factory=list)
    pairings: Pairings = field(default_factory=Pairings)
    round_control: RoundControl = field(default_factory=RoundControl)
    standings: Standings = field(default_factory=Standings)
    incident: Incident = field(default_factory=Incident)
    forfeits: list[Forfeit] = field(default_factory=list)
    release_log: ReleaseLog = field(default_factory=ReleaseLog)
    prefilled: bool = False
    # A knockout's draw sheet and bracket, or a team round's match cards (issue 17).
    formats: FormatForms | None = None
    # A game's own forms (its `paper/`: Xiangqi's score sheet, foul record and result slip;
    # Mahjong's session forms) print instead of BALL's match forms.
    game: GameForms | None = None


class GameForms(Protocol):
    """A game's own forms of a round, printed instead of BALL's match forms: the edition's
    templates that print them (in order), the event they head, and the contents and title
    they give the edition in the printed texts `t` of its language (`formats`: the entries
    of a knockout's or a team round's forms, which the game keeps or leaves out)."""

    templates: tuple[str, ...]
    label: str  # the game's name in the refusal to print BALL's regulation with them

    @property
    def folder(self) -> Path:
        """Where the game's own templates are (searched after the printing's)."""
        ...

    def event_name(self) -> str: ...

    def contents(self, t: dict[str, Any], formats: list[TocEntry]) -> list[TocEntry]: ...

    def title(self, t: dict[str, Any]) -> str: ...


def blank_forms(event: str = "") -> FormSet:
    """The blank appendices of the regulation (optionally with the event name printed)."""
    header = Header(event=event)
    return FormSet(
        score_sheets=[ScoreSheet(header=header)],
        pairings=Pairings(header=header),
        round_control=RoundControl(header=header),
        standings=Standings(header=header),
        incident=Incident(header=header),
        forfeits=[Forfeit(header=header)],
        release_log=ReleaseLog(header=header),
    )
