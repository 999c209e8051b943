"""Players enter their own table's result by its link (issue 35 §1): the links, and the
entry's states from the first scan to the stored result.

**Links.** Each two-player table of a round has two links, `/t/TOKEN`, one per side (A on
the sheet's left half, B on its right), so the other side confirms with its own.
A token is `EVENT-ROUND-TABLEside-MAC`: the MAC is HMAC-SHA256, under the event's secret
(`desk_table_links.secret`, 256 random bits, never shown), of the event, round, table, side
and both entrants' ids, cut to 128 bits. So a token opens exactly one side of one table of
one round, and a swap of that table's entrants kills its old links. No token is stored:
the printed forms derive them again (any number of prints, the PDF cache), and a token
presented is recomputed and compared in constant time (`hmac.compare_digest`). A wrong
token is `BadLink` (the web counts it against the client address, `ball.web.desk.table_entry`).

**Dead links** (`LinkClosed`): the round is closed once a later round is paired; the
table's link is closed once the table has a stored result (the desk's, whatever the
players said: the arbiter's entry always wins) or once both sides agreed.

**States** (`PlayerEntry.state`): no row is *waiting*; one side's entry is *entered*; the
other side agreeing (its *Confirm*, or the same result entered with its own link) makes it
*confirmed*, disagreeing (*Not right*, or another result) *disputed* — after which either
side may enter again. A confirmed entry is stored as the table's result when the desk
approves it, or at once when the event accepts confirmed results by itself
(`auto_accept`); *accepted* then. A result the desk enters over the players' entry makes it
*replaced*. Every step is a line of the arbiter's log (`qr-entry`, `qr-confirm`,
`qr-dispute`, `result`) saying which side did what through its link, or that the desk did.

The players' sheet is checked by the event's game exactly as the desk's
(`table_result.make_result`), and the stored result is written by the results' one write
path (`ResultUseCases.write_table_result`, given to `TableLinkUseCases`), in the
transaction of the confirmation that accepts it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from ball.storage import ids
from ball.tournament import table_result, ties
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.knockout_draws import refuse_whole_result
from ball.tournament.models import (
    Event,
    LogEntry,
    Pairing,
    PlayerEntry,
    Result,
    Round,
    TableLinkKey,
)
from ball.tournament.store import Store
from ball.tournament.table_result import make_result

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ball.tournament.result_service import ResultUseCases

SIDES = ("A", "B")
MAC_BYTES = 16  # 128 bits
_TOKEN = re.compile(r"^([0-9]{1,10})-([0-9]{1,10})-([0-9]{1,10})([ab])-([A-Za-z0-9_-]{22})$")
WAITING, ENTERED, CONFIRMED, DISPUTED, ACCEPTED, REPLACED = (
    "waiting",
    "entered",
    "confirmed",
    "disputed",
    "accepted",
    "replaced",
)
SETTLED = (CONFIRMED, ACCEPTED, REPLACED)  # the players' say is over
# Why a link takes no entry (`LinkedTable.closed`), and the words of the refusal.
ROUND_CLOSED, RESULT_IN, AGREED = "round-closed", "result-in", "agreed"
CLOSED = {
    ROUND_CLOSED: "its round is closed",
    RESULT_IN: "the table's result is in",
    AGREED: "both sides agreed on the result",
}
# Who stored the result, as `_write_table_result(entered_by=)` names it.
BY_DESK, BY_APPROVAL, BY_ITSELF = "desk", "approved", "auto"


class BadLink(TournamentError):
    """No table has this link (a mistyped or guessed token)."""


class LinkClosed(TournamentError):
    """The link was a table's, but takes no entry any more (the message says why)."""


@dataclass(frozen=True)
class EntryView:
    """The players' entry of a table as the desk and the link's page show it."""

    side: str  # who entered it
    state: str
    document: dict[str, Any]  # {"sheet": ..., "form": {...}}: what was entered, as typed
    answered_by: str  # the other side (A, B), or who stored it (desk, auto)
    at: float


@dataclass(frozen=True)
class LinkedTable:
    """What a link opens: one side of one table of one round."""

    event_id: int
    event: str
    game: str
    round: int
    table: int
    side: str
    a: str
    b: str
    entry: EntryView | None
    closed: str  # "" while the link takes entries, else why not (a key of `CLOSED`)


