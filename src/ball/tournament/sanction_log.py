"""The arbiter's sanction log: every step of the ladder given to an entrant, with its reason.

The ladder itself is data (`ball.sanctions`, sanctions.toml: warning -> loss of turn ->
loss of ball possession -> loss of match). Over an event the log is kept per entrant and the
next step up from the last one given is suggested; the arbiter may choose another step
(sanctions are proportional: a serious violation may start higher). The rows are
`models.SanctionEntry` (table `desk_sanctions`).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.sanctions import LADDER, Ladder, Step
from ball.tournament.errors import TournamentError
from ball.tournament.models import Entrant, SanctionEntry

REASON_MAX = 500


def history(session: Session, event_id: int, entrant_id: int) -> list[SanctionEntry]:
    return list(
        session.scalars(
            select(SanctionEntry)
            .where(SanctionEntry.event_id == event_id, SanctionEntry.entrant_id == entrant_id)
            .order_by(SanctionEntry.at, SanctionEntry.id)
        )
    )


def event_log(session: Session, event_id: int) -> list[SanctionEntry]:
    return list(
        session.scalars(
            select(SanctionEntry)
            .where(SanctionEntry.event_id == event_id)
            .order_by(SanctionEntry.at, SanctionEntry.id)
        )
    )


def suggest(session: Session, event_id: int, entrant_id: int, ladder: Ladder = LADDER) -> Step:
    """The next step up from the entrant's last sanction (the first step when none)."""
    past = history(session, event_id, entrant_id)
    last = past[-1].step if past else None
    if last is not None and last not in ladder.names:
        last = None  # a step the organiser has since removed from the ladder
    return ladder.after(last)


def record(
    session: Session,
    event_id: int,
    entrant_id: int,
    step: str,
    reason: str,
    at: float,
    *,
    round_number: int | None = None,
    table: int | None = None,
    ladder: Ladder = LADDER,
) -> SanctionEntry:
    """Append one sanction; the step must be on the ladder and the reason is required."""
    entrant = session.get(Entrant, entrant_id)
    if entrant is None or entrant.event_id != event_id:
        raise TournamentError(f"entrant {entrant_id} is not in event {event_id}")
    if step not in ladder.names:
        raise TournamentError(f"step: {step!r} is not on the ladder ({', '.join(ladder.names)})")
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError("reason: every sanction needs a reason")
    if len(reason) > REASON_MAX:
        raise TournamentError(f"reason: at most {REASON_MAX} characters")
    entry = SanctionEntry(
        event_id=event_id,
        entrant_id=entrant_id,
        round_number=round_number,
        table=table,
        step=step,
        reason=reason,
        at=at,
    )
    session.add(entry)
    session.flush()
    return entry
