"""The desk's Mahjong use cases (issue 18), `TournamentService.mahjong_desk`, built on the
sessions' use cases (`tournament.sessions`): a session's page (tables, the seating check,
standings) and one table's score sheet entered hand by hand.

`ball.games.mahjong.engine` and the clocks are imported by the use cases that need them (as in
`sessions`): every `TournamentService` has these use cases, and a two-player event's
commands should not load them (issue 15, target 1).

The sheet in progress is a draft (`MahjongDraft`, the `ball.games.mahjong.engine.sheet` format)
saved after every hand or ruling, so a hand saved is kept if the phone dies. Every change is read
whole by `ball.games.mahjong.engine.sheet.read_sheet` (the rules stay there and in
`ball.games.mahjong.engine.penalties`) before it is stored, and carries the version the page was
loaded at: a change made over another one is refused (`VersionConflict`, the desk's 409), nothing
overwritten. Closing a table stores the draft as the table's session sheet (table points,
standings) — after that the stored sheet changes only by a correction with a reason; the
draft may then be edited to prepare that correction.
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from ball.games.mahjong.engine.winds import WINDS
from ball.games.mahjong.tournament.seat_links import settle_seat_entry
from ball.games.mahjong.tournament.sessions import read_session_sheet, sheet_row
from ball.tournament.errors import TournamentError
from ball.tournament.models import Event, MahjongDraft, ResultCorrection, Round, SessionSheet
from ball.tournament.signals import clock_round_label
from ball.tournament.store import Store
from ball.tournament.table_result import VersionConflict, insert_if_missing

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ball.clocks.store import ClockView
    from ball.games.mahjong.engine.sheet import ScoredSheet
    from ball.games.mahjong.tournament.sessions import SessionUseCases

# What the desk may do to a draft; each is one call of `edit_mahjong_table`.
EDITS = ("hand", "penalty", "time", "waive", "undo")
MAX_REASON = 500


def draft_doc(seats: dict[str, str]) -> dict[str, Any]:
    return {"seats": seats, "hands": [], "penalties": [], "time_penalties": []}


def _in_play(doc: dict[str, Any]) -> int:
    return len(doc["hands"]) + 1


def _undo(doc: dict[str, Any], hands: int) -> None:
    """Take back the last ruling of the hand rulings go to now, or else the last hand."""
    hand = ruling_hand(doc, hands)
    rulings = [
        (key, i)
        for key in ("penalties", "time_penalties")
        for i, r in enumerate(doc[key])
        if r.get("hand") == hand
    ]
    if rulings:
        key, i = rulings[-1]
        del doc[key][i]
    elif doc["hands"]:
        doc["hands"].pop()
    else:
        raise TournamentError("the sheet is empty: nothing to take back")


def _waive(doc: dict[str, Any], payload: dict[str, Any]) -> None:
    index, reason = payload.get("index"), str(payload.get("reason", "")).strip()
    times = doc["time_penalties"]
    if not isinstance(index, int) or not 0 <= index < len(times):
        raise TournamentError("waiver: choose a time penalty of this sheet")
    if not reason:
        raise TournamentError("waiver: the referee's reason is required (TL 6)")
    if len(reason) > MAX_REASON:
        raise TournamentError(f"waiver: reason: at most {MAX_REASON} characters")
    if "waived" in times[index]:
        raise TournamentError("waiver: that time penalty is already waived")
    times[index]["waived"] = reason


def ruling_hand(doc: dict[str, Any], hands: int) -> int:
    """The hand a ruling given now belongs to: the one in play, or the session's last once
    all its hands are entered."""
    return min(_in_play(doc), hands)


def apply_edit(doc: dict[str, Any], what: str, payload: dict[str, Any], hands: int) -> None:
    """One change to a draft (not yet checked: `read_sheet` checks the result whole);
    `hands` is the session's number of hands."""
    if what == "hand":
        doc["hands"].append(payload)
    elif what in ("penalty", "time"):
        doc["penalties" if what == "penalty" else "time_penalties"].append(
            {**payload, "hand": ruling_hand(doc, hands)}
        )
    elif what == "waive":
        _waive(doc, payload)
    elif what == "undo":
        _undo(doc, hands)
    else:
        raise TournamentError(f"edit: one of {', '.join(EDITS)}, not {what!r}")


