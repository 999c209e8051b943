"""Per-event revision tokens: whether anything a page shows of an event changed.

Every write to an event's rows (a result, a correction, a pairing, a withdrawal, a late
entry, a sanction, a signal, the event's own fields, Mahjong sheets, team line-ups ...)
gives the event a new random token in `tournament_revisions`, in the same transaction as
the write. Caches of what is derived from an event (the public display's pages) key on the
token: a changed token is a changed event, whichever process wrote it (the web server, the
CLI, a second server on the same file), because the token lives in the database.

The one place writes go through is the ORM session's flush, so the bump is a session event
listener (`before_flush` finds the events of the rows changed or deleted while they still
exist, `after_flush` those of new rows once their keys are known, and writes the tokens).
Bulk UPDATE/DELETE statements on an event's tables bypass the flush; `do_orm_execute`
sees them and renews every event's token (rare: team line-ups are replaced that way),
since their rows are not known. Which tables belong to an event: every `tournament_*` and
`desk_*` table except the bookkeeping that no page shows (`IGNORED`).

A token, not a counter, so that an event deleted and another created with the same id
(SQLite may reuse the largest id) can never meet a cache entry of the old one.
"""

from __future__ import annotations

import logging
import secrets
import weakref
from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Engine, Table, event, insert, select, update
from sqlalchemy.orm import ORMExecuteState, Session

from ball.tournament.models import Event, EventRevision, Pairing, Round, Team

# Tables of an event that no derived page shows: PIN, desk logins and their throttle, a
# result's optimistic version (written on every visit of a result form), the tokens, the
# table links' secret (made once, at the first print) and the players' entries before the
# desk stores them (only the desk's own, uncached, round page shows them).
IGNORED = frozenset(
    {
        "desk_access",
        "desk_sessions",
        "desk_pin_throttle",
        "desk_recovery",
        "desk_result_state",
        "desk_table_links",
        "desk_player_entries",
        "desk_mahjong_seat_entries",
        "tournament_revisions",
    }
)
_PENDING = "ball_revision_events"  # session.info key: event ids to renew at the next flush
_RENEWED = "ball_revision_renewed"  # session.info key: event ids renewed, told at commit
ALL = -1  # "every event": a change whose event is not known
LOG = logging.getLogger(__name__)


def new_token() -> str:
    return secrets.token_hex(8)


def token_of(session: Session, event_id: int) -> str | None:
    """The event's current token (None: no such event, or none stored yet)."""
    return session.scalar(select(EventRevision.token).where(EventRevision.event_id == event_id))


def _tracked(obj: object) -> bool:
    table = getattr(obj, "__tablename__", "")
    return table.startswith(("tournament_", "desk_")) and table not in IGNORED


def _event_of(session: Session, obj: Any) -> int | None:
    """The event a row belongs to, without lazy loads (plain key lookups on the connection,
    which never autoflush); None when it cannot be told (then every event is renewed)."""
    if isinstance(obj, Event):
        return obj.id
    loaded = vars(obj)
    if loaded.get("event_id") is not None:
        return int(loaded["event_id"])
    connection = session.connection()
    if loaded.get("round_id") is not None:
        query = select(Round.event_id).where(Round.id == loaded["round_id"])
        return connection.scalar(query)
    if loaded.get("pairing_id") is not None:
        query = (
            select(Round.event_id)
            .join(Pairing, Pairing.round_id == Round.id)
            .where(Pairing.id == loaded["pairing_id"])
        )
        return connection.scalar(query)
    if loaded.get("team_id") is not None:
        return connection.scalar(select(Team.event_id).where(Team.id == loaded["team_id"]))
    for parent in ("round", "pairing", "event"):  # a new row tied by its relationship only
        if loaded.get(parent) is not None:
            return _event_of(session, loaded[parent])
    return None


def _collect(session: Session, rows: Any) -> None:
    pending: set[int] = session.info.setdefault(_PENDING, set())
    for obj in rows:
        if _tracked(obj):
            found = _event_of(session, obj)
            pending.add(ALL if found is None else found)


def _renew(session: Session, event_ids: set[int]) -> None:
    session.info.setdefault(_RENEWED, set()).update(event_ids)
    connection = session.connection()
    token = new_token()
    table = cast(Table, EventRevision.__table__)
    if ALL in event_ids:
        connection.execute(update(table).values(token=token))
        return
    for event_id in sorted(event_ids):
        done = connection.execute(
            update(table).where(table.c.event_id == event_id).values(token=token)
        )
        if done.rowcount == 0:  # a new event (or one stored before tokens existed)
            exists = connection.scalar(select(Event.id).where(Event.id == event_id))
            if exists is not None:
                connection.execute(insert(table).values(event_id=event_id, token=token))


@event.listens_for(Session, "before_flush")
def _before_flush(session: Session, _context: Any, _instances: Any) -> None:
    # Changed and deleted rows still exist now: their event can be looked up.
    changed = [obj for obj in session.dirty if session.is_modified(obj)]
    _collect(session, changed + list(session.deleted))


@event.listens_for(Session, "after_flush")
def _after_flush(session: Session, _context: Any) -> None:
    _collect(session, session.new)  # new rows have their keys now
    pending: set[int] = session.info.pop(_PENDING, set())
    if pending:
        _renew(session, pending)


@event.listens_for(Session, "do_orm_execute")
def _bulk_write(state: ORMExecuteState) -> None:
    if not (state.is_update or state.is_delete or state.is_insert):
        return
    mapper = state.bind_mapper
    if mapper is not None and _tracked(mapper.class_):
        _renew(state.session, {ALL})


# Who wants to know, once a write commits, which events it renewed (the public display
# renders the watched pages again): per engine, held weakly (a listener's owner may go).
_Listener = Callable[[set[int]], None]
_LISTENERS: weakref.WeakKeyDictionary[Engine, list[weakref.WeakMethod[_Listener]]] = (
    weakref.WeakKeyDictionary()
)


def on_commit(engine: Engine, listener: _Listener) -> None:
    """Call the bound method `listener` with the ids of the events a committed transaction
    on `engine` renewed (`ALL` among them: every event) after each such commit, in the
    writer's thread: it must return at once. Writes of other processes are not seen here
    (their tokens are)."""
    listeners = _LISTENERS.setdefault(engine, [])
    listeners[:] = [ref for ref in listeners if ref() is not None]  # owners gone: dropped
    listeners.append(weakref.WeakMethod(listener))


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    renewed: set[int] = session.info.pop(_RENEWED, set())
    bind = session.bind
    engine = bind if isinstance(bind, Engine) else getattr(bind, "engine", None)
    if not renewed or not isinstance(engine, Engine):
        return
    for ref in list(_LISTENERS.get(engine, [])):
        listener = ref()
        if listener is None:
            continue
        try:
            listener(set(renewed))
        except Exception:  # the write is committed: its caller must not see an error
            LOG.exception("after the commit of events %s: a listener failed", renewed)


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_RENEWED, None)  # nothing was written
