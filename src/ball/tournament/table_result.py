"""A table's result with its steals and sanctions: the table's row, the result made from an
entry (`table_row`, `make_result`), the checks, and the per-table version.

The arbiter's result form (and `ball result enter|correct`) hand in one submission: the
result (a sheet, a forfeit or a double forfeit), the steals noted on the sheet and the
sanctions given in the match. `ResultUseCases.write_table_result` checks all of it with
the functions here *before* it writes anything, then writes the result, the steals, the
sanctions (`sanction_log`), their lines in the arbiter's log and the table's version in one
transaction: a crash or a refused field leaves either the whole submission or nothing.

The version row (`models.ResultState`, table `desk_result_state`, created by the desk's
Alembic branch; the name is kept so no migration is needed) is a tournament table because
the tournament writes it in that transaction and `ball.tournament` never imports `ball.web`.
A form carries the version it was loaded with; a save from a stale form is a
`VersionConflict` unless it is the very submission already stored (a retry), which is
answered with the stored result and writes nothing.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ball.games import game
from ball.sanctions import LADDER, Ladder
from ball.tournament.errors import TournamentError
from ball.tournament.forfeits import forfeit_result
from ball.tournament.models import Event, Pairing, Result, ResultState, Round, SanctionEntry
from ball.tournament.outcomes import TableOutcome
from ball.tournament.sanction_log import REASON_MAX
from ball.tournament.session_refusals import refuse_two_player
from ball.tournament.store import bounded

SIDES = ("A", "B")
HALVES = (1, 2)
STEAL_CHOICES = ("continue", "reset")
MAX_STEALS = 40  # per match; far beyond any real game, small enough to store in one row
MAX_SANCTIONS = 10  # per submission
CORRECTION_REASON_MAX = REASON_MAX


class VersionConflict(TournamentError):
    """The form was loaded at another version: someone saved this table meanwhile."""


class CorrectionWithoutReason(TournamentError):
    """A different result over a stored one is a correction, and a correction needs a reason."""


@dataclass(frozen=True)
class RecordedResult:
    """What `record_table_result` left stored for the table."""

    table: TableOutcome  # as `pairings()` shows it, with the result
    version: int
    steals: list[dict[str, Any]]
    sanctions: list[dict[str, Any]] = field(default_factory=list)  # given by this call
    written: bool = True  # False: the same submission was already stored (a retry)
    correction: bool = False


# ------------------------------------------------------------------------ the checks


def result_kind(result: Result) -> str:
    """The form's kind of a result: sheet, forfeit-A, forfeit-B or double-forfeit."""
    if result.kind == "double-forfeit":
        return "double-forfeit"
    if result.kind == "forfeit":
        return f"forfeit-{result.forfeit_by}"
    return "sheet"


def check_steals(steals: Any, names: dict[str, str]) -> list[dict[str, Any]]:
    """Steals as stored: `[{"half": 1|2, "by": coach name, "choice": continue|reset}]`.

    Each steal in gives its half, the stealing coach as `side` A or B, and the choice."""
    if not isinstance(steals, list | tuple):
        raise TournamentError("steals: a list of {half, side, choice}")
    if len(steals) > MAX_STEALS:
        raise TournamentError(f"steals: at most {MAX_STEALS} in one match")
    out = []
    for steal in steals:
        if not isinstance(steal, dict):
            raise TournamentError("steals: each steal is {half, side, choice}")
        half, side, choice = steal.get("half"), steal.get("side"), steal.get("choice")
        if half not in HALVES or isinstance(half, bool):
            raise TournamentError(f"steal: half {half!r}; a match has halves 1 and 2")
        if side not in SIDES:
            raise TournamentError(f"half {half}: steal by {side!r}; choose A or B")
        if choice not in STEAL_CHOICES:
            raise TournamentError(
                f"half {half}: the steal by {names[side]} needs its choice (continue or reset)"
            )
        out.append({"half": half, "by": names[side], "choice": choice})
    return out


