"""The players of a Mahjong table enter its session by their seats' links (issue 35 §1), as
the two players of a BALL or Xiangqi table do by theirs (`ball.tournament.table_links`: the
states, the event's secret and its "accept confirmed results" setting are the same).

**Links.** Each table of a session has four links, `/t/TOKEN`, one per seat (E, S, W, N),
so another seat confirms with its own. A token is `EVENT-SESSION-TABLEwind-MAC`: the MAC is
HMAC-SHA256, under the event's secret, of the event, session, table, wind and the four
seated entrants' ids in wind order, cut to 128 bits; so a reseated table's old links die.

**The entry** is the table's hands as the desk's sheet takes them in their simplest
complete form (per hand: a draw, or the winner, the discarder or self-drawn, and the fan),
read by the desk's own form reader (`ball.games.mahjong.web.forms.hand_from_form`), with the four
seats' totals as a check when the table wrote them down. Rulings and time penalties stay
the desk's. It is checked whole by the desk's own check (`SessionUseCases.checked_sheet`),
in one transaction holding the table's draft lock (`MahjongDeskUseCases.lock_draft`), so
it is serialised with the desk's saves.

**Dead links** (`table_links.LinkClosed`): once a later session is seated, once the table
has a stored sheet (the desk's close, whatever the players said), or once two seats agreed.

**Stored** by the desk's approval or at once (`auto_accept`) through the desk's own close:
the hands become the table's draft and its session sheet (`_seat_store`). A sheet the desk
stores over the players' entry makes it *replaced* (`settle_seat_entry`). Every step is a
line of the arbiter's log naming the seat that entered, confirmed or disputed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from ball.games import pairs_players
from ball.games.mahjong.engine.winds import WINDS
from ball.storage import ids
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.models import Event, LogEntry, Round, Seat, SeatEntry, SessionSheet
from ball.tournament.store import Store
from ball.tournament.table_links import (
    ACCEPTED,
    AGREED,
    BY_APPROVAL,
    BY_DESK,
    BY_ITSELF,
    CLOSED,
    CONFIRMED,
    DISPUTED,
    ENTERED,
    MAC_BYTES,
    REPLACED,
    RESULT_IN,
    ROUND_CLOSED,
    SETTLED,
    WAITING,
    BadLink,
    EntryView,
    LinkClosed,
    link_key,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ball.games.mahjong.tournament.desk import MahjongDeskUseCases
    from ball.games.mahjong.tournament.sessions import SessionUseCases


_TOKEN = re.compile(r"^([0-9]{1,10})-([0-9]{1,10})-([0-9]{1,10})([eswn])-([A-Za-z0-9_-]{22})$")


def is_seat_token(token: str) -> bool:
    """Whether `token` has the shape of a Mahjong seat's link (not whether it opens one)."""
    return isinstance(token, str) and _TOKEN.match(token) is not None


@dataclass(frozen=True)
class LinkedSeat:
    """What a seat's link opens: one seat of one table of one session."""

    event_id: int
    event: str
    session: int
    table: int
    seat: str
    seats: dict[str, str]  # wind -> name
    hands: int  # the session's number of hands
    entry: EntryView | None  # `side` is the wind that entered it
    scores: dict[str, int]  # the entry's session scores by wind ({} without an entry)
    closed: str  # "" while the link takes entries, else a key of `table_links.CLOSED`


def _mac(secret: str, event_id: int, number: int, table: int, wind: str, four: list[int]) -> str:
    message = f"{event_id}:{number}:{table}:{wind}:{','.join(map(str, four))}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _seated(s: Session, rnd: Round) -> dict[int, list[int]]:
    """Each table of the session -> its four entrants' ids in wind order."""
    order = {w: i for i, w in enumerate(WINDS)}
    tables: dict[int, list[tuple[int, int]]] = {}
    for seat in s.scalars(select(Seat).where(Seat.round_id == rnd.id)):
        tables.setdefault(seat.table, []).append((order.get(seat.seat, 9), seat.entrant_id))
    return {t: [e for _, e in sorted(four)] for t, four in tables.items() if len(four) == 4}


def _view(entry: SeatEntry | None) -> EntryView | None:
    if entry is None:
        return None
    return EntryView(
        entry.seat, entry.state, json.loads(entry.document), entry.answered_by, entry.at
    )


