"""The event's records (signals, first-half ends, sanctions, the log, corrections) take their
id, event and time columns from one mixin (`models.EventRecord`, issue 12) and still match
the tables the migrations create column for column, in the same order: no migration."""

from __future__ import annotations

from sqlalchemy import inspect

from ball.tournament import TournamentService
from ball.tournament.models import (
    EventRecord,
    HalfEnd,
    LogEntry,
    ResultCorrection,
    SanctionEntry,
    Signal,
)

RECORDS = (Signal, HalfEnd, SanctionEntry, LogEntry, ResultCorrection)


def test_the_records_match_their_migrated_tables_column_for_column(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    inspector = inspect(svc.engine)
    for model in RECORDS:
        assert issubclass(model, EventRecord)
        table = model.__table__
        migrated = inspector.get_columns(table.name)
        assert [c["name"] for c in migrated] == [c.name for c in table.columns], table.name
        for column, row in zip(table.columns, migrated, strict=True):
            assert column.nullable == row["nullable"], (table.name, column.name)
            assert column.type.compile(svc.engine.dialect) == row["type"].compile(
                svc.engine.dialect
            ), (table.name, column.name)
        (fk,) = [
            f
            for f in inspector.get_foreign_keys(table.name)
            if "event_id" in f["constrained_columns"]
        ]
        assert fk["referred_table"] == "tournament_events"
        assert fk["options"].get("ondelete") == "CASCADE"
        names = [c.name for c in table.columns]
        assert names[:2] == ["id", "event_id"] and "at" in names
