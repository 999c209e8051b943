"""The printed forms of a Xiangqi event (issue 16): per table a score sheet with the
move-record grid of seed 7.5, a foul record (4.1.8, 7.1, 18.1/18.2) and a result slip.

View models only, like `ball.printing.forms`: the same templates (`forms/xiangqi.html.j2`)
print them blank or filled in from one round of an event (`from_round`). Player A of a
table plays Red and moves first (13.1); Red is TRF White.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ball.printing.forms import FormSet, Header
from ball.printing.render import TocEntry

# The grid of seed 7.5: one row per move (Red's move, then Black's), in two panels side by
# side, 40 moves per sheet; a longer game continues on a second sheet.
MOVES_PER_PANEL = 20
PANELS = 2
FOUL_ROWS = 6  # three fouls lose the game (4.1.8): room for both players' three
SANCTION_STEPS = ("warning", "disqualification")  # 18.1, 18.2


@dataclass
class FoulRow:
    move: int | None = None
    player: str = ""  # "red" | "black" | ""
    what: str = ""


@dataclass
class SanctionLine:
    player: str = ""  # "red" | "black"
    step: str = ""  # 18.1 warning | 18.2 disqualification
    reason: str = ""


@dataclass
class XiangqiTable:
    """One table's three forms: players, and the result once the arbiter entered it."""

    header: Header = field(default_factory=Header)
    table: str = ""
    red: str = ""
    black: str = ""
    result: str = ""  # 1-0 | 0-1 | 1/2-1/2 | +/- (forfeit, 21.4)
    reason: str = ""
    article: str = ""
    moves: int | None = None
    fouls: dict[str, int | None] = field(default_factory=lambda: {"red": None, "black": None})
    foul_rows: list[FoulRow] = field(default_factory=list)
    sanctions: list[SanctionLine] = field(default_factory=list)
    qr_a: str = ""  # the table links' QR codes, Red's and Black's (`table_qr`): the slip
    qr_b: str = ""

    def panels(self) -> list[list[int]]:
        """Move numbers of the grid, panel by panel."""
        return [
            list(range(1 + p * MOVES_PER_PANEL, 1 + (p + 1) * MOVES_PER_PANEL))
            for p in range(PANELS)
        ]


@dataclass
class XiangqiForms:
    """Every table of a round (an empty list prints one blank copy of each form)."""

    tables: list[XiangqiTable] = field(default_factory=list)
    foul_rows: int = FOUL_ROWS
    # `GameForms`: the three forms, then the shared standings form
    templates: tuple[str, ...] = ("forms/xiangqi.html.j2", "forms/standings.html.j2")
    # the folder of its own templates, searched after the printing's shared ones
    folder: ClassVar[Path] = Path(__file__).with_name("templates")
    game_name: ClassVar[str] = "xiangqi"  # its game in the registry (`ball.games`)
    label: str = "Xiangqi"

    def event_name(self) -> str:
        return next((x.header.event for x in self.tables), "")

    def contents(self, t: dict[str, Any], formats: list[TocEntry]) -> list[TocEntry]:
        """Its three forms and the standings as appendices A-D, then a knockout's or a team
        round's forms."""
        word, x = t["doc"]["appendix"], t["forms"]["xiangqi"]
        titles = (x["sheet_title"], x["fouls_title"], x["slip_title"],
                  t["forms"]["standings"]["title"])  # fmt: skip
        return [
            TocEntry(f"appendix-{letter.lower()}", f"{word} {letter} — {title}", "appendix")
            for letter, title in zip("ABCD", titles, strict=True)
        ] + formats

    def title(self, t: dict[str, Any]) -> str:
        return str(t["forms"]["xiangqi"]["forms_title"])


def blank(event: str = "") -> XiangqiForms:
    return XiangqiForms([XiangqiTable(header=Header(event=event))])


def blank_set(event: str = "") -> FormSet:
    """The blank forms `ball pdf forms --game xiangqi` prints (`XiangqiGame.blank_forms`)."""
    return FormSet(game=blank(event))


def _result_text(result: dict[str, Any] | None) -> tuple[str, str, str, dict[str, Any]]:
    """(result, reason, article, the stored document) of a table's stored result."""
    if not result:
        return "", "", "", {}
    doc = result.get("sheet") or {}
    if result["kind"] == "double-forfeit":
        return "- / -", "forfeit", "21.3", doc
    if result["kind"] == "forfeit":
        text = "- / +" if result["forfeit_by"] == "A" else "+ / -"
        return text, "forfeit", "21.4", doc
    from ball.games.xiangqi.game import REASONS

    reason = str(doc.get("reason", ""))
    known = REASONS.get(reason)
    article = doc.get("article") or (known.article if known else "")
    return str(doc.get("result", "")).replace("1/2", "½"), reason, str(article), doc


def table_forms(
    header: Header, table: Mapping[str, Any], sanctions: list[SanctionLine]
) -> XiangqiTable:
    """The forms of one table (`TournamentService.pairings` row) with its stored result."""
    result, reason, article, doc = _result_text(table.get("result"))
    red, black = table["a"], table["b"]
    fouls = doc.get("fouls") or {}
    return XiangqiTable(
        header=header,
        table=str(table["table"]),
        red=red,
        black=black,
        result=result,
        reason=reason,
        article=article,
        moves=doc.get("moves"),
        fouls={
            "red": fouls.get(red, 0) if doc else None,
            "black": fouls.get(black, 0) if doc else None,
        },
        sanctions=sanctions,
    )


def from_round(
    session: Any,
    info: Mapping[str, Any],
    tables: Sequence[Mapping[str, Any]],
    header: Header,
    desk: bool = True,
) -> XiangqiForms:
    """The Xiangqi forms of one round: one set per table that plays, with the 18.1/18.2
    sanctions the desk logged at that table (or, without a table, for that round); without
    `desk` (a reader who is not the event's desk) those lines stay blank: they are the
    desk's."""
    from ball.tournament import sanction_log

    seat: dict[str, tuple[int, str]] = {}
    for t in tables:
        if t.get("b"):
            seat[t["a"]] = (t["table"], "red")
            seat[t["b"]] = (t["table"], "black")
    from ball.tournament.models import Entrant

    by_table: dict[int, list[SanctionLine]] = {}
    for entry in sanction_log.event_log(session, info["id"]) if desk else []:
        entrant = session.get(Entrant, entry.entrant_id)
        where = seat.get(entrant.name) if entrant is not None else None
        if entry.round_number != int(header.round) or where is None:
            continue
        if entry.table is not None and entry.table != where[0]:
            continue
        by_table.setdefault(where[0], []).append(SanctionLine(where[1], entry.step, entry.reason))
    return XiangqiForms(
        [table_forms(header, t, by_table.get(t["table"], [])) for t in tables if t.get("b")]
    )
