"""The event file's round trip into PostgreSQL (issue 34): every kind of event exported from
a venue's SQLite file, imported into an empty PostgreSQL database, exports again to the
same file, reads the same standings, and a second import of each file writes nothing."""

from __future__ import annotations

import pytest

from event_file.events import Source, build_source, round_trip


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Source:
    return build_source(tmp_path_factory.mktemp("source"))


def test_round_trip_into_an_empty_postgresql_database(source, fresh_postgres_url):
    round_trip(fresh_postgres_url, source)
