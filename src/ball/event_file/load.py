"""Import: a checked event file's document into a database, in one transaction.

The event is found by its identity (`tournament_events.uid`, the file's `event_uid`):
- not in the database: it is created, with new ids;
- there, and what the database holds of it is the file's content (the same `sha256` as an
  export of it now): nothing is written ("unchanged"), so importing a file twice is safe;
- there with other content: the file wins. The event keeps its id (links to its pages stay
  good) and what the server keeps of its own (its desk PIN, recovery code, logins); every
  row the file holds is replaced by the file's ("replaced").
A fault anywhere rolls the whole import back: the database is as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Connection, DateTime, Engine, delete, insert, select, update
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm import sessionmaker

from ball import device_key
from ball.event_file.check import EventFileError
from ball.event_file.tables import (
    ENTRANT_IDS_IN_JSON,
    ENTRANTS,
    EVENTS,
    OMITTED,
    Part,
    parts,
    table,
)
from ball.event_file.write import event_document, selections
from ball.tournament.names import name_key
from ball.tournament.revisions import new_token


@dataclass(frozen=True)
class Imported:
    event_id: int
    name: str
    status: Literal["created", "replaced", "unchanged"]


def import_event(engine: Engine, doc: dict[str, Any]) -> Imported:
    """Create, replace or leave the file's event (`doc` as `check.parse` returned it)."""
    try:
        with engine.begin() as connection:
            _take_the_write_lock(connection)
            return _import(connection, doc)
    except (IntegrityError, DataError, OperationalError) as exc:
        raise EventFileError(f"rejected by the database, nothing was written: {exc.orig}") from None


def _take_the_write_lock(connection: Connection) -> None:
    """On SQLite, the transaction starts with the write lock (BEGIN IMMEDIATE), so that the
    look-up of the event and the writes are one step. An engine whose driver commits each
    statement itself (the tournament service sets that, to issue its own BEGINs) would
    otherwise keep the rows written before a fault: the BEGIN makes it one transaction."""
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.driver_connection
    if getattr(driver, "isolation_level", "") is None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _import(connection: Connection, doc: dict[str, Any]) -> Imported:
    uid: str = doc["event_uid"]
    events = table(EVENTS)
    head = doc["tables"][EVENTS][0]
    found = connection.scalar(select(events.c.id).where(events.c.uid == uid))
    if found is not None and event_document(connection, found, uid)["sha256"] == doc["sha256"]:
        return Imported(found, head["name"], "unchanged")
    key = name_key(head["name"])
    clash = connection.execute(
        select(events.c.id, events.c.uid).where(events.c.name_key == key)
    ).first()
    if clash is not None and clash.uid != uid:
        raise EventFileError(
            f"event {clash.id} of this database is named {head['name']!r} too and is another "
            "event (another uid): rename one of them first"
        )
    values = {**_values(_part(EVENTS), head, {}), "uid": uid, "name_key": key}
    if found is None:
        event_id = connection.scalar(insert(events).values(values).returning(events.c.id))
        assert event_id is not None
        status: Literal["created", "replaced"] = "created"
    else:
        event_id, status = found, "replaced"
        for part, query in reversed(selections(event_id)):
            if part.name != EVENTS:
                ids = query.with_only_columns(*part.table.primary_key.columns)
                _delete(connection, part, ids)
        connection.execute(update(events).where(events.c.id == event_id).values(values))
    _insert_rows(connection, doc["tables"], event_id)
    _reads_back(connection, event_id, head["game"])
    _renew_token(connection, event_id)
    return Imported(event_id, head["name"], status)


def _reads_back(connection: Connection, event_id: int, game: str) -> None:
    """The event as written reads back through the tournament service (its settings, log,
    corrections and standings), inside the import's transaction: a file whose rows are each
    well-formed but together no event the toolbox can show is refused, and nothing stays."""
    from ball.tournament import TournamentService

    sessions = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    svc = TournamentService.from_sessions(connection.engine, sessions)
    try:
        svc.events.event_info(event=event_id)
        svc.arbiter.log(event=event_id)
        svc.results.corrections(event=event_id)
        own = svc.own(game)  # a game ranking its own way (Mahjong's sessions)
        if own is not None:
            own.standings(event=event_id)
        else:
            svc.ranking.standings(event=event_id)
    except (IntegrityError, DataError, OperationalError):
        raise
    except Exception as exc:  # any fault reading it back is the file's: refuse the file
        raise EventFileError(
            f"the event does not read back ({type(exc).__name__}: {exc}); nothing was written"
        ) from None


def _part(name: str) -> Part:
    return next(p for p in parts() if p.name == name)


def _delete(connection: Connection, part: Part, ids: Any) -> None:
    keys = list(part.table.primary_key.columns)
    if len(keys) == 1:
        connection.execute(delete(part.table).where(keys[0].in_(ids)))
        return
    for row in connection.execute(ids).all():  # a composite key: row by row (few rows)
        match = [k == v for k, v in zip(keys, row, strict=True)]
        connection.execute(delete(part.table).where(*match))


def _insert_rows(connection: Connection, tables: dict[str, Any], event_id: int) -> None:
    new_ids: dict[str, list[int]] = {}  # table -> new id of file-local number n at n - 1
    for part, _ in selections(event_id):
        if part.name == EVENTS:
            continue
        rows = [_values(part, row, new_ids) for row in tables[part.name]]
        for row in rows:
            if part.event_column is not None:
                row[part.event_column.name] = event_id
            if (part.name, "device_key") in OMITTED:
                row["device_key"] = device_key.new_key()
            if (part.name, "pin_hash") in OMITTED:
                row["pin_hash"] = ""
        if part.own_id is not None:
            new_ids[part.name] = []
            if rows:
                statement = insert(part.table).returning(part.own_id, sort_by_parameter_order=True)
                new_ids[part.name] = list(connection.scalars(statement, rows))
        elif rows:
            connection.execute(insert(part.table), rows)


def _values(part: Part, row: dict[str, Any], new_ids: dict[str, list[int]]) -> dict[str, Any]:
    """A file row as the database's values (its own id left to the database)."""
    out: dict[str, Any] = {}
    for column in part.columns:
        value = row[column.name]
        if column.name == "id" and part.own_id is not None:
            continue
        if column.name in part.refs and value is not None:
            value = new_ids[part.refs[column.name]][value - 1]
        elif (part.name, column.name) in ENTRANT_IDS_IN_JSON and value:
            value = _renumber(value, new_ids[ENTRANTS])
        elif value is not None and isinstance(column.type, DateTime):
            value = datetime.fromisoformat(value)
        out[column.name] = value
    return out


def _renumber(text: str, entrants: list[int]) -> str:
    def walk(item: Any) -> Any:
        if isinstance(item, list):
            return [walk(x) for x in item]
        return None if item is None else entrants[item - 1]

    return json.dumps(walk(json.loads(text)))


def _renew_token(connection: Connection, event_id: int) -> None:
    """A new revision token: every cache of the event's pages, in any process, renders it
    again (`ball.tournament.revisions`)."""
    tokens = table("tournament_revisions")
    token = new_token()
    done = connection.execute(
        update(tokens).where(tokens.c.event_id == event_id).values(token=token)
    )
    if done.rowcount == 0:
        connection.execute(insert(tokens).values(event_id=event_id, token=token))
