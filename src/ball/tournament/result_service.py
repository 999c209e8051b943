"""The results of two-player tables: entered, corrected, recorded with the steals and
sanctions of a sheet (the desk's form, `ball result enter|correct`, a table's players by
link), and the corrections kept.

Every result goes one way into the database, `ResultUseCases.write_table_result`: the entry
is checked whole (the game decides the sheet, lateness may turn it into a forfeit, steals
and sanctions on the ladder), the table's version row is locked and bumped, a correction
keeps the result it replaced and its reason, sanctions are logged, and the players' entry
by link is settled. `enter_result` and `correct_result` are that path with their own
refusals (a second result, a correction of nothing).
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ball.games import game
from ball.tournament import outcomes, sanction_log, table_links, table_result
from ball.tournament.errors import TournamentError
from ball.tournament.knockout_draws import refuse_whole_result
from ball.tournament.lateness_service import LatenessUseCases
from ball.tournament.models import Event, Result, ResultCorrection
from ball.tournament.store import EventRef, Store
from ball.tournament.table_result import make_result, table_row


class ResultUseCases:
    """Results of two-player tables, one write path."""

    def __init__(self, store: Store, lateness: LatenessUseCases) -> None:
        self.store = store
        self.lateness = lateness

    def enter_result(
        self,
        round_number: int,
        table: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        event: EventRef = None,
    ) -> outcomes.TableOutcome:
        """Enter the result of one table: a score sheet (coach A first, decided by the
        game), a forfeit by coach "A" or "B" (0-2), or a double forfeit. A second result for
        the same table is refused (use `correct_result`)."""
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            if table_row(s, ev, round_number, table).result is not None:
                refuse_whole_result(ev, round_number, table)  # a mini-match says so first
                raise _second_result(round_number, table)
            recorded = self.write_table_result(
                s, ev, round_number, table, sheet=sheet, forfeit=forfeit,
                double_forfeit=double_forfeit, now=time.time(), fresh=True,
            )  # fmt: skip
            return recorded.table

    def correct_result(
        self,
        round_number: int,
        table: int,
        *,
        reason: str,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        event: EventRef = None,
    ) -> outcomes.TableOutcome:
        """Replace an entered result; the old one and the reason are kept in the log."""
        if not (reason or "").strip():
            raise TournamentError("a correction needs a reason")
        reason = table_result.check_correction_reason(reason)
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            if table_row(s, ev, round_number, table).result is None:
                refuse_whole_result(ev, round_number, table)  # a mini-match says so first
                raise TournamentError(
                    f"round {round_number} table {table} has no result to correct"
                )
            recorded = self.write_table_result(
                s, ev, round_number, table, sheet=sheet, forfeit=forfeit,
                double_forfeit=double_forfeit, reason=reason.strip(), must_exist=True,
                now=time.time(),
            )  # fmt: skip
            return recorded.table

    def record_table_result(
        self,
        round_number: int,
        table: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        steals: list[dict[str, Any]] | None = None,
        sanctions: list[dict[str, Any]] = (),  # type: ignore[assignment]
        reason: str = "",
        expected_version: int | None = None,
        must_exist: bool = False,
        at: float | None = None,
        event: EventRef = None,
        late: dict[str, int | None] | None = None,
    ) -> table_result.RecordedResult:
        """Record a table's result with the steals and sanctions of its sheet, all in one
        transaction (the desk's result form and `ball result enter|correct`).

        Everything is checked before anything is written: the result (decided by the
        game), the steals (`{"half", "side", "choice"}`; None keeps the stored ones), the
        sanctions (`{"side", "step", "reason"}`, on the ladder, reason at most 500
        characters, loss of match only with its forfeit) and the correction's reason.
        The very submission already stored (a retry after a crash) returns the stored
        result and writes nothing. A different result over a stored one is a correction:
        it needs `reason` (`CorrectionWithoutReason`) and is kept with it. With
        `expected_version`, a table saved since that version is a `VersionConflict`.
        `must_exist` refuses a table without a result (a correction of nothing).
        `late` (side -> minutes late, None: never came) applies articles 21-22: past the
        event's default time the side loses by forfeit (`lateness_service`)."""
        reason = table_result.check_correction_reason(reason)
        now = time.time() if at is None else at
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            return self.write_table_result(
                s, ev, round_number, table, sheet=sheet, forfeit=forfeit,
                double_forfeit=double_forfeit, steals=steals, sanctions=sanctions,
                reason=reason, expected_version=expected_version, must_exist=must_exist,
                now=now, late=late,
            )  # fmt: skip

    def write_table_result(
        self,
        s: Session,
        ev: Event,
        round_number: int,
        table: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        steals: list[dict[str, Any]] | None = None,
        sanctions: list[dict[str, Any]] = (),  # type: ignore[assignment]
        reason: str = "",
        expected_version: int | None = None,
        must_exist: bool = False,
        fresh: bool = False,
        now: float,
        late: dict[str, int | None] | None = None,
        entered_by: str = "desk",
    ) -> table_result.RecordedResult:
        """`record_table_result` inside the caller's transaction `s` (the players' entry
        accepted by itself is written in the transaction that confirms it). `entered_by`
        names who entered the result when the table's players had entered one too
        (`table_links.settle`: the log says who entered what). `fresh` refuses a table that
        has a result, checked under the table's lock (`enter_result`)."""
        pairing = table_row(s, ev, round_number, table)
        refuse_whole_result(ev, round_number, table)
        # `_table_row` refuses a bye, so the table has its coach B.
        assert pairing.b is not None and pairing.b_id is not None
        names = {"A": pairing.a.name, "B": pairing.b.name}
        entered, ruling = self.lateness.late_ruling(
            s, ev, late, {"sheet": sheet, "forfeit": forfeit, "double_forfeit": double_forfeit}
        )
        new = make_result(ev, pairing, **entered)
        kind = table_result.result_kind(new)
        stolen = None if steals is None else table_result.check_steals(steals, names)
        given = table_result.check_sanctions(sanctions, kind, names, game(ev.game).ladder)
        state = table_result.lock_state(s, pairing.id)  # from here on: serialised
        if fresh and table_result.stored_result(s, pairing.id) is not None:
            # `enter_result` refuses a table with a result, even this very one: of writers
            # racing to enter a table, one wins and the others are told it has a result.
            raise _second_result(round_number, table)
        if table_result.already_stored(s, pairing, round_number, state, new, stolen, given):
            s.refresh(pairing)
            return table_result.RecordedResult(
                table=outcomes.table_outcome(pairing),
                version=state.version,
                steals=json.loads(state.steals or "[]"),
                written=False,
            )
        if expected_version is not None and state.version != expected_version:
            raise table_result.VersionConflict(
                f"round {round_number} table {table} was saved by someone else "
                f"(version {state.version}, the form has {expected_version})"
            )
        old = table_result.stored_result(s, pairing.id)
        if old is None and must_exist:
            raise TournamentError(f"round {round_number} table {table} has no result to correct")
        if old is not None and not reason:
            raise table_result.CorrectionWithoutReason(
                f"round {round_number} table {table} already has a result "
                "(correct it instead, with a reason)"
            )
        if old is None:
            new.pairing_id = pairing.id
            s.add(new)
        else:
            self._replace_result(s, ev, round_number, table, old, new, reason)
        state.version += 1
        state.updated_at = now
        if late and ruling is not None:
            self.lateness.store_lateness(s, ev, pairing, round_number, late, ruling)
        if stolen is not None:
            state.steals = json.dumps(stolen)
        ids = {"A": pairing.a_id, "B": pairing.b_id}
        for g in given:
            sanction_log.record(
                s, ev.id, ids[g["side"]], g["step"], g["reason"], now,
                round_number=round_number, table=table, ladder=game(ev.game).ladder,
            )  # fmt: skip
            self.store.log(
                s, ev, "sanction", f"{g['step']}: {g['reason']}", entrant_id=ids[g["side"]],
                round_number=round_number, table=table,
            )  # fmt: skip
        table_links.settle(s, ev, pairing, entered_by, now)
        s.flush()
        s.refresh(pairing)
        return table_result.RecordedResult(
            table=outcomes.table_outcome(pairing),
            version=state.version,
            steals=json.loads(state.steals or "[]"),
            sanctions=given,
            correction=old is not None,
        )

    @staticmethod
    def _replace_result(
        s: Session, ev: Event, round_number: int, table: int, old: Result, new: Result, why: str
    ) -> None:
        """Overwrite a stored result with a new one, keeping both and the reason."""
        before = outcomes.result_summary(old).as_dict()
        for attr in ("kind", "forfeit_by", "sheet", "decision", "outcome", "entered_at"):
            value = getattr(new, attr)
            setattr(old, attr, "" if value is None and attr in ("sheet", "decision") else value)
        s.add(
            ResultCorrection(
                event_id=ev.id,
                round_number=round_number,
                table=table,
                before=json.dumps(before),
                after=json.dumps(outcomes.result_summary(old).as_dict()),
                reason=why,
                at=time.time(),
            )
        )

    def corrections(self, *, event: EventRef = None) -> list[outcomes.Correction]:
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            rows = s.scalars(
                select(ResultCorrection)
                .where(ResultCorrection.event_id == ev.id)
                .order_by(ResultCorrection.id)
            )
            return [outcomes.correction(r) for r in rows]


def _second_result(round_number: int, table: int) -> TournamentError:
    return TournamentError(
        f"round {round_number} table {table} already has a result (correct it instead)"
    )