def _scores_text(scores: dict[str, int]) -> str:
    return ", ".join(f"{w} {scores[w]:+d}" for w in WINDS if w in scores)


def _log_line(s: Session, ev: Event, kind: str, detail: str, number: int, table: int,
              at: float) -> None:  # fmt: skip
    s.add(LogEntry(event_id=ev.id, kind=kind, detail=detail, at=at, round_number=number,
                   table=table))  # fmt: skip


def settle_seat_entry(
    s: Session, ev: Event, rnd: Round, table: int, entered_by: str, now: float
) -> None:
    """The table's sheet was just stored: its seats' entry, if any, is settled, and the
    log says whose sheet it is (`table_links.settle` for a two-player table)."""
    entry = s.get(SeatEntry, (rnd.id, table))
    if entry is None or entry.state in (ACCEPTED, REPLACED):
        return
    if entered_by in (BY_APPROVAL, BY_ITSELF):
        how = "approved by the desk" if entered_by == BY_APPROVAL else "accepted by itself"
        detail = (
            f"entered by {entry.seat} via QR, confirmed by {entry.answered_by} via QR, {how}"
        )
        entry.state, entry.answered_by = ACCEPTED, entered_by
    else:
        detail = (
            f"entered by the desk over the players' entry ({entry.state} by {entry.seat} via QR)"
        )
        entry.state, entry.answered_by = REPLACED, BY_DESK
    entry.at = now
    _log_line(s, ev, "result", detail, rnd.number, table, now)


