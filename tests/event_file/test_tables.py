"""Every table that belongs to an event is in the event file or left out with a reason
(issue 34): a new table with a link to an event (a foreign key chain to `tournament_events`,
or a column naming an event) that is in neither fails here, naming it. The check itself is
run on a synthetic table too, to prove that it fails when it should."""

from __future__ import annotations

import importlib
from pathlib import Path

from sqlalchemy import Column, ForeignKey, Integer, MetaData, Table

from ball.event_file.tables import EVENTS, LEFT_OUT, PARTS, PLAIN_EVENT_REFS
from ball.storage import Base

SRC = Path(__file__).resolve().parents[2] / "src"
# Column names that name an event without a foreign key (the clocks' and recorded games').
EVENT_WORDS = ("event_id", "desk_event", "event")


def import_every_models_module() -> None:
    """Every `models` module under src/ball, so every table is on the shared metadata."""
    for path in sorted((SRC / "ball").rglob("models.py")):
        importlib.import_module(".".join(path.relative_to(SRC).with_suffix("").parts))


def event_tables(metadata: MetaData) -> set[str]:
    """The tables linked to an event: by a column naming one, or a foreign key to such a
    table (followed to any depth)."""
    linked = {EVENTS}
    for table in metadata.tables.values():
        if any(c.name in EVENT_WORDS for c in table.columns):
            linked.add(table.name)
    while True:
        more = {
            t.name
            for t in metadata.tables.values()
            if t.name not in linked
            and any(fk.column.table.name in linked for c in t.columns for fk in c.foreign_keys)
        }
        if not more:
            return linked
        linked |= more


def unclassified(metadata: MetaData) -> list[str]:
    return sorted(event_tables(metadata) - set(PARTS) - set(LEFT_OUT))


def test_every_event_table_is_exported_or_left_out_with_a_reason():
    import_every_models_module()
    missing = unclassified(Base.metadata)
    assert not missing, (
        f"tables of an event in neither PARTS nor LEFT_OUT of ball/event_file/tables.py: "
        f"{missing}; export them (and fill them in tests/event_file/events.py) or say why not"
    )
    assert not set(PARTS) & set(LEFT_OUT)
    assert all(reason.strip() for reason in LEFT_OUT.values())


def test_the_check_finds_a_new_table_of_an_event_by_key_or_by_name():
    import_every_models_module()
    metadata = MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(metadata)
    Table("tournament_table_notes", metadata, Column("id", Integer, primary_key=True),
          Column("pairing_id", ForeignKey("tournament_pairings.id")))  # fmt: skip
    Table("web_boards", metadata, Column("id", Integer, primary_key=True),
          Column("event_id", Integer))  # fmt: skip
    Table("web_unrelated", metadata, Column("id", Integer, primary_key=True))
    assert unclassified(metadata) == ["tournament_table_notes", "web_boards"]


def test_plain_event_references_are_real_columns():
    for table, column in PLAIN_EVENT_REFS:
        assert column in Base.metadata.tables[table].c
