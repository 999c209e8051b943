"""Whether a database is at head, read without Alembic: the stamp compare every open makes.

`migrate()` runs on every open (each CLI command, each app start), and nearly every time
the database is at head already. Importing Alembic and parsing its scripts to find that out
cost more than the command itself (issue 15). This module reads the revision graph from the
`revision`, `down_revision` and `depends_on` lines of `migrations/versions/*.py` (plain
literals, as Alembic writes them) and compares it with the `alembic_version` rows in one
SELECT. It answers True only when sure; anything else (no stamp table, a revision it does
not know, a script it cannot read) answers False, and `migrate` asks Alembic as before.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from sqlalchemy import Connection, inspect

_LINE = re.compile(r"^(revision|down_revision|depends_on)\s*(?::[^=]*)?=\s*(.+?)\s*$", re.M)

Graph = dict[str, tuple[str, ...]]  # revision -> the revisions it stands on


def _names(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError(f"not a revision reference: {value!r}")


@cache
def revision_graph(versions: Path) -> tuple[Graph, frozenset[str]] | None:
    """Each revision's parents and dependencies, and the heads; None if a script is not in
    the plain form this reader knows (then Alembic decides)."""
    graph: Graph = {}
    try:
        for script in sorted(versions.glob("*.py")):
            fields = {k: ast.literal_eval(v) for k, v in _LINE.findall(script.read_text())}
            revision = fields.get("revision")
            if not isinstance(revision, str) or revision in graph:
                return None
            graph[revision] = _names(fields.get("down_revision")) + _names(fields.get("depends_on"))
    except (OSError, ValueError, SyntaxError):
        return None
    below = {parent for parents in graph.values() for parent in parents}
    if not below <= graph.keys():
        return None
    return graph, frozenset(graph.keys() - below)


def surely_at_head(connection: Connection, versions: Path) -> bool:
    """True when the stored stamps, with everything they imply, cover every head."""
    found = revision_graph(versions)
    if found is None:
        return False
    graph, heads = found
    # Asked first, not caught after: a failed SELECT would abort a PostgreSQL transaction.
    if not inspect(connection).has_table("alembic_version"):
        return False  # no stamp table yet: a new database
    rows = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
    stored = [row[0] for row in rows]
    todo, applied = list(stored), set()
    while todo:
        revision = todo.pop()
        if revision not in graph:
            return False  # from newer code: Alembic reports it
        if revision not in applied:
            applied.add(revision)
            todo.extend(graph[revision])
    return heads <= applied