class MahjongLinkUseCases:
    """The Mahjong seats' entry by link (a use case of `TournamentService`)."""

    def __init__(
        self, store: Store, sessions: SessionUseCases, mahjong_desk: MahjongDeskUseCases
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.mahjong_desk = mahjong_desk

    # ------------------------------------------------------------------ the desk's side

    def seat_link_tokens(self, event_id: int, number: int) -> dict[int, dict[str, str]]:
        """Each table of session `number` -> its seats' tokens (E, S, W, N). The event's
        secret is made at the first call (a write); later calls only read."""
        for write in (False, True):
            with self.store.tx(write=write) as s:
                ev = self.store.known(s, event_id, full=False)
                key = link_key(s, ev.id, create=write)
                if key is None:
                    continue
                rnd = self._seat_session_of(ev, number)
                if rnd is None:
                    return {}
                return {
                    t: {
                        w: f"{ev.id}-{number}-{t}{w.lower()}-"
                        + _mac(key.secret, ev.id, number, t, w, four)
                        for w in WINDS
                    }
                    for t, four in sorted(_seated(s, rnd).items())
                }
        raise AssertionError("the secret was just made")  # pragma: no cover

    def seat_entries(self, event_id: int, number: int) -> dict[int, EntryView]:
        """Each table of session `number` whose seats entered something -> their entry."""
        with self.store.tx(write=False) as s:
            ev = self.store.known(s, event_id, full=False)
            rnd = self._seat_session_of(ev, number)
            if rnd is None:
                return {}
            rows = s.scalars(select(SeatEntry).where(SeatEntry.round_id == rnd.id))
            return {e.table: view for e in rows if (view := _view(e)) is not None}

    def approve_seat_entry(self, event_id: int, number: int, table: int, at: float) -> None:
        """The desk stores the sheet two seats agreed on (the desk's own close)."""
        with self.store.tx() as s:
            ev = self.store.known(s, event_id, full=False)
            rnd = self._seat_session_of(ev, number)
            if rnd is None:
                raise NotFound(f"session {number} is not seated")
            seats = self.mahjong_desk.seats(s, ev, number, table)
            self.mahjong_desk.lock_draft(s, rnd, table, seats)
            entry = s.get(SeatEntry, (rnd.id, table))
            if entry is None or entry.state != CONFIRMED:
                state = WAITING if entry is None else entry.state
                raise TournamentError(
                    f"session {number} table {table}: only a sheet two seats agreed on can "
                    f"be approved (it is {state}); enter the sheet at the desk instead"
                )
            sheet = json.loads(entry.document)["sheet"]
            self._seat_store(s, ev, rnd, table, sheet, BY_APPROVAL, at)

    # --------------------------------------------------------------- the players' side

    def open_seat_link(self, token: str) -> LinkedSeat:
        """What `token` opens (`BadLink` when it opens nothing)."""
        with self.store.tx(write=False) as s:
            return self._seat_linked(s, *self._seat_resolve(s, token))

    def enter_by_seat_link(
        self,
        token: str,
        hands: list[dict[str, Any]],
        totals: dict[str, int] | None,
        form: dict[str, str],
        at: float,
    ) -> LinkedSeat:
        """One seat enters its table's hands (and the totals the table wrote down, a check).
        Over another seat's entry: the same hands confirm it, other hands dispute it."""
        with self.store.tx() as s:
            ev, rnd, table, seat = self._seat_resolve(s, token)
            seats = self.mahjong_desk.seats(s, ev, rnd.number, table)
            self.mahjong_desk.lock_draft(s, rnd, table, seats)  # serialised with the desk's saves
            self._seat_refuse_closed(s, ev, rnd, table)
            if not hands:
                raise TournamentError("hands: enter at least the first hand")
            sheet: dict[str, Any] = {
                "seats": seats, "hands": hands, "penalties": [], "time_penalties": [],
            }  # fmt: skip
            if totals is not None:
                sheet["totals"] = totals
            entered = {"table": table, **sheet}
            *_, scored = self.sessions.checked_sheet(s, entered, rnd.number, table, ev.id)
            text = _scores_text(dict(zip(WINDS, scored.scores, strict=True)))
            entry = s.get(SeatEntry, (rnd.id, table))
            if entry is not None and entry.seat != seat and entry.state == ENTERED:
                same = json.loads(entry.document)["sheet"]["hands"] == hands
                self._seat_answer(s, ev, rnd, table, entry, seat, agree=same, at=at,
                             theirs="" if same else text)  # fmt: skip
                return self._seat_linked(s, ev, rnd, table, seat)
            if entry is None:
                entry = SeatEntry(round_id=rnd.id, table=table)
                s.add(entry)
            entry.seat, entry.state, entry.answered_by, entry.at = seat, ENTERED, "", at
            entry.document = json.dumps({"sheet": sheet, "form": form}, sort_keys=True)
            _log_line(s, ev, "qr-entry", f"{seat} via QR: {text}", rnd.number, table, at)
            s.flush()
            return self._seat_linked(s, ev, rnd, table, seat)

    def answer_by_seat_link(self, token: str, agree: bool, at: float) -> LinkedSeat:
        """Another seat confirms (`agree`) or disputes the entry it is shown."""
        with self.store.tx() as s:
            ev, rnd, table, seat = self._seat_resolve(s, token)
            seats = self.mahjong_desk.seats(s, ev, rnd.number, table)
            self.mahjong_desk.lock_draft(s, rnd, table, seats)
            self._seat_refuse_closed(s, ev, rnd, table)
            entry = s.get(SeatEntry, (rnd.id, table))
            if entry is None or entry.state != ENTERED or entry.seat == seat:
                raise TournamentError(
                    "there is no entry of another seat to answer: enter the hands instead"
                )
            self._seat_answer(s, ev, rnd, table, entry, seat, agree=agree, at=at)
            return self._seat_linked(s, ev, rnd, table, seat)

    # ------------------------------------------------------------------------ inside

    def _seat_answer(
        self, s: Session, ev: Event, rnd: Round, table: int, entry: SeatEntry, seat: str,
        *, agree: bool, at: float, theirs: str = "",
    ) -> None:  # fmt: skip
        entry.answered_by, entry.at = seat, at
        if not agree:
            entry.state = DISPUTED
            detail = f"{seat} via QR disputes {entry.seat}'s entry" + (
                f", entering: {theirs}" if theirs else ""
            )
            _log_line(s, ev, "qr-dispute", detail, rnd.number, table, at)
            return
        entry.state = CONFIRMED
        detail = f"{seat} via QR confirms {entry.seat}'s entry"
        _log_line(s, ev, "qr-confirm", detail, rnd.number, table, at)
        key = link_key(s, ev.id, create=False)
        sheet = json.loads(entry.document)["sheet"]
        seats = self.mahjong_desk.seats(s, ev, rnd.number, table)
        draft = self.mahjong_desk.lock_draft(s, rnd, table, seats)
        desk_hands = json.loads(draft.sheet)["hands"]
        # a table the desk is already entering hand by hand is the desk's to close: the
        # agreed entry waits for its approval rather than overwriting the desk's hands
        if key is not None and key.auto_accept and desk_hands in ([], sheet["hands"]):
            s.flush()
            self._seat_store(s, ev, rnd, table, sheet, BY_ITSELF, at)

    def _seat_store(
        self, s: Session, ev: Event, rnd: Round, table: int, sheet: dict[str, Any], by: str,
        at: float,
    ) -> None:  # fmt: skip
        """The desk's close, in this transaction: the hands become the table's draft and
        its session sheet (the totals were a check of the entry; the desk's sheet has none).
        The caller holds the draft's lock."""
        from ball.games.mahjong.tournament.desk import closing_sheet, draft_doc
        from ball.games.mahjong.tournament.sessions import sheet_row

        seats = self.mahjong_desk.seats(s, ev, rnd.number, table)
        draft = self.mahjong_desk.lock_draft(s, rnd, table, seats)
        doc = {**draft_doc(seats), "hands": sheet["hands"]}
        closing = closing_sheet(doc, table)
        *_, scored = self.sessions.checked_sheet(s, closing, rnd.number, table, ev.id)
        s.add(sheet_row(rnd, table, closing, scored))
        draft.sheet = json.dumps(doc, ensure_ascii=False)
        draft.version += 1  # a desk form loaded before is stale
        draft.last_edit, draft.updated_at = "", at
        s.flush()
        settle_seat_entry(s, ev, rnd, table, by, at)

    def _seat_session_of(self, ev: Event, number: int) -> Round | None:
        if pairs_players(ev.game) or not 1 <= number <= len(ev.rounds_):
            return None
        return self.store.round(ev, number)

    def _seat_resolve(self, s: Session, token: str) -> tuple[Event, Round, int, str]:
        """The event, session, table and wind of a token; `BadLink` unless its MAC is right."""
        found = _TOKEN.match(token) if isinstance(token, str) else None
        if found is None:
            raise BadLink("no table has this link")
        event_id, number, table = (int(found.group(i)) for i in (1, 2, 3))
        wind = found.group(4).upper()
        if not all(ids.in_range(x) for x in (event_id, number, table)):
            raise BadLink("no table has this link")
        key = link_key(s, event_id, create=False)
        ev = s.get(Event, event_id) if key is not None else None
        rnd = self._seat_session_of(ev, number) if ev is not None else None
        four = _seated(s, rnd).get(table) if rnd is not None else None
        if key is None or ev is None or rnd is None or four is None:
            raise BadLink("no table has this link")
        expected = _mac(key.secret, event_id, number, table, wind, four)
        if not hmac.compare_digest(expected.encode(), found.group(5).encode()):
            raise BadLink("no table has this link")
        return self.store.known(s, event_id), rnd, table, wind

    @staticmethod
    def _seat_closed(s: Session, ev: Event, rnd: Round, table: int) -> str:
        if len(ev.rounds_) > rnd.number:
            return ROUND_CLOSED
        stored = s.scalars(
            select(SessionSheet.id).where(
                SessionSheet.round_id == rnd.id, SessionSheet.table == table
            )
        ).first()
        if stored is not None:
            return RESULT_IN
        entry = s.get(SeatEntry, (rnd.id, table))
        if entry is not None and entry.state in SETTLED:
            return AGREED
        return ""

    def _seat_refuse_closed(self, s: Session, ev: Event, rnd: Round, table: int) -> None:
        closed = self._seat_closed(s, ev, rnd, table)
        if closed:
            raise LinkClosed(
                f"session {rnd.number} table {table}: this link takes no entry: {CLOSED[closed]}"
            )

    def _seat_linked(self, s: Session, ev: Event, rnd: Round, table: int, seat: str) -> LinkedSeat:
        _, rules = self.sessions.event_and_rules(s, ev.id)
        entry = _view(s.get(SeatEntry, (rnd.id, table)))
        scores: dict[str, int] = {}
        if entry is not None:
            from ball.games.mahjong.tournament.sessions import read_session_sheet

            scored = read_session_sheet(entry.document["sheet"], rules.hands_per_session)
            scores = dict(zip(WINDS, scored.scores, strict=True))
        return LinkedSeat(
            event_id=ev.id, event=ev.name, session=rnd.number, table=table, seat=seat,
            seats=self.mahjong_desk.seats(s, ev, rnd.number, table), hands=rules.hands_per_session,
            entry=entry, scores=scores, closed=self._seat_closed(s, ev, rnd, table),
        )  # fmt: skip