def _clock_overruns(view: ClockView, seats: dict[str, str]) -> list[dict[str, Any]]:
    """The clock's turn and hand overruns as the sheet's time penalties. A clock player is
    the seat of the same name, else the seat of its place (E S W N, the control's order);
    the seconds over are the charged blocks times the block length, so the sheet charges
    what the clock did (M-09: the same amounts)."""
    names = [p.name for p in view.clock.players]
    by_name = {name: wind for wind, name in seats.items()}
    limits = {"turn_overrun": ("turn", view.control.turn_limit),
              "period_overrun": ("hand", view.control.period_budget)}  # fmt: skip
    out = []
    for i, notice in enumerate(view.clock.timeline):
        if notice["source"] != "clock" or notice["kind"] not in limits:
            continue
        limit, rule = limits[notice["kind"]]
        player = notice["player"]
        wind = by_name.get(names[player], WINDS[player])
        per = rule.per if rule is not None and rule.per else 15.0
        local = time.localtime(notice["at"])
        out.append({
            "seat": wind, "limit": limit, "over_seconds": notice["data"]["blocks"] * per,
            "at": local.tm_hour * 3600 + local.tm_min * 60 + local.tm_sec,
            "clock": f"{view.id}:{i}",
        })  # fmt: skip
    return out


def _change(what: str, payload: dict[str, Any]) -> str:
    """A change as the draft remembers its last one. The time a ruling was given is left
    out: a form re-sent after a lost answer stamps "now" again."""
    kept = {k: v for k, v in payload.items() if k != "at"}
    return json.dumps([what, kept], sort_keys=True, ensure_ascii=False)


def closing_sheet(doc: dict[str, Any], table: int) -> dict[str, Any]:
    """The draft as the session sheet `enter_session_sheet` takes."""
    return {"table": table, **doc}


