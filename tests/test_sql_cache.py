"""The suite's shared compiled-SQL cache (tests/conftest.py, docs/testing.md): engines whose
dialects are configured alike reuse each other's compiled statements, with the right results;
a dialect configured differently, not yet connected or not comparable keeps its own; an engine
that asked for no cache gets none."""

from __future__ import annotations

import json
import os

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, insert, select

from ball.storage import make_engine
from conftest import SharedCompiledCache, dialect_fingerprint

PEOPLE = Table("people", MetaData(), Column("id", Integer, primary_key=True),
               Column("name", String))


def _names(engine, *names: str) -> tuple[list[str], object]:
    """Creates the table, stores `names`, reads them back; also how the read was compiled."""
    PEOPLE.metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(PEOPLE), [{"name": n} for n in names])
        result = conn.execute(select(PEOPLE.c.name).order_by(PEOPLE.c.id))
        return list(result.scalars()), result.context.cache_hit


def test_a_second_engine_reuses_the_first_ones_compiled_select(tmp_path):
    first, second = make_engine(tmp_path / "a.sqlite"), make_engine(tmp_path / "b.sqlite")
    try:
        assert first.dialect is not second.dialect
        names, hit = _names(first, "Ann", "Bo")
        assert names == ["Ann", "Bo"]
        assert hit in (first.dialect.CACHE_MISS, first.dialect.CACHE_HIT)
        names, hit = _names(second, "Cy")
        assert names == ["Cy"]  # its own database's rows, through the shared statement
        # BALL_TEST_SHARED_SQL=0 (the suite's cache off): each engine compiles its own.
        sharing = os.environ.get("BALL_TEST_SHARED_SQL") != "0"
        assert hit == (second.dialect.CACHE_HIT if sharing else second.dialect.CACHE_MISS)
    finally:
        first.dispose()
        second.dispose()


def test_an_engine_that_asked_for_no_cache_keeps_none(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'c.sqlite'}", query_cache_size=0)
    try:
        names, hit = _names(engine, "Di")
        assert names == ["Di"]
        assert hit == engine.dialect.CACHING_DISABLED
    finally:
        engine.dispose()


def _connected(**options):
    engine = create_engine("sqlite://", **options)
    with engine.connect():
        pass
    return engine


def test_the_fingerprint_names_the_configuration_not_the_object():
    plain, other, dumping = _connected(), _connected(), _connected(json_serializer=json.dumps)
    assert dialect_fingerprint(plain.dialect) == dialect_fingerprint(other.dialect)
    assert dialect_fingerprint(plain.dialect) != dialect_fingerprint(dumping.dialect)


def test_a_dialect_not_connected_or_not_comparable_is_keyed_by_itself():
    assert dialect_fingerprint(create_engine("sqlite://").dialect) is None
    dialect = _connected().dialect
    dialect.some_list = []  # a setting the fingerprint cannot compare
    assert dialect_fingerprint(dialect) is None
    cache = SharedCompiledCache(capacity=10)
    cache[(dialect, "statement")] = "compiled"
    assert cache.get((dialect, "statement")) == "compiled"
    assert cache.get((_connected().dialect, "statement")) is None


@pytest.mark.parametrize("first_options, second_options, shared", [
    ({}, {}, True),
    ({}, {"json_serializer": json.dumps}, False),
])
def test_the_cache_shares_only_between_alike_dialects(first_options, second_options, shared):
    cache = SharedCompiledCache(capacity=10)
    cache[(_connected(**first_options).dialect, "statement", ())] = "compiled"
    found = cache.get((_connected(**second_options).dialect, "statement", ()))
    assert found == ("compiled" if shared else None)
