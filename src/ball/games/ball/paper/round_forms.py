"""BALL's forms of one round filled in from the tournament database (`Paper.tables`): the
score sheets of its played tables (`score_sheets`), the round control of the common start
signals, the sanctions the desk logged at each table, the forfeit records, and blank
incident and release-phase forms.

`ball.printing.from_event` calls it with the round's tables and header, and adds the shared
pairing list and standings, and the table links' QR codes; sanctions are desk-only fields
(docs/security.md "Printed forms"): without `desk` their lines stay blank.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ball.games.ball.paper.forms import (
    BallForms,
    ControlRow,
    Forfeit,
    Incident,
    ReleaseLog,
    RoundControl,
    SanctionRow,
    Side,
)
from ball.games.ball.paper.score_sheets import score_sheet, unfinished_half
from ball.printing.forms import Header

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sqlalchemy.orm import Session

    from ball.tournament.outcomes import EventInfo, TableOutcome

# Steps of the default sanction ladder (`ball.sanctions`) -> the score sheet's tick boxes.
_LEVELS = {
    "warning": "warning",
    "loss-of-turn": "turn",
    "loss-of-possession": "possession",
    "loss-of-match": "match",
}


def from_round(
    session: Session,
    info: EventInfo,
    tables: Sequence[TableOutcome],
    header: Header,
    desk: bool = True,
) -> BallForms:
    """BALL's forms of the round `header` names: a score sheet per played table (with the
    sanctions logged at it when the reader is the desk), the round control, the forfeits."""
    number = int(header.round)
    control = _round_control(session, info, number, header)
    # Sanctions are the desk's: a public print leaves the score sheet's lines blank.
    sanctions = _sanctions(session, info.id, number) if desk else {}
    played = [t for t in tables if t.b]
    return BallForms(
        score_sheets=[score_sheet(header, t, sanctions.get(t.table, [])) for t in played],
        round_control=control,
        incident=Incident(header=header),
        forfeits=[_forfeit(header, t) for t in played if _kind(t) == "forfeit"],
        release_log=ReleaseLog(header=header),
    )


def _kind(table: TableOutcome) -> str | None:
    return table.result.kind if table.result else None


def _forfeit(header: Header, table: TableOutcome) -> Forfeit:
    assert table.result is not None and table.b is not None  # a played table, forfeited
    by = table.result.forfeit_by
    forfeiting, opponent = (table.a, table.b) if by == "A" else (table.b, table.a)
    record = Forfeit(header, str(table.table), forfeiting, opponent, result="0-2")
    data = table.result.sheet
    if not data:
        return record  # a forfeit entered without a sheet: no half data was stored
    unfinished = unfinished_half(data)
    played = len([h for h in data.get("halves") or [] if h is not None])
    if unfinished is not None:  # stopped during a half: that half's data is kept
        record.half, record.how, record.kept = unfinished, "abandoned", True
    elif played < 2:  # every half listed was played out: the next one was refused
        record.half, record.how, record.kept = played + 1, "refused", False
    return record


def _clock(at: float | None) -> str:
    return time.strftime("%H:%M", time.localtime(at)) if at is not None else ""


def _round_control(session: Session, info: EventInfo, number: int, header: Header) -> RoundControl:
    from ball.tournament import signals

    gap = signals.gap_seconds(info.game)  # the rest the event's rules set (R-signal)
    state = signals.round_control(session, info.id, number, time.time(), gap)
    return RoundControl(
        header=header,
        signal_1=_clock(state.signal1),
        gap_minutes=int(gap // 60),
        rows=[
            # every table starts its second half on the common signal 2 (spec 15)
            ControlRow(
                str(t.table), _clock(t.first_half_end), second_half_start=_clock(state.signal2)
            )
            for t in state.tables
        ],
    )


def _sanctions(session: Session, event_id: int, number: int) -> dict[int, list[SanctionRow]]:
    """Sanctions given in this round, by table, with the coach as A or B of that table."""
    from ball.tournament import sanction_log
    from ball.tournament.models import Round

    rnd = session.query(Round).filter_by(event_id=event_id, number=number).one_or_none()
    sides: dict[tuple[int, int | None], Side] = {}
    tables: dict[int, int] = {}  # entrant -> their table this round, for entries logged without one
    for p in rnd.pairings if rnd else []:
        sides[(p.table, p.a_id)] = "A"
        sides[(p.table, p.b_id)] = "B"
        tables[p.a_id] = p.table
        if p.b_id is not None:
            tables[p.b_id] = p.table
    by_table: dict[int, list[SanctionRow]] = {}
    for entry in sanction_log.event_log(session, event_id):
        table = entry.table if entry.table is not None else tables.get(entry.entrant_id)
        if entry.round_number != number or table is None:
            continue
        by_table.setdefault(table, []).append(
            SanctionRow(
                coach=sides.get((table, entry.entrant_id)),
                level=_LEVELS.get(entry.step),  # type: ignore[arg-type]
                # a step of an organiser's own ladder keeps its name in the reason column
                reason=entry.reason if entry.step in _LEVELS else f"{entry.step}: {entry.reason}",
                time=_clock(entry.at),
            )
        )
    return by_table