def _mac(secret: str, event_id: int, number: int, table: int, side: str, pairing: Pairing) -> str:
    message = f"{event_id}:{number}:{table}:{side}:{pairing.a_id}:{pairing.b_id}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def token_of(secret: str, event_id: int, number: int, pairing: Pairing, side: str) -> str:
    mac = _mac(secret, event_id, number, pairing.table, side, pairing)
    return f"{event_id}-{number}-{pairing.table}{side.lower()}-{mac}"


def link_key(s: Session, event_id: int, *, create: bool) -> TableLinkKey | None:
    found = s.get(TableLinkKey, event_id)
    if found is None and create:
        values = {"event_id": event_id, "secret": secrets.token_hex(32), "auto_accept": False}
        if not table_result.insert_if_missing(s, TableLinkKey, values, ["event_id"]):
            s.add(TableLinkKey(**values))
        s.flush()
        found = s.get(TableLinkKey, event_id, populate_existing=True)
    return found


def _view(entry: PlayerEntry | None) -> EntryView | None:
    if entry is None:
        return None
    return EntryView(
        entry.side, entry.state, json.loads(entry.document), entry.answered_by, entry.at
    )


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def summary(result: Result, names: dict[str, str]) -> str:
    """A result in the log's words: who won, the score the game states, the reason."""
    data = json.loads(result.decision or "{}").get("decision", {})
    td = data.get("td")
    score = (
        f" {td[names['A']]}-{td[names['B']]}"
        if isinstance(td, dict) and names["A"] in td and names["B"] in td
        else ""
    )
    who = {"A": f"{names['A']} wins", "B": f"{names['B']} wins"}.get(result.outcome, "draw")
    reason = data.get("reason")
    return f"{who}{score}" + (f" ({reason})" if reason else "")


def settle(s: Session, ev: Event, pairing: Pairing, entered_by: str, now: float) -> None:
    """The table's result was just written (`_write_table_result`): its players' entry, if
    any, is settled, and the log says whose result it is."""
    entry = s.get(PlayerEntry, pairing.id)
    if entry is None or entry.state in (ACCEPTED, REPLACED):
        return
    other = _other(entry.side)
    if entered_by in (BY_APPROVAL, BY_ITSELF):
        entry.state, entry.answered_by = ACCEPTED, entered_by
        how = "approved by the desk" if entered_by == BY_APPROVAL else "accepted by itself"
        detail = f"entered by {entry.side} via QR, confirmed by {other} via QR, {how}"
    else:
        detail = (
            f"entered by the desk over the players' entry ({entry.state} by {entry.side} via QR)"
        )
        entry.state, entry.answered_by = REPLACED, BY_DESK
    entry.at = now
    _log_line(s, ev, "result", detail, pairing, now)


def _log_line(s: Session, ev: Event, kind: str, detail: str, pairing: Pairing, at: float) -> None:
    s.add(
        LogEntry(
            event_id=ev.id, kind=kind, detail=detail, at=at,
            round_number=pairing.round.number, table=pairing.table,
        )
    )  # fmt: skip


