"""The arbiter's log and what goes into it with its checks: notes, sanctions on the game's
ladder, start signals, the end of a table's first half; and reading the log back.
"""

from __future__ import annotations

import time

from sqlalchemy import select

from ball.games import game
from ball.storage.text import FREE_TEXT_MAX, too_long
from ball.tournament import outcomes, sanction_log, signals
from ball.tournament.errors import TournamentError
from ball.tournament.models import LogEntry, Round
from ball.tournament.names import check_name
from ball.tournament.store import EventRef, Store, bounded
from ball.tournament.summaries import HalfEnd, SanctionGiven, SignalGiven
from ball.tournament.table_result import table_row


class ArbiterUseCases:
    """The arbiter's log, sanctions and signals."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def record(
        self,
        kind: str,
        detail: str,
        *,
        name: str | None = None,
        round_number: int | None = None,
        table: int | None = None,
        event: EventRef = None,
    ) -> None:
        """Append to the arbiter's log (`kind`: sanction, signal, note, ...)."""
        if not check_name(kind, "log kind", 40):
            raise TournamentError("a log entry needs a kind")
        if (why := too_long(detail or "", "detail", FREE_TEXT_MAX)) is not None:
            raise TournamentError(why)
        if kind.strip().lower() in ("sanction", "signal"):
            # Free text would skip the ladder and the signal rules (and miss the forms).
            raise TournamentError(f"a {kind.strip()} is given with give_{kind.strip().lower()}")
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            entrant_id = self.store.entrant_named(s, ev, name).id if name else None
            self.store.log(
                s,
                ev,
                kind.strip(),
                detail,
                entrant_id=entrant_id,
                round_number=round_number,
                table=table,
            )

    def give_sanction(
        self,
        step: str,
        reason: str,
        *,
        player: str | None = None,
        entrant_id: int | None = None,
        round_number: int | None = None,
        table: int | None = None,
        at: float | None = None,
        event: EventRef = None,
    ) -> SanctionGiven:
        """Give an entrant (by name or id) a step of the sanction ladder, with its reason:
        the checked entry of the desk's sanction log (`sanction_log.record`: the step on the
        ladder, a reason of at most 500 characters) and its line in the arbiter's log, in
        one transaction."""
        bounded(round_number, "round")
        bounded(table, "table")
        bounded(entrant_id, "entrant")
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            if player is not None:
                entrant_id = self.store.entrant_named(s, ev, player).id
            if entrant_id is None:
                raise TournamentError("sanction: name the entrant sanctioned")
            if table is not None:
                # The forms print the sanction at this table: the entrant must sit there.
                if round_number is None:
                    raise TournamentError("sanction: a table needs its round")
                pairing = table_row(s, ev, round_number, table)
                if entrant_id not in (pairing.a_id, pairing.b_id):
                    raise TournamentError(
                        f"sanction: entrant {entrant_id} does not play at round {round_number} "
                        f"table {table}"
                    )
            entry = sanction_log.record(
                s, ev.id, entrant_id, step, reason, time.time() if at is None else at,
                round_number=round_number, table=table, ladder=game(ev.game).ladder,
            )  # fmt: skip
            self.store.log(
                s, ev, "sanction", f"{entry.step}: {entry.reason}", entrant_id=entrant_id,
                round_number=round_number, table=table,
            )  # fmt: skip
            return SanctionGiven(
                entrant_id=entrant_id,
                step=entry.step,
                reason=entry.reason,
                round=entry.round_number,
                table=entry.table,
                at=entry.at,
            )

    def give_signal(
        self,
        round_number: int | None,
        which: int,
        *,
        at: float | None = None,
        gap: float | None = None,
        event: EventRef = None,
    ) -> SignalGiven:
        """Give start signal `which` (1 or 2) of a round (default: the latest) at `at`
        (default now), refused when too early (`signals.give_signal`: signal 2 only after
        every first half ended plus `gap` seconds, by default the gap the event's game sets);
        logged in the same transaction."""
        bounded(round_number, "round")
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            number = round_number if round_number is not None else self.store.count(s, Round, ev)
            gap = signals.gap_seconds(ev.game) if gap is None else gap
            row = signals.give_signal(
                s, ev.id, number, which, time.time() if at is None else at, gap
            )
            detail = f"signal {which} of round {number}"
            self.store.log(s, ev, "signal", detail, round_number=number)
            return SignalGiven(round=number, signal=row.signal, at=row.at)

    def record_half_end(
        self,
        round_number: int | None,
        table: int,
        *,
        at: float | None = None,
        source: str = "arbiter",
        event: EventRef = None,
    ) -> HalfEnd:
        """Record when a table finished its first half (`signals.record_half_end`)."""
        bounded(round_number, "round")
        bounded(table, "table")
        now = time.time()
        when = now if at is None else at
        if when > now:
            raise TournamentError(f"table {table}: a first half cannot end in the future")
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            number = round_number if round_number is not None else self.store.count(s, Round, ev)
            row = signals.record_half_end(s, ev.id, number, table, when, source)
            return HalfEnd(round=number, table=row.table, at=row.at, source=row.source)

    def log(self, *, event: EventRef = None) -> list[outcomes.LogLine]:
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event, full=False)  # the names: entrants, not rounds
            # A log entry without an entrant (None) gets no name.
            names: dict[int | None, str] = {e.id: e.name for e in ev.entrants}
            rows = s.scalars(
                select(LogEntry).where(LogEntry.event_id == ev.id).order_by(LogEntry.id)
            )
            return [outcomes.log_line(r, names) for r in rows]
