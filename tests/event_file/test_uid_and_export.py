"""The event's identity and `ball event export`'s refusals (issue 34): migration
tournament_0008_uid gives every event an old database holds a uid of its own (and goes back
down), a new event gets one, and the export names what is wrong in one line."""

from __future__ import annotations

import json
import re

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from typer.testing import CliRunner

from ball.cli import app
from ball.storage import MIGRATIONS, make_engine, migrate
from ball.tournament import TournamentService

runner = CliRunner()
INSERT = (
    "INSERT INTO tournament_events (name, name_key, system, game, ruleset, scoring, tiebreaks, "
    "created_at) VALUES (:n, :n, 'swiss', 'ball', 'standard', '{}', '[]', 0)"
)


def _config(connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _uids(engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.scalars(text("SELECT uid FROM tournament_events ORDER BY id")))


@pytest.mark.real_migrations
def test_the_migration_gives_each_old_event_its_own_uid_and_goes_back_down(tmp_path):
    engine = make_engine(tmp_path / "old.sqlite")
    with engine.begin() as connection:
        command.upgrade(_config(connection), "tournament_0007_n")
        for name in ("Spring", "Autumn", "Winter"):
            connection.execute(text(INSERT), {"n": name})
    migrate(engine)
    uids = _uids(engine)
    assert len(set(uids)) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", u) for u in uids)
    svc = TournamentService(str(tmp_path / "old.sqlite"))
    svc.events.create_event(name="Summer", system="swiss")
    assert len(set(_uids(engine))) == 4
    with engine.begin() as connection:
        command.downgrade(_config(connection), "tournament_0007_n")
        columns = [
            row[1] for row in connection.execute(text("PRAGMA table_info(tournament_events)"))
        ]
    assert "uid" not in columns


def refused(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 2, done.output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_export_refusals_are_one_line_and_write_no_file(tmp_path):
    db = str(tmp_path / "venue.sqlite")
    TournamentService(db).events.create_event(name="Open", system="swiss")
    out = tmp_path / "out.json"
    assert "unknown event 7" in refused(
        "event", "export", "--db", db, "--event", "7", "-o", str(out)
    )
    missing = tmp_path / "no" / "out.json"
    assert "no such folder" in refused("event", "export", "--db", db, "-o", str(missing))
    absent = str(tmp_path / "absent.sqlite")
    assert "no database at" in refused("event", "export", "--db", absent, "-o", str(out))
    assert not out.exists() and not (tmp_path / "absent.sqlite").exists()


def test_export_to_standard_output_by_name_and_import_from_standard_input(tmp_path):
    db = str(tmp_path / "venue.sqlite")
    TournamentService(db).events.create_event(name="Open", system="swiss")
    done = runner.invoke(app, ["event", "export", "--db", db, "--event", "Open", "-o", "-"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert doc["format"] == "ball-event" and doc["tables"]["tournament_events"][0]["name"] == "Open"
    target = str(tmp_path / "federation.sqlite")  # made by the import
    piped = runner.invoke(app, ["event", "import", "-", "--db", target], input=done.stdout)
    assert piped.exit_code == 0 and piped.stdout == "event 1: Open: created\n", piped.output


def test_a_row_naming_another_events_entrant_is_refused_not_exported(tmp_path):
    """A database whose log names an entrant of another event (no key forbids it) gives one
    line and no file, never a file whose references the import would refuse."""
    db = str(tmp_path / "venue.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Open", system="swiss")
    svc.events.create_event(name="Other", system="swiss")
    svc.entrants.add_player("Zed", event="Other")
    engine = make_engine(db)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO tournament_log (event_id, kind, entrant_id, detail, at) "
                "VALUES (1, 'note', 1, 'misfiled', 0)"
            )
        )
    out = tmp_path / "out.json"
    message = refused("event", "export", "--db", db, "--event", "1", "-o", str(out))
    assert "tournament_log.entrant_id = 1 names no row of this event" in message
    assert not out.exists()
