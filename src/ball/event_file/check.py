"""Reading an event file: its text to a checked document, or one line naming what is wrong.

Everything the import relies on is checked before the database is touched: the format and
version, the hash over the content (a file cut short or edited by hand), every table and
column by name, every value against its column's type, length and nullability, the
file-local ids (1..n in order) and every reference between rows. What only the database can
tell (a unique name, a second row for one table of a round) is refused by it, inside the
import's one transaction.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Column, DateTime, Float, Integer, String

from ball.event_file.tables import ENTRANT_IDS_IN_JSON, ENTRANTS, EVENTS, JSON_TEXT, Part, parts
from ball.event_file.write import FORMAT, VERSION, content_hash
from ball.tournament.errors import TournamentError
from ball.tournament.names import check_name, look_alike_key

# Names the service checks when it registers them: the file's must pass the same checks
# (one line of printable text, no direction override that could disguise a name).
NAMES = {(EVENTS, "name"): "event name", (ENTRANTS, "name"): "entrant name",
         ("tournament_teams", "name"): "team name"}  # fmt: skip
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # PostgreSQL's INTEGER, the narrower of the two
UID = re.compile(r"[0-9a-f]{32}")
HEAD = ("format", "version", "event_uid", "exported_at", "sha256", "tables")
MAX_BYTES = 200 * 1024 * 1024  # far above any event (a 400-player Swiss is ~5 MB)


class EventFileError(ValueError):
    """An event file that cannot be imported; the message is one line naming the fault."""


def parse(text: str) -> dict[str, Any]:
    """The checked document of an event file's text."""
    if len(text) > MAX_BYTES:
        raise EventFileError(f"larger than {MAX_BYTES // 2**20} MB: not an event file")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventFileError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise EventFileError("JSON nested too deeply") from None
    check(doc)
    return doc


