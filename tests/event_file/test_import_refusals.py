"""`ball event import` refuses a bad file in one line (exit 2) and writes nothing (issue 34):
not JSON, another format or version, content changed after export, a dangling reference, a
value of the wrong type, a row the database refuses half-way through the import, a name
another event of the database has. A newer file of an event already imported replaces its
content and keeps its id and the server's own desk PIN; the same file again changes nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.event_file.write import content_hash
from ball.storage import open_database
from ball.tournament import TournamentService
from ball.web.core.models import DeskAccess

from .events import every_row, export, ok, without_time

runner = CliRunner()


@pytest.fixture
def files(tmp_path) -> tuple[str, Path]:
    """A small Swiss with one result in `venue.sqlite`, exported to `open.json`."""
    venue = str(tmp_path / "venue.sqlite")
    svc = TournamentService(venue)
    svc.events.create_event(name="Open", system="swiss", rounds=3, draw_lots=1)
    for name in ("Ann", "Bob", "Cid", "Dan"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, forfeit="A")
    path = tmp_path / "open.json"
    export(venue, 1, path)
    return venue, path


def target_with_an_event(tmp_path) -> str:
    db = str(tmp_path / "federation.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Autumn", system="round-robin")
    svc.entrants.add_player("Eve")
    return db


def refused(path: Path, db: str) -> str:
    done = runner.invoke(app, ["event", "import", str(path), "--db", db])
    assert done.exit_code == 2, done.output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def edited(path: Path, change, rehash: bool = True) -> Path:
    doc = json.loads(path.read_text())
    change(doc)
    if rehash:
        doc["sha256"] = content_hash(doc["event_uid"], doc["tables"])
    out = path.with_name("edited.json")
    out.write_text(json.dumps(doc))
    return out


def set_pairing_a(doc, value):
    doc["tables"]["tournament_pairings"][0]["a_id"] = value


CASES = {
    "not JSON": (lambda p: p.with_name("x.json").write_text("{nope") and p.with_name("x.json"),
                 "not valid JSON (line 1"),
    "another format": (lambda p: edited(p, lambda d: d.update(format="trf")),
                       'not an event file (its "format" must be "ball-event")'),
    "a newer version": (lambda p: edited(p, lambda d: d.update(version=2)),
                        "event file version 2: this toolbox reads version 1"),
    "changed after export": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_entrants"][0].update(name="Zed"),
                         rehash=False),
        "sha256 does not match the content"),
    "a dangling reference": (lambda p: edited(p, lambda d: set_pairing_a(d, 99)),
                             "tournament_pairings row 1, a_id: 99 is no row"),
    "a wrong type": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_entrants"][0].update(rating="high")),
        "tournament_entrants row 1, rating: 'high' is not a whole number"),
    "a disguised name": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_entrants"][0].update(
            name="Ann\u202eevil")),
        "tournament_entrants row 1, name: entrant name must be one line of printable text"),
    "look-alike entrants": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_entrants"][1].update(
            name="\u0410nn")),  # a Cyrillic А
        "entrant names 'Ann' and 'Аnn' look alike"),
    "a missing table": (lambda p: edited(p, lambda d: d["tables"].pop("desk_sanctions")),
                        "table 'desk_sanctions' is missing"),
    "a sheet that is not JSON": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_events"][0].update(scoring="{win")),
        "tournament_events row 1, scoring: not JSON"),
    # Each row well-formed, the event not: the service reads it back before the commit.
    "an event that does not read back": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_events"][0].update(
            tiebreaks='["no such tie-break"]')),
        "the event does not read back"),
    # Two entrants with one name: only the database's unique key can tell, after the event
    # row and the first entrant are written. The transaction takes them back.
    "a row the database refuses": (
        lambda p: edited(p, lambda d: d["tables"]["tournament_entrants"][1].update(name="Ann")),
        "rejected by the database, nothing was written"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_file_is_refused_in_one_line_and_nothing_is_written(case, files, tmp_path):
    _, path = files
    db = target_with_an_event(tmp_path)
    before = every_row(db)
    make, message = CASES[case]
    assert message in refused(make(path), db)
    assert every_row(db) == before


def test_an_event_of_the_same_name_is_not_overwritten(files, tmp_path):
    _, path = files
    db = str(tmp_path / "federation.sqlite")
    TournamentService(db).events.create_event(name="OPEN", system="swiss")  # the same name key
    before = every_row(db)
    assert "event 1 of this database is named 'Open' too and is another event" in refused(path, db)
    assert every_row(db) == before


def test_a_missing_file_is_one_line(tmp_path):
    assert "no such file" in refused(tmp_path / "absent.json", str(tmp_path / "db.sqlite"))


def test_a_newer_export_replaces_the_event_and_keeps_its_id_and_desk_pin(files, tmp_path):
    venue, first = files
    db = target_with_an_event(tmp_path)
    assert ok("event", "import", str(first), "--db", db) == "event 2: Open: created\n"
    _, sessions = open_database(db)
    with sessions() as session:  # the federation's own desk PIN for the event
        session.add(DeskAccess(event_id=2, pin_hash="scrypt$x", created_at=time.time()))
        session.commit()
    TournamentService(venue).results.enter_result(1, 2, forfeit="B")
    TournamentService(venue).arbiter.give_sanction("warning", "late", player="Ann")
    second = tmp_path / "open-2.json"
    export(venue, 1, second)
    assert ok("event", "import", str(second), "--db", db) == "event 2: Open: replaced\n"
    assert without_time(export(db, 2, tmp_path / "back.json")) == without_time(
        json.loads(second.read_text())
    )
    with sessions() as session:
        assert session.get(DeskAccess, 2) is not None
    rows = every_row(db)
    assert ok("event", "import", str(second), "--db", db) == "event 2: Open: unchanged\n"
    assert every_row(db) == rows
    # The file wins: an older export brings the event back to what that file says.
    assert ok("event", "import", str(first), "--db", db) == "event 2: Open: replaced\n"
    assert len(TournamentService(db).rounds.pairings(1, event=2)) == 2
    # the other is untouched
    assert TournamentService(db).events.event_info(event=1).name == "Autumn"
