"""tests/built_once.py: a builder runs once per process and arguments, and every copy holds
its rows; a path that exists is built on directly; a builder that leaves its WAL is refused."""

from __future__ import annotations

import sqlite3

import pytest

from built_once import copy_of_built

CALLS: list[tuple[str, str]] = []


def _people(path: str, name: str) -> int:
    CALLS.append((path, name))
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS people (name TEXT)")
        db.execute("INSERT INTO people VALUES (?)", (name,))
    db.close()
    return len(CALLS)


def _names(path: str) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [row[0] for row in db.execute("SELECT name FROM people")]
    finally:
        db.close()


def test_each_copy_holds_the_rows_of_one_build_per_arguments(tmp_path):
    CALLS.clear()
    first = copy_of_built(str(tmp_path / "a.sqlite"), _people, "Ann")
    again = copy_of_built(str(tmp_path / "b.sqlite"), _people, "Ann")
    other = copy_of_built(str(tmp_path / "c.sqlite"), _people, "Bo")
    assert first == again == 1 and other == 2  # the build's own result, kept
    assert [name for _, name in CALLS] == ["Ann", "Bo"]
    assert not any(str(tmp_path) in path for path, _ in CALLS)  # built on files of its own
    assert _names(str(tmp_path / "a.sqlite")) == _names(str(tmp_path / "b.sqlite")) == ["Ann"]
    assert _names(str(tmp_path / "c.sqlite")) == ["Bo"]


def test_a_path_that_exists_is_built_on_directly(tmp_path):
    CALLS.clear()
    path = str(tmp_path / "there.sqlite")
    copy_of_built(path, _people, "Cy")
    copy_of_built(path, _people, "Cy")  # exists now: the builder adds its row again
    assert [p == path for p, _ in CALLS] == [False, True]  # the copy's build, then its own
    assert _names(path) == ["Cy", "Cy"]


def _leaves_its_wal(path: str) -> int:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    _leaves_its_wal.open = db  # type: ignore[attr-defined]  # still connected
    return 1


def test_a_builder_that_leaves_a_connection_open_is_refused(tmp_path):
    with pytest.raises(RuntimeError, match="left a connection open"):
        copy_of_built(str(tmp_path / "w.sqlite"), _leaves_its_wal)
    _leaves_its_wal.open.close()  # type: ignore[attr-defined]
