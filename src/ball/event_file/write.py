"""Export: one event's rows as the event file document (docs/deploy.md, "The event file").

    doc = event_document(connection, event_id)     # a dict, JSON-ready
    text = dumps(doc)                               # the file's text

The document is the same for the same event in any database: rows in the order of their
ids, ids renumbered 1..n per table, every value in one JSON form (instants as ISO 8601 in
UTC). Its `sha256` covers `event_uid` and `tables`, so a file cut short or edited by hand
is refused by the import, and two files of the same event are compared by it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Connection, DateTime, Engine, Select, select

from ball.event_file.tables import ENTRANT_IDS_IN_JSON, ENTRANTS, EVENTS, Part, parts

FORMAT = "ball-event"
VERSION = 1


class ExportError(ValueError):
    """The event's rows cannot be written as a file; the message is one line."""


@contextmanager
def snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection whose reads all see one moment of the database, so an export taken
    while the desk keeps writing holds no result without its pairing: a read transaction
    on SQLite (WAL keeps its snapshot), REPEATABLE READ on PostgreSQL."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            connection.exec_driver_sql("BEGIN")
            try:
                yield connection
            finally:
                connection.rollback()
        return
    connection = engine.connect().execution_options(isolation_level="REPEATABLE READ")
    with connection, connection.begin():
        yield connection


def _selection(part: Part, by_name: dict[str, Part], event_id: int) -> Select[Any]:
    """The query of the event's rows of one table (children through their parent's rows)."""
    t = part.table
    if part.name == EVENTS:
        return select(t).where(t.c.id == event_id)
    if part.event_column is not None:
        return select(t).where(part.event_column == event_id)
    assert part.parent is not None
    column, parent_name = part.parent
    parent = by_name[parent_name]
    assert parent.own_id is not None
    ids = _selection(parent, by_name, event_id).with_only_columns(parent.own_id)
    return select(t).where(column.in_(ids))


def selections(event_id: int) -> list[tuple[Part, Select[Any]]]:
    """(table, query of the event's rows) for every exported table, parents first."""
    every = parts()
    by_name = {p.name: p for p in every}
    return [(p, _selection(p, by_name, event_id)) for p in every]


def instant(value: datetime) -> str:
    """An instant in the file's one form (a naive value is UTC, as SQLite gives it back)."""
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat()


def _value(column: Column, value: Any) -> Any:
    if value is not None and isinstance(column.type, DateTime):
        return instant(value)
    return value


def _renumber_json(text: str, entrants: dict[int, int]) -> str:
    """A JSON text of nested lists of entrant ids with the file-local numbers in."""
    if not text:
        return text

    def walk(item: Any) -> Any:
        if isinstance(item, list):
            return [walk(x) for x in item]
        return None if item is None else entrants[int(item)]

    return json.dumps(walk(json.loads(text)))


def event_document(connection: Connection, event_id: int, uid: str) -> dict[str, Any]:
    """The event file's document of event `event_id` (whose identity is `uid`)."""
    local: dict[str, dict[int, int]] = {}  # table -> database id -> file-local number
    tables: dict[str, list[dict[str, Any]]] = {}
    for part, query in selections(event_id):
        rows = list(connection.execute(query).mappings())
        if part.own_id is not None:
            rows.sort(key=lambda r: r["id"])
            local[part.name] = {r["id"]: n for n, r in enumerate(rows, 1)}
        out = []
        for row in rows:
            item: dict[str, Any] = {}
            for column in part.columns:
                value = row[column.name]
                try:
                    if column.name == "id" and part.own_id is not None:
                        value = local[part.name][value]
                    elif column.name in part.refs and value is not None:
                        value = local[part.refs[column.name]][value]
                    elif (part.name, column.name) in ENTRANT_IDS_IN_JSON:
                        value = _renumber_json(value, local[ENTRANTS])
                except (KeyError, ValueError, TypeError):
                    raise ExportError(
                        f"{part.name}.{column.name} = {value!r} names no row of this event: "
                        "the database is inconsistent, nothing was written"
                    ) from None
                item[column.name] = _value(column, value)
            out.append(item)
        if part.own_id is None:  # keyed by what it refers to: in that order
            keys = (
                [c.name for c in part.table.primary_key.columns if c.name in out[0]] if out else []
            )
            out.sort(key=lambda r: [r[k] for k in keys])
        tables[part.name] = out
    return {
        "format": FORMAT,
        "version": VERSION,
        "event_uid": uid,
        "exported_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "sha256": content_hash(uid, tables),
        "tables": tables,
    }


def content_hash(uid: str, tables: dict[str, Any]) -> str:
    """The hash of what a file says about its event (not when it was exported)."""
    canonical = json.dumps(
        {"event_uid": uid, "tables": tables},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def dumps(document: dict[str, Any]) -> str:
    """The file's text: UTF-8 JSON, indented (a diff of two exports reads row by row)."""
    return json.dumps(document, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
