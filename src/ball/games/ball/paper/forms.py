"""BALL's printed forms (the regulation's appendices A-F): the view models of its score
sheet (A), round control (C), incident and forfeit records (E) and release-phase log (F),
and `BallForms`, the `GameForms` through which a BALL round prints them beside the shared
pairing list (B) and standings (D).

Plain data, like `ball.printing.forms`: the same templates (`templates/forms/`) print them
blank (`blank_set`, the regulation's appendices) or filled in from one round of an event
(`ball.games.ball.paper.round_forms`). Values that are `None` or empty print as an empty box
for the arbiter to write in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar, Literal

from ball.printing.forms import FormSet, Header, Pairings, Standings
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
# Forms printed under another form's appendix letter: (letter, anchor, labels key, title key)
SECOND_FORMS = (
    ("B", "appendix-b-cards", "pairings", "cards_title"),
    ("E", "appendix-e-forfeit", "forfeit", "title"),
)


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
class BallForms:
    """BALL's own forms of a round, in appendix order with the shared pairing list and
    standings (`GameForms`). Lists may hold several copies (one score sheet per played
    table); an empty list prints one blank copy."""

    score_sheets: list[ScoreSheet] = field(default_factory=list)
    round_control: RoundControl = field(default_factory=RoundControl)
    incident: Incident = field(default_factory=Incident)
    forfeits: list[Forfeit] = field(default_factory=list)
    release_log: ReleaseLog = field(default_factory=ReleaseLog)
    # `GameForms`: appendices A-F, its own templates and the shared B and D
    templates: tuple[str, ...] = tuple(f"forms/{key}.html.j2" for _, key in APPENDICES)
    # the folder of its own templates, searched after the printing's shared ones
    folder: ClassVar[Path] = Path(__file__).with_name("templates")
    label: str = "BALL"
    game_name: ClassVar[str] = "ball"  # its game in the registry (`ball.games`)

    @property
    def tables(self) -> list[ScoreSheet]:
        """The forms that carry a table's links as QR codes (`ball.printing.table_qr`)."""
        return self.score_sheets

    def sheets(self, event: str) -> list[ScoreSheet]:
        """The score sheets to print: one blank sheet (naming the edition's event) if none."""
        return self.score_sheets or [ScoreSheet(header=Header(event=event))]

    def forfeit_forms(self, event: str) -> list[Forfeit]:
        """The forfeit records to print: one blank record (naming the event) if none."""
        return self.forfeits or [Forfeit(header=Header(event=event))]

    def event_name(self) -> str:
        return next((s.header.event for s in self.score_sheets if s.header.event), "")

    def contents(self, t: dict[str, Any], formats: list[TocEntry]) -> list[TocEntry]:
        """One line per appendix letter, then its second form (if any) indented under it, so
        every form is listed and no letter twice; then a knockout's or a team round's forms."""
        word = t["doc"]["appendix"]
        entries = []
        for letter, key in APPENDICES:
            title = t["forms"][key]["title"]
            anchor = f"appendix-{letter.lower()}"
            entries.append(TocEntry(anchor, f"{word} {letter} — {title}", "appendix"))
            for of, sub_anchor, labels_key, title_key in SECOND_FORMS:
                if of == letter:
                    text = t["forms"][labels_key][title_key]
                    entries.append(TocEntry(sub_anchor, text, "appendix-form"))
        return entries + formats

    def title(self, t: dict[str, Any]) -> str:
        return str(t["doc"]["forms_title"])


def blank(event: str = "") -> BallForms:
    """BALL's blank forms (optionally with the event name printed)."""
    header = Header(event=event)
    return BallForms(
        score_sheets=[ScoreSheet(header=header)],
        round_control=RoundControl(header=header),
        incident=Incident(header=header),
        forfeits=[Forfeit(header=header)],
        release_log=ReleaseLog(header=header),
    )


def blank_set(event: str = "") -> FormSet:
    """The blank appendices of the regulation (`Paper.blank`: `ball pdf forms`, and the
    regulation's own appendices)."""
    header = Header(event=event)
    return FormSet(
        pairings=Pairings(header=header), standings=Standings(header=header), game=blank(event)
    )
