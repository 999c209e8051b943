"""The tournament's store: the database every use case of `TournamentService` shares.

`Store` opens the database (a file path or a SQLAlchemy URL), runs one transaction per use
case (`tx`: on SQLite a writing one takes the write lock at once, BEGIN IMMEDIATE) or a
read that cannot write (`read_only`), finds an event by id or name (`event`, `known`,
`paired_event`), an entrant or a round of it, and appends to the arbiter's log (`log`).
The event's revision token is bumped by the session's flush (`revisions`), so every write
through `tx` bumps it. Nothing here knows a format or a game.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from ball.storage import ids, locks, open_database
from ball.storage.lengths import TextTooLong
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.models import Entrant, Event, LogEntry, Pairing, Round
from ball.tournament.names import look_alike_key, name_key

EventRef = int | str | None
LIMIT = ids.MAX_ID  # numbers beyond this are no round, table or event (one id type)


def bounded(value: int | None, label: str) -> None:
    """Refuse a round, table or entrant number no id can hold."""
    if value is not None and not 0 <= value <= LIMIT:
        raise TournamentError(f"{label} {value} is out of range")


class Store:
    """The database of one or more events (a file path or a SQLAlchemy URL)."""

    def __init__(self, db: str | os.PathLike[str] | None = None):
        try:
            self.engine, self.sessions = open_database(db)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        except OperationalError as exc:
            raise TournamentError(f"cannot open the database: {exc.orig}") from None
        self.explicit_begin = self.engine.dialect.name == "sqlite"
        if self.explicit_begin:
            _driver_autocommit(self.engine)

    @classmethod
    def from_sessions(cls, engine: Engine, sessions: sessionmaker[Session]) -> Store:
        """A store on an engine and session factory already opened and migrated by the
        caller (the web app shares its own; an in-memory database cannot be opened twice)."""
        store = object.__new__(cls)
        store.engine, store.sessions = engine, sessions
        store.explicit_begin = False  # the caller's engine keeps its own driver settings
        return store

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def tx(self, write: bool = True) -> Iterator[Session]:
        """One transaction; any failure rolls everything back.

        On a SQLite database this store opened, a writing transaction takes the write
        lock at once (BEGIN IMMEDIATE): its reads and writes are one atomic step and
        concurrent writers queue on the busy timeout; reading transactions never wait."""
        session = self.sessions()
        try:
            with session.begin():
                if self.explicit_begin:
                    session.connection().exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
                yield session
        except (IntegrityError, DataError) as exc:
            # DataError: PostgreSQL checks what SQLite lets through (VARCHAR lengths, NUL).
            raise TournamentError(f"rejected by the database: {exc.orig}") from None
        except TextTooLong as exc:  # a text past its column's limit (ball.storage.lengths)
            raise TournamentError(str(exc)) from None
        except OperationalError as exc:
            raise TournamentError(f"database error, nothing was written: {exc.orig}") from None
        finally:
            session.close()

    @contextmanager
    def read_only(self) -> Iterator[Session]:
        """A session on one connection whose transaction cannot write, rolled back at the
        end (never committed)."""
        sqlite = self.engine.dialect.name == "sqlite"
        with self.engine.connect() as conn:
            if sqlite:  # before the transaction: a pragma the connection keeps till reset
                conn.exec_driver_sql("PRAGMA query_only = ON")
            try:
                if sqlite and self.explicit_begin:  # the driver begins nothing itself
                    conn.exec_driver_sql("BEGIN")
                elif not sqlite:
                    conn.exec_driver_sql("SET TRANSACTION READ ONLY")
                with Session(bind=conn) as s:
                    yield s
            finally:
                conn.rollback()
                if sqlite:  # the pooled connection goes back as it came
                    conn.exec_driver_sql("PRAGMA query_only = OFF")
                    conn.rollback()

    # ------------------------------------------------------------------ events

    def paired_event(self, s: Session, ref: EventRef) -> Event:
        """The event, read after taking its pairing lock (`ball.storage.locks`): one pairing,
        override or unpairing of an event at a time across every process, each seeing the
        rounds the one before it stored (two at once both read N rounds and both stored
        round N+1: the second refused by the unique key, as a database error)."""
        if not locks.takes_effect(s):  # SQLite: the transaction holds the write lock
            return self.event(s, ref)
        found = self.event(s, ref, full=False)
        locks.hold(s, locks.PAIRING, found.id)
        s.expunge(found)  # read again below, after the lock: its rounds as they are now
        return self.event(s, found.id)

    def event(self, s: Session, ref: EventRef, *, full: bool = True) -> Event:
        """The event `ref` (id or name; None: the latest created), with everything
        standings, pairing and the TRF need loaded when `full`."""
        query = select(Event)
        if full:  # everything standings, pairing and the TRF need, in four queries
            query = query.options(
                selectinload(Event.entrants),
                selectinload(Event.rounds_)
                .selectinload(Round.pairings)
                .selectinload(Pairing.result),
            )
        if ref is None:
            event = s.scalars(query.order_by(Event.id.desc()).limit(1)).first()
            if event is None:
                raise TournamentError(
                    "unknown event: this database holds no event (create one with "
                    "'ball event create')"
                )
            return event
        if isinstance(ref, int) or (isinstance(ref, str) and ids.is_digits(ref)):
            if int(ref) > LIMIT:
                raise TournamentError(f"unknown event {ref!r}")
            event = s.scalars(query.where(Event.id == int(ref))).first()
        else:
            event_id = self.event_id_by_name(s, str(ref))
            event = s.scalars(query.where(Event.id == event_id)).first()
        if event is None:
            raise TournamentError(f"unknown event {ref!r}")
        return event

    def known(self, s: Session, event_id: int, *, full: bool = True) -> Event:
        """`event` for a page: an event that does not exist is `NotFound` (a 404)."""
        try:
            return self.event(s, event_id, full=full)
        except TournamentError as exc:
            raise NotFound(str(exc)) from None

    @staticmethod
    def event_id_by_name(s: Session, ref: str) -> int | None:
        """The id of the one event named `ref` (same name as `names.name_key` decides);
        several such events (a database from before names were unique, or an impostor)
        are refused with their ids, so nothing picks one of them silently."""
        key = name_key(ref)
        found = [i for i, n in s.execute(select(Event.id, Event.name)) if name_key(n) == key]
        if len(found) > 1:
            listed = ", ".join(str(i) for i in sorted(found))
            raise TournamentError(
                f"event name {ref!r} is ambiguous: events {listed} have it; pass the id "
                f"instead (e.g. --event {min(found)} or #{min(found)})"
            )
        return found[0] if found else None

    @staticmethod
    def refuse_taken_name(s: Session, name: str) -> None:
        """Refuse a new event whose name is already an event's (see `names.name_key`)."""
        key = name_key(name)
        for event_id, existing in s.execute(select(Event.id, Event.name)):
            if name_key(existing) == key:
                raise TournamentError(
                    f"an event named {existing!r} already exists (id {event_id}); "
                    "choose another name"
                )

    # ------------------------------------------------------------------ entrants, rounds

    @staticmethod
    def refuse_look_alike_entrant(s: Session, event: Event, name: str) -> None:
        """Refuse an entrant whose name looks like a registered one's (`look_alike_key`:
        the same skeleton, another spelling): on a pairing list, a standings table or a
        printed form the two could not be told apart."""
        key = look_alike_key(name)
        for existing in s.scalars(select(Entrant.name).where(Entrant.event_id == event.id)):
            if look_alike_key(existing) == key:
                raise TournamentError(
                    f"entrant name {name!r} looks like {existing!r}, already registered in "
                    f"{event.name!r}; choose a name that can be told apart"
                )

    @staticmethod
    def entrant(event: Event, name: str) -> Entrant:
        """The entrant named `name` of an event loaded with its field."""
        for e in event.entrants:
            if e.name == name:
                return e
        raise no_entrant(event, name)

    @staticmethod
    def find_entrant(s: Session, event: Event, name: str) -> Entrant | None:
        """The entrant named `name` by one query, for a write that needs one entrant and
        not the field (names are unique in an event; SQL `=` on text compares as Python's
        `==` does, without collation)."""
        if "\x00" in name and s.get_bind().dialect.name != "sqlite":
            return None  # PostgreSQL refuses NUL in text, so it stores no such name
        return s.scalars(
            select(Entrant).where(Entrant.event_id == event.id, Entrant.name == name)
        ).first()

    def entrant_named(self, s: Session, event: Event, name: str) -> Entrant:
        """`entrant` without loading the field (`find_entrant`)."""
        found = self.find_entrant(s, event, name)
        if found is None:
            raise no_entrant(event, name)
        return found

    @staticmethod
    def count(s: Session, model: type[Entrant] | type[Round], event: Event) -> int:
        """How many entrants or rounds the event has (`len(ev.entrants)`, `len(ev.rounds_)`)
        by one count, for a write that needs only that number."""
        return s.scalar(select(func.count()).where(model.event_id == event.id)) or 0

    @staticmethod
    def round(ev: Event, number: int) -> Round:
        """Round `number` of an event loaded with its rounds."""
        for r in ev.rounds_:
            if r.number == number:
                return r
        raise TournamentError(f"round {number} is not paired")

    # ------------------------------------------------------------------ the log

    @staticmethod
    def log(s: Session, event: Event, kind: str, detail: str, **where: Any) -> None:
        """Append a line to the arbiter's log of the event, in the caller's transaction."""
        s.add(LogEntry(event_id=event.id, kind=kind, detail=detail, at=time.time(), **where))


def no_entrant(event: Event, name: str) -> TournamentError:
    return TournamentError(f"no entrant named {name!r} in event {event.name!r}")


def _driver_autocommit(engine: Engine) -> None:
    """Let `tx` emit BEGIN itself (pysqlite would otherwise begin late, at the first write,
    leaving the reads before it outside the transaction)."""
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def _no_implicit_begin(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    engine.dispose()  # connections opened by the migration get the new settings too