def check(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise EventFileError(f'not an event file (its "format" must be "{FORMAT}")')
    if doc.get("version") != VERSION:
        raise EventFileError(
            f"event file version {doc.get('version')!r}: this toolbox reads version {VERSION}"
        )
    unknown = sorted(set(doc) - set(HEAD))
    missing = [k for k in HEAD if k not in doc]
    if unknown or missing:
        raise EventFileError(f"unknown keys {unknown}" if unknown else f"missing {missing[0]!r}")
    uid = doc["event_uid"]
    if not isinstance(uid, str) or UID.fullmatch(uid) is None:
        raise EventFileError("event_uid: not 32 lowercase hexadecimal digits")
    tables = doc["tables"]
    if not isinstance(tables, dict):
        raise EventFileError("tables: not an object")
    if content_hash(uid, tables) != doc["sha256"]:
        raise EventFileError(
            "sha256 does not match the content: the file was cut short or changed after export"
        )
    every = parts()
    names = [p.name for p in every]
    if extra := sorted(set(tables) - set(names)):
        raise EventFileError(f"unknown table {extra[0]!r}")
    if absent := [n for n in names if n not in tables]:
        raise EventFileError(f"table {absent[0]!r} is missing")
    counts: dict[str, int] = {}
    for part in every:
        rows = tables[part.name]
        if not isinstance(rows, list):
            raise EventFileError(f"{part.name}: not a list of rows")
        if part.name == EVENTS and len(rows) != 1:
            raise EventFileError(f"{EVENTS}: {len(rows)} rows, an event file holds one event")
        for n, row in enumerate(rows, 1):
            _row(part, n, row, counts)
        counts[part.name] = len(rows)
    _no_look_alikes([row["name"] for row in tables[ENTRANTS]])


def _no_look_alikes(names: list[str]) -> None:
    """Two entrants of one event may not look alike (`names.look_alike_key`), as the
    service refuses at registration: a public page could not tell them apart."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(look_alike_key(name), name)
        if other != name:
            raise EventFileError(f"entrant names {other!r} and {name!r} look alike")


def _row(part: Part, n: int, row: Any, counts: dict[str, int]) -> None:
    where = f"{part.name} row {n}"
    if not isinstance(row, dict):
        raise EventFileError(f"{where}: not an object")
    expected = [c.name for c in part.columns]
    if extra := sorted(set(row) - set(expected)):
        raise EventFileError(f"{where}: unknown column {extra[0]!r}")
    if absent := [c for c in expected if c not in row]:
        raise EventFileError(f"{where}: column {absent[0]!r} is missing")
    for column in part.columns:
        value = row[column.name]
        what = f"{where}, {column.name}"
        if column.name == "id" and part.own_id is not None:
            if value != n or isinstance(value, bool):
                raise EventFileError(f"{what}: {value!r}, the rows' ids are 1, 2, 3 ... in order")
        elif column.name in part.refs:
            _reference(what, value, column, counts.get(part.refs[column.name], 0))
        elif (part.name, column.name) in ENTRANT_IDS_IN_JSON:
            _entrant_ids(what, value, counts.get(ENTRANTS, 0))
        else:
            _value(what, value, column)
            if (part.name, column.name) in JSON_TEXT and value:
                _json_text(what, value)
            if (label := NAMES.get((part.name, column.name))) is not None:
                _name(what, value, label)


def _reference(what: str, value: Any, column: Column, count: int) -> None:
    if value is None and column.nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= count:
        raise EventFileError(f"{what}: {value!r} is no row of the table it refers to")


def _entrant_ids(what: str, value: Any, count: int) -> None:
    if not isinstance(value, str):
        raise EventFileError(f"{what}: not a text")
    if not value:
        return

    def walk(item: Any) -> None:
        if isinstance(item, list):
            for x in item:
                walk(x)
        elif item is not None and (
            not isinstance(item, int) or isinstance(item, bool) or not 1 <= item <= count
        ):
            raise EventFileError(f"{what}: {item!r} is no entrant of the file")

    try:
        walk(json.loads(value))
    except (json.JSONDecodeError, RecursionError):
        raise EventFileError(f"{what}: not JSON lists of entrant numbers") from None


def _name(what: str, value: str, label: str) -> None:
    try:
        stored = check_name(value, label)
    except TournamentError as exc:
        raise EventFileError(f"{what}: {exc}") from None
    if stored != value or not stored:
        raise EventFileError(f"{what}: {value!r} is not a name as the toolbox stores one")


def _json_text(what: str, text: str) -> None:
    try:
        json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise EventFileError(f"{what}: not JSON, as this column holds") from None


def _value(what: str, value: Any, column: Column) -> None:
    if value is None:
        if column.nullable and not column.primary_key:
            return
        raise EventFileError(f"{what}: null where a value is required")
    kind = column.type
    if isinstance(kind, Boolean):
        ok = isinstance(value, bool)
    elif isinstance(kind, Integer):
        ok = isinstance(value, int) and not isinstance(value, bool) and INT_MIN <= value <= INT_MAX
    elif isinstance(kind, Float):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    elif isinstance(kind, DateTime):
        ok = isinstance(value, str) and _instant(value)
    elif isinstance(kind, String):  # Text too
        ok = isinstance(value, str)
        if ok and "\x00" in value:
            raise EventFileError(f"{what}: a NUL character")
        limit = kind.length or column.info.get("max_chars")
        if ok and limit is not None and len(value) > limit:
            raise EventFileError(f"{what}: {len(value)} characters, at most {limit}")
    else:  # pragma: no cover - a column type the file does not know yet
        raise EventFileError(f"{what}: a column of type {kind} the event file cannot hold")
    if not ok:
        raise EventFileError(f"{what}: {value!r} is not a {_type_word(column)}")


def _instant(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def _type_word(column: Column) -> str:
    kind = column.type
    if isinstance(kind, Boolean):
        return "true/false"
    if isinstance(kind, Integer):
        return "whole number within 32 bits"
    if isinstance(kind, Float):
        return "number"
    if isinstance(kind, DateTime):
        return "ISO 8601 instant with its UTC offset"
    return "text"