class MahjongDeskUseCases:
    """The Mahjong session and score-sheet pages of the desk."""

    def __init__(self, store: Store, sessions: SessionUseCases) -> None:
        self.store = store
        self.sessions = sessions

    # ------------------------------------------------------------------ reads

    def mahjong_session(self, event: Any, number: int) -> dict[str, Any]:
        """A session's tables (seats, hands entered, closed or not, scores and table
        points), the seating check of the sessions up to it, and the standings."""
        from ball.games.mahjong.engine import seating

        with self.store.tx(write=False) as s:
            ev, rules = self.sessions.event_and_rules(s, event)
            rnd = self._session(ev, number)
            history = self.sessions.history(s, ev)[:number]
            names = {e.number: e.name for e in ev.entrants}
            stored = {
                x.table: x
                for x in s.scalars(select(SessionSheet).where(SessionSheet.round_id == rnd.id))
            }
            drafts = {
                d.table: json.loads(d.sheet)
                for d in s.scalars(select(MahjongDraft).where(MahjongDraft.round_id == rnd.id))
            }
            tables = []
            for t, four in enumerate(history[-1], 1):
                row: dict[str, Any] = {
                    "table": t,
                    "seats": {w: names[p] for w, p in zip(WINDS, four, strict=True)},
                    "hands": len(drafts.get(t, {}).get("hands", [])),
                    "closed": t in stored,
                }
                if t in stored:
                    row["scores"] = json.loads(stored[t].scores)
                    row["table_points"] = json.loads(stored[t].table_points)
                tables.append(row)
            teams = self.sessions.team_names(ev)
            report = seating.report(tuple(history), teams or None)
            return {
                "event": {"id": ev.id, "name": ev.name, "sessions": ev.rounds},
                "session": number,
                "seated": len(ev.rounds_),
                "method": rnd.method,
                "hands_per_session": rules.hands_per_session,
                "tables": tables,
                "closed": len(stored) == len(tables),
                "report": report.to_json(),
                "names": names,
                "standings": self.sessions.standing_rows(s, ev),
            }

    def mahjong_table(self, event: Any, number: int, table: int) -> dict[str, Any]:
        """One table's score sheet: the draft, its version, the sheet read in play (running
        totals, log, seats past the 80-point line), and whether the table is closed."""
        with self.store.tx(write=False) as s:
            ev, rules = self.sessions.event_and_rules(s, event)
            rnd = self._session(ev, number)
            seats = self.seats(s, ev, number, table)
            draft = self._draft(s, rnd, table)
            doc = json.loads(draft.sheet) if draft else draft_doc(seats)
            stored = self._stored(s, rnd, table)
            scored = self._read(doc, rules.hands_per_session)
            return {
                "event": {"id": ev.id, "name": ev.name},
                "session": number,
                "table": table,
                "seats": seats,
                "doc": doc,
                "version": draft.version if draft else 0,
                "scored": scored,
                "hands_per_session": rules.hands_per_session,
                "in_play": _in_play(doc),
                "ruling_hand": ruling_hand(doc, rules.hands_per_session),
                "closed": stored is not None,
                "changed": stored is not None
                and json.loads(stored.sheet) != closing_sheet(doc, table),
                "table_points": json.loads(stored.table_points) if stored else None,
                "latest": number == len(ev.rounds_),
            }

    # ------------------------------------------------------------------ writes

    def edit_mahjong_table(
        self,
        event: Any,
        number: int,
        table: int,
        what: str,
        payload: dict[str, Any],
        *,
        expected_version: int,
    ) -> int:
        """One change to a table's sheet in progress (a hand, a ruling, a waiver, taking the
        last back), checked whole and saved with the next version, which is returned."""
        with self.store.tx() as s:
            ev, rules = self.sessions.event_and_rules(s, event)
            rnd = self._session(ev, number)
            seats = self.seats(s, ev, number, table)
            draft = self.lock_draft(s, rnd, table, seats)
            change = _change(what, payload)
            if draft.version == expected_version + 1 and draft.last_edit == change:
                return draft.version  # the very change stored: a re-sent form, stored once
            self._check_version(draft, expected_version)
            doc = json.loads(draft.sheet)
            apply_edit(doc, what, payload, rules.hands_per_session)
            self._read(doc, rules.hands_per_session, strict=True)
            draft.sheet = json.dumps(doc, ensure_ascii=False)
            draft.version += 1
            draft.last_edit = change
            draft.updated_at = time.time()
            return draft.version

    def close_mahjong_table(
        self,
        event: Any,
        number: int,
        table: int,
        *,
        expected_version: int,
        reason: str = "",
    ) -> dict[str, Any]:
        """Close a table: its sheet becomes the session sheet (table points, standings).
        A closed table's changed draft is stored only as a correction with a reason."""
        with self.store.tx() as s:
            ev, _ = self.sessions.event_and_rules(s, event)
            rnd = self._session(ev, number)
            draft = self.lock_draft(s, rnd, table, self.seats(s, ev, number, table))
            self._check_version(draft, expected_version)
            if not json.loads(draft.sheet)["hands"]:
                raise TournamentError(f"table {table}: no hand has been entered")
            sheet = closing_sheet(json.loads(draft.sheet), table)
            *_, scored = self.sessions.checked_sheet(s, sheet, number, table, ev.id)
            stored = self._stored(s, rnd, table)
            new = sheet_row(rnd, table, sheet, scored)
            if stored is None:
                s.add(new)
            else:
                self._correct(s, ev, rnd, table, stored, new, reason)
            draft.version += 1  # a form loaded before the close is stale
            draft.last_edit = ""
            # the arbiter's sheet wins over the seats' entry by their links (issue 35 §1)
            settle_seat_entry(s, ev, rnd, table, "desk", time.time())
            return {"table_points": json.loads(new.table_points), "scores": scored.scores}

    def mahjong_clock_penalties(
        self, event: Any, number: int, table: int, *, expected_version: int, now: float
    ) -> int:
        """Take the time penalties the table's Mahjong clock charged (TL 1, 2) onto the sheet,
        for the hand rulings go to now; each clock notice is taken once. The clock is the one
        bound to the event under the session's round label (`clock_round_label`, e.g.
        "MJ Open R2") whose table label is the table number. Returns how many were taken."""
        with self.store.tx(write=False) as s:
            ev, _ = self.sessions.event_and_rules(s, event)
            self._session(ev, number)
            seats = self.seats(s, ev, number, table)
            label, event_id = clock_round_label(ev.name, number), ev.id
        notices = _clock_overruns(self._clock_view(label, event_id, table, now), seats)
        with self.store.tx() as s:
            ev, rules = self.sessions.event_and_rules(s, event)
            rnd = self._session(ev, number)
            draft = self.lock_draft(s, rnd, table, seats)
            self._check_version(draft, expected_version)
            doc = json.loads(draft.sheet)
            taken = {tp.get("clock") for tp in doc["time_penalties"]}
            new = [n for n in notices if n["clock"] not in taken]
            hand = ruling_hand(doc, rules.hands_per_session)
            doc["time_penalties"].extend({**n, "hand": hand} for n in new)
            self._read(doc, rules.hands_per_session, strict=True)
            draft.sheet = json.dumps(doc, ensure_ascii=False)
            draft.version += 1
            draft.last_edit = ""
            draft.updated_at = time.time()
            return len(new)

    def _clock_view(self, label: str, event_id: int, table: int, now: float) -> ClockView:
        from ball.clocks.store import ClockStore  # the clocks only for a clock's penalties

        store = ClockStore(self.store.sessions, lambda: now)
        for view in store.round_views(label, event_id):
            found = re.fullmatch(r"\D*(\d+)", view.table.strip())
            if view.event_id == event_id and found and int(found.group(1)) == table:
                if view.control.game != "mahjong" or len(view.clock.players) != len(WINDS):
                    raise TournamentError(f"the clock of table {table} is not a Mahjong clock")
                return view
        raise TournamentError(
            f"no table clock of this event for table {table} under the round label {label!r}"
        )

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _correct(
        s: Session, ev: Event, rnd: Round, table: int, old: SessionSheet, new: SessionSheet,
        reason: str,
    ) -> None:
        reason = reason.strip()
        if old.sheet == new.sheet:
            raise TournamentError(f"table {table} is closed and its sheet is unchanged")
        if not reason:
            raise TournamentError("a correction needs a reason")
        if len(reason) > MAX_REASON:
            raise TournamentError(f"reason: at most {MAX_REASON} characters")
        s.add(
            ResultCorrection(
                event_id=ev.id, round_number=rnd.number, table=table, before=old.sheet,
                after=new.sheet, reason=reason, at=time.time(),
            )
        )  # fmt: skip
        old.sheet, old.scores, old.table_points = new.sheet, new.scores, new.table_points
        old.entered_at = new.entered_at

    def _session(self, ev: Event, number: int) -> Round:
        if not 1 <= number <= len(ev.rounds_):
            raise TournamentError(f"session {number} is not seated")
        return self.store.round(ev, number)

    def seats(self, s: Session, ev: Event, number: int, table: int) -> dict[str, str]:
        session = self.sessions.seated_session(s, ev, number)
        if not 1 <= table <= len(session):
            raise TournamentError(f"session {number} has no table {table}")
        names = {e.number: e.name for e in ev.entrants}
        return {w: names[p] for w, p in zip(WINDS, session[table - 1], strict=True)}

    @staticmethod
    def _draft(s: Session, rnd: Round, table: int) -> MahjongDraft | None:
        return s.scalars(
            select(MahjongDraft).where(MahjongDraft.round_id == rnd.id, MahjongDraft.table == table)
        ).first()

    @staticmethod
    def lock_draft(s: Session, rnd: Round, table: int, seats: dict[str, str]) -> MahjongDraft:
        """The table's draft, created empty at version 0 when missing, locked for this
        transaction (as `table_result.lock_state`): its first statement is a write, so on
        SQLite the transaction holds the write lock from here on; on PostgreSQL the row lock
        makes a concurrent change wait and then see this one."""
        values = {"round_id": rnd.id, "table": table, "version": 0, "last_edit": "",
                  "sheet": json.dumps(draft_doc(seats), ensure_ascii=False),
                  "updated_at": 0.0}  # fmt: skip
        if not insert_if_missing(s, MahjongDraft, values, ["round_id", "table"]) and (
            MahjongDeskUseCases._draft(s, rnd, table) is None
        ):
            s.add(MahjongDraft(**values))
            s.flush()
        return s.scalars(
            select(MahjongDraft)
            .where(MahjongDraft.round_id == rnd.id, MahjongDraft.table == table)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one()

    @staticmethod
    def _stored(s: Session, rnd: Round, table: int) -> SessionSheet | None:
        return s.scalars(
            select(SessionSheet).where(SessionSheet.round_id == rnd.id, SessionSheet.table == table)
        ).first()

    @staticmethod
    def _check_version(draft: MahjongDraft, expected: int) -> None:
        if draft.version != expected:
            raise VersionConflict("another change was saved to this sheet after it was opened")

    @staticmethod
    def _read(doc: dict[str, Any], hands: int, strict: bool = False) -> ScoredSheet | None:
        from ball.games.mahjong.engine.sheet import SheetError

        try:
            return read_session_sheet(doc, hands, in_play=True)
        except SheetError as exc:
            if strict:
                raise TournamentError(str(exc)) from None
            return None  # a stored draft is always readable; a shipped rule change is not
