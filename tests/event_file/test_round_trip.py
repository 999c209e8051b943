"""`ball event export` then `ball event import` (issue 34): every kind of event, exported from
a SQLite file and imported into an empty SQLite file, gives the same file when exported
again (only `exported_at` differs; ids are file-local, so the databases' own ids may differ
and do), its standings read the same, and importing the same file a second time writes
nothing at all. The same into PostgreSQL: tests/storage/test_postgres_event_file.py."""

from __future__ import annotations

import json

import pytest

from ball.event_file.tables import PARTS

from .events import Source, build_source, round_trip


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Source:
    return build_source(tmp_path_factory.mktemp("source"))


def test_every_table_is_filled_by_some_event(source):
    """The events exercise every exported table, so the round trips below prove each one."""
    _, _, files = source
    filled = {
        name
        for path in files.values()
        for name, rows in json.loads(path.read_text())["tables"].items()
        if rows
    }
    assert filled == set(PARTS)


def test_round_trip_into_an_empty_sqlite_file(source, tmp_path):
    round_trip(str(tmp_path / "federation.sqlite"), source)