class TableLinkUseCases:
    """The players' result entry by table link (a use case of `TournamentService`)."""

    def __init__(self, store: Store, results: ResultUseCases) -> None:
        self.store = store
        self.results = results

    # ------------------------------------------------------------------ the desk's side

    def table_link_tokens(self, event_id: int, number: int) -> dict[int, dict[str, str]]:
        """Each two-player table of round `number` -> its side's token (A, B). The event's
        secret is made at the first call (a write); later calls only read."""
        for write in (False, True):
            with self.store.tx(write=write) as s:
                ev = self.store.known(s, event_id, full=False)
                if ties.has_minimatches(ev):  # its tables take their results game by game
                    return {}
                key = link_key(s, ev.id, create=write)
                if key is not None:
                    return {
                        p.table: {
                            side: token_of(key.secret, ev.id, number, p, side) for side in SIDES
                        }
                        for p in _pairings(s, ev.id, number)
                        if p.b_id is not None
                    }
        raise AssertionError("the secret was just made")  # pragma: no cover

    def player_entries(self, event_id: int, number: int) -> dict[int, EntryView]:
        """Each table of round `number` whose players entered something -> their entry."""
        with self.store.tx(write=False) as s:
            ev = self.store.known(s, event_id, full=False)
            rows = s.execute(
                select(Pairing.table, PlayerEntry)
                .join(PlayerEntry, PlayerEntry.pairing_id == Pairing.id)
                .join(Round, Round.id == Pairing.round_id)
                .where(Round.event_id == ev.id, Round.number == number)
            ).all()
            return {table: view for table, entry in rows if (view := _view(entry)) is not None}

    def accepts_confirmed(self, event_id: int) -> bool:
        """Whether the event stores results both sides confirmed without the desk."""
        with self.store.tx(write=False) as s:
            key = link_key(s, self.store.known(s, event_id, full=False).id, create=False)
            return bool(key is not None and key.auto_accept)

    def set_accepts_confirmed(self, event_id: int, on: bool) -> None:
        with self.store.tx() as s:
            ev = self.store.known(s, event_id, full=False)
            key = link_key(s, ev.id, create=True)
            assert key is not None
            if key.auto_accept != on:
                key.auto_accept = on
                detail = (
                    "confirmed results are accepted by themselves"
                    if on
                    else ("confirmed results wait for the desk's approval")
                )
                s.add(LogEntry(event_id=ev.id, kind="setting", detail=detail, at=time.time()))

    def approve_player_entry(
        self, event_id: int, number: int, table: int, at: float
    ) -> table_result.RecordedResult:
        """The desk stores the result both sides confirmed (the desk's own save)."""
        with self.store.tx() as s:
            ev = self.store.known(s, event_id, full=False)
            pairing = _pairing(s, ev.id, number, table)
            entry = s.get(PlayerEntry, pairing.id)
            if entry is None or entry.state != CONFIRMED:
                state = WAITING if entry is None else entry.state
                raise TournamentError(
                    f"round {number} table {table}: only a result both players confirmed "
                    f"can be approved (it is {state}); enter the result at the desk instead"
                )
            return self.results.write_table_result(
                s, ev, number, table, sheet=json.loads(entry.document)["sheet"], now=at,
                entered_by=BY_APPROVAL,
            )  # fmt: skip

    # --------------------------------------------------------------- the players' side

    def open_table_link(self, token: str) -> LinkedTable:
        """What `token` opens (`BadLink` when it opens nothing)."""
        with self.store.tx(write=False) as s:
            return self._linked(s, *self._resolve(s, token))

    def enter_by_link(
        self, token: str, sheet: dict[str, Any], form: dict[str, str], at: float
    ) -> LinkedTable:
        """One side enters its table's result (a played game's sheet, checked by the event's
        game as the desk's). Over the other side's entry: the same result confirms it,
        another one disputes it."""
        with self.store.tx() as s:
            ev, pairing, side = self._resolve(s, token)
            table_result.lock_state(s, pairing.id)  # serialised with the desk's saves
            self._refuse_closed(s, ev, pairing)
            refuse_whole_result(ev, pairing.round.number, pairing.table)
            new = make_result(ev, pairing, sheet, None, False)
            names = _names(pairing)
            entry = s.get(PlayerEntry, pairing.id)
            document = json.dumps({"sheet": sheet, "form": form}, sort_keys=True)
            if entry is not None and entry.side != side and entry.state == ENTERED:
                theirs = make_result(
                    ev, pairing, json.loads(entry.document)["sheet"], None, False
                )
                if theirs.sheet == new.sheet:
                    self._answer(s, ev, pairing, entry, side, agree=True, at=at)
                else:
                    self._answer(s, ev, pairing, entry, side, agree=False, at=at,
                                 theirs=summary(new, names))  # fmt: skip
                return self._linked(s, ev, pairing, side)
            if entry is None:
                entry = PlayerEntry(pairing_id=pairing.id)
                s.add(entry)
            entry.side, entry.document, entry.state = side, document, ENTERED
            entry.answered_by, entry.at = "", at
            _log_line(s, ev, "qr-entry", f"{side} via QR: {summary(new, names)}", pairing, at)
            s.flush()
            return self._linked(s, ev, pairing, side)

    def answer_by_link(self, token: str, agree: bool, at: float) -> LinkedTable:
        """The other side confirms (`agree`) or disputes the entry it is shown."""
        with self.store.tx() as s:
            ev, pairing, side = self._resolve(s, token)
            table_result.lock_state(s, pairing.id)
            self._refuse_closed(s, ev, pairing)
            entry = s.get(PlayerEntry, pairing.id)
            if entry is None or entry.state != ENTERED or entry.side == side:
                raise TournamentError(
                    "there is no entry of the other side to answer: enter the result instead"
                )
            self._answer(s, ev, pairing, entry, side, agree=agree, at=at)
            return self._linked(s, ev, pairing, side)

    # ------------------------------------------------------------------------ inside

    def _answer(
        self, s: Session, ev: Event, pairing: Pairing, entry: PlayerEntry, side: str,
        *, agree: bool, at: float, theirs: str = "",
    ) -> None:  # fmt: skip
        entry.answered_by, entry.at = side, at
        if not agree:
            entry.state = DISPUTED
            detail = f"{side} via QR disputes {entry.side}'s entry" + (
                f", entering: {theirs}" if theirs else ""
            )
            _log_line(s, ev, "qr-dispute", detail, pairing, at)
            return
        entry.state = CONFIRMED
        _log_line(s, ev, "qr-confirm", f"{side} via QR confirms {entry.side}'s entry", pairing, at)
        key = link_key(s, ev.id, create=False)
        if key is not None and key.auto_accept:
            s.flush()
            self.results.write_table_result(
                s, ev, pairing.round.number, pairing.table,
                sheet=json.loads(entry.document)["sheet"], now=at, entered_by=BY_ITSELF,
            )  # fmt: skip

    def _resolve(self, s: Session, token: str) -> tuple[Event, Pairing, str]:
        """The event, table and side of a token; `BadLink` unless its MAC is right."""
        found = _TOKEN.match(token) if isinstance(token, str) else None
        if found is None:
            raise BadLink("no table has this link")
        event_id, number, table = (int(found.group(i)) for i in (1, 2, 3))
        side = found.group(4).upper()
        if not all(ids.in_range(x) for x in (event_id, number, table)):
            raise BadLink("no table has this link")
        key = link_key(s, event_id, create=False)
        pairing = _pairing_or_none(s, event_id, number, table)
        if key is None or pairing is None or pairing.b_id is None:
            raise BadLink("no table has this link")
        expected = _mac(key.secret, event_id, number, table, side, pairing)
        if not hmac.compare_digest(expected.encode(), found.group(5).encode()):
            raise BadLink("no table has this link")
        return self.store.known(s, event_id, full=False), pairing, side

    @staticmethod
    def _closed(s: Session, ev: Event, pairing: Pairing) -> str:
        """Why the link takes no entry (`CLOSED`), or "" while it does."""
        latest = s.scalar(select(func.max(Round.number)).where(Round.event_id == ev.id))
        if latest is not None and latest > pairing.round.number:
            return ROUND_CLOSED
        if table_result.stored_result(s, pairing.id) is not None:
            return RESULT_IN
        entry = s.get(PlayerEntry, pairing.id)
        if entry is not None and entry.state in SETTLED:
            return AGREED
        return ""

    def _refuse_closed(self, s: Session, ev: Event, pairing: Pairing) -> None:
        closed = self._closed(s, ev, pairing)
        if closed:
            raise LinkClosed(
                f"round {pairing.round.number} table {pairing.table}: this link takes no "
                f"entry: {CLOSED[closed]}"
            )

    def _linked(self, s: Session, ev: Event, pairing: Pairing, side: str) -> LinkedTable:
        assert pairing.b is not None
        return LinkedTable(
            event_id=ev.id,
            event=ev.name,
            game=ev.game,
            round=pairing.round.number,
            table=pairing.table,
            side=side,
            a=pairing.a.name,
            b=pairing.b.name,
            entry=_view(s.get(PlayerEntry, pairing.id)),
            closed=self._closed(s, ev, pairing),
        )


def _names(pairing: Pairing) -> dict[str, str]:
    assert pairing.b is not None
    return {"A": pairing.a.name, "B": pairing.b.name}


def _pairings(s: Session, event_id: int, number: int) -> list[Pairing]:
    return list(
        s.scalars(
            select(Pairing)
            .join(Round, Round.id == Pairing.round_id)
            .where(Round.event_id == event_id, Round.number == number)
            .order_by(Pairing.table)
        )
    )


def _pairing_or_none(s: Session, event_id: int, number: int, table: int) -> Pairing | None:
    return s.scalars(
        select(Pairing)
        .join(Round, Round.id == Pairing.round_id)
        .where(Round.event_id == event_id, Round.number == number, Pairing.table == table)
    ).first()


def _pairing(s: Session, event_id: int, number: int, table: int) -> Pairing:
    if not (ids.in_range(number) and ids.in_range(table)):  # beyond the id type: nothing
        raise NotFound(f"round {number} has no table {table}")
    found = _pairing_or_none(s, event_id, number, table)
    if found is None:
        raise NotFound(f"round {number} has no table {table}")
    return found