def check_sanctions(
    sanctions: Any, kind: str, names: dict[str, str], ladder: Ladder = LADDER
) -> list[dict[str, str]]:
    """Sanctions given in the match, `[{"side", "step", "reason"}]`, checked against the
    ladder, the reason's length and the result: a step whose effect is the forfeit of the
    match comes only with that forfeit."""
    if not isinstance(sanctions, list | tuple):
        raise TournamentError("sanctions: a list of {side, step, reason}")
    if len(sanctions) > MAX_SANCTIONS:
        raise TournamentError(f"sanctions: at most {MAX_SANCTIONS} at once")
    out = []
    for row, given in enumerate(sanctions, start=1):
        if not isinstance(given, dict):
            raise TournamentError(f"sanction {row}: {{side, step, reason}}")
        side, step = given.get("side"), given.get("step")
        reason = given.get("reason")
        if side not in SIDES:
            raise TournamentError(f"sanction {row}: choose coach A or B")
        if not isinstance(step, str) or step not in ladder.names:
            raise TournamentError(
                f"sanction {row}: step {step!r} is not on the ladder ({', '.join(ladder.names)})"
            )
        reason = reason.strip() if isinstance(reason, str) else ""
        if not reason:
            raise TournamentError(f"sanction {row}: every sanction needs a reason")
        if len(reason) > REASON_MAX:
            raise TournamentError(f"sanction {row}: reason: at most {REASON_MAX} characters")
        if ladder.step(step).effect == "forfeit" and kind not in (
            f"forfeit-{side}",
            "double-forfeit",
        ):
            raise TournamentError(
                f"{step} for {names[side]}: enter the result as a forfeit by {names[side]}"
            )
        out.append({"side": side, "step": step, "reason": reason})
    return out


def check_correction_reason(reason: Any) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if len(text) > CORRECTION_REASON_MAX:
        raise TournamentError(f"reason: at most {CORRECTION_REASON_MAX} characters")
    return text


# ------------------------------------------------------------------- stored state


def lock_state(session: Session, pairing_id: int) -> ResultState:
    """The table's version row, created at version 0 when missing, locked for this
    transaction. Its first statement is a write, so on SQLite the transaction holds the
    write lock from here on (also where the driver begins transactions lazily); on
    PostgreSQL the row lock makes a concurrent save wait and then see this one's result."""
    values = {"pairing_id": pairing_id, "version": 0, "steals": "[]", "updated_at": 0.0}
    if not insert_if_missing(session, ResultState, values, ["pairing_id"]) and (
        session.get(ResultState, pairing_id) is None
    ):
        session.add(ResultState(**values))
        session.flush()
    return session.scalars(
        select(ResultState)
        .where(ResultState.pairing_id == pairing_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).one()


def insert_if_missing(
    session: Session, model: type[Any], values: dict[str, Any], keys: list[str]
) -> bool:
    """INSERT ... ON CONFLICT (`keys`) DO NOTHING of one row of `model`, on SQLite and
    PostgreSQL; False on another database (the caller then adds the row if it is missing).
    Only the session's own dialect is imported: the PostgreSQL one would add 45-55 ms of CPU
    to every cold command on a SQLite file (issue 15, target 1)."""
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        session.execute(
            sqlite_insert(model).values(**values).on_conflict_do_nothing(index_elements=keys)
        )
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        session.execute(
            pg_insert(model).values(**values).on_conflict_do_nothing(index_elements=keys)
        )
    else:
        return False
    return True


def ensure_state(sessions: sessionmaker[Session], pairing_id: int) -> None:
    """Create the table's version row (version 0) in its own transaction, for a form that
    shows the version; when two requests race to create it both see the same row."""
    with sessions() as session:
        if session.get(ResultState, pairing_id) is not None:
            return
        session.add(ResultState(pairing_id=pairing_id, version=0, steals="[]", updated_at=0.0))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()


def stored_result(session: Session, pairing_id: int) -> Result | None:
    """The table's result as committed now (not as loaded before the lock was taken)."""
    return session.scalars(
        select(Result)
        .where(Result.pairing_id == pairing_id)
        .execution_options(populate_existing=True)
    ).first()


def same_result(old: Result, new: Result) -> bool:
    return (old.kind, old.forfeit_by, old.sheet or "", old.outcome) == (
        new.kind,
        new.forfeit_by,
        new.sheet or "",
        new.outcome,
    )


def already_stored(
    session: Session,
    pairing: Pairing,
    round_number: int,
    state: ResultState,
    new: Result,
    steals: list[dict[str, Any]] | None,
    sanctions: list[dict[str, str]],
) -> bool:
    """True when this exact submission is what the table holds: the same result, the same
    steals, and every sanction it gives already logged for the table (a retry)."""
    old = stored_result(session, pairing.id)
    if old is None or not same_result(old, new):
        return False
    if steals is not None and json.loads(state.steals or "[]") != steals:
        return False
    ids = {"A": pairing.a_id, "B": pairing.b_id}
    # A bye's B side has no id (None): it matches no logged entry, as before.
    logged: Counter[tuple[int | None, str, str]] = Counter(
        (e.entrant_id, e.step, e.reason)
        for e in session.scalars(
            select(SanctionEntry).where(
                SanctionEntry.event_id == pairing.round.event_id,
                SanctionEntry.round_number == round_number,
                SanctionEntry.table == pairing.table,
            )
        )
    )
    wanted = Counter((ids[s["side"]], s["step"], s["reason"]) for s in sanctions)
    return all(logged[key] >= count for key, count in wanted.items())


# ---------------------------------------------------------------------- the entry


def table_row(s: Session, ev: Event, number: int, table: int) -> Pairing:
    """One table, fetched by itself (result entry must not load the whole event)."""
    refuse_two_player(ev, "its tables take session sheets ('ball result enter --sheet')")
    bounded(number, "round")
    bounded(table, "table")
    rnd = s.scalars(
        select(Round).where(Round.event_id == ev.id, Round.number == number)
    ).first()
    if rnd is None:
        raise TournamentError(f"round {number} is not paired")
    pairing = s.scalars(
        select(Pairing).where(Pairing.round_id == rnd.id, Pairing.table == table)
    ).first()
    if pairing is None:
        raise TournamentError(f"round {number} has no table {table}")
    if pairing.b_id is None:
        raise TournamentError(f"round {number} table {table} is a bye; it takes no result")
    return pairing

def make_result(
    ev: Event, pairing: Pairing, sheet: Any, forfeit: Any, double_forfeit: Any
) -> Result:
    given = sum(
        x is not None and x is not False for x in (sheet, forfeit, double_forfeit or None)
    )
    if given != 1:
        raise TournamentError(
            "give exactly one of: a sheet, a forfeit (A or B), a double forfeit"
        )
    plugin = game(ev.game)
    now = time.time()
    if double_forfeit:
        return forfeit_result(plugin, None, now)
    if forfeit is not None:
        if forfeit not in ("A", "B"):
            raise TournamentError(f"forfeit is by coach A or B, got {forfeit!r}")
        return forfeit_result(plugin, forfeit, now)
    if not isinstance(sheet, dict):
        raise TournamentError("illegal sheet: the score sheet must be a JSON object")
    decided = plugin.decide(sheet)
    # A game whose document names the players checks them against the table's
    # (Xiangqi's: Red = player A).
    if pairing.b is not None:
        plugin.check_players(sheet, pairing.a.name, pairing.b.name)
    # A sheet that records a forfeit is a forfeit (TRF + / -), its halves kept for research.
    forfeited = decided.decision.get("reason") == "forfeit"
    return Result(
        kind="forfeit" if forfeited else "sheet",
        forfeit_by=("B" if decided.outcome == "A" else "A") if forfeited else None,
        sheet=json.dumps(sheet, sort_keys=True),
        decision=json.dumps({"decision": decided.decision, "figures": decided.figures}),
        outcome=decided.outcome,
        entered_at=now,
    )
