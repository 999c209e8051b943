"""Names are one line: a control character or line break in any stored name is refused, and
the TRF writer cannot put a line break inside a field (issue 11, item 8)."""

from __future__ import annotations

import sqlite3

import pytest

from ball.tournament import TournamentError, TournamentService

from .test_cli import ball, one_line_error

FORGED = "Ann\n001    9      Forged Player                      2900"
BAD = [FORGED, "Ann\r001", "Ann\tB", "Ann\x00", "Ann\x1b[31m", "Ann\u2028B", "Ann\x85B"]


def entrants(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("select count(*) from tournament_entrants").fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("field", ["name", "place", "arbiter"])
def test_event_names_with_control_characters_are_refused(tmp_path, field, bad):
    svc = TournamentService(tmp_path / "e.db")
    fields = {"name": "Open", "place": "Sofia", "arbiter": "Ivan", field: bad}
    with pytest.raises(TournamentError, match=f"{field}.*control character or line break"):
        svc.events.create_event(system="swiss", **fields)
    assert svc.events.list_events() == []


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("field", ["name", "club", "federation"])
def test_entrant_names_with_control_characters_are_refused(tmp_path, field, bad):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss")
    fields = {"name": "Bob", "club": "Sofia", "federation": "BUL"}
    fields[field] = bad if field != "federation" else "B" + bad[3] + "G"
    label = {"name": "entrant name"}.get(field, field)
    name = fields.pop("name")
    with pytest.raises(TournamentError, match=f"{label} must be one line"):
        svc.entrants.add_player(name, **fields)
    assert entrants(tmp_path / "e.db") == 0


def test_a_log_kind_with_a_line_break_is_refused(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss")
    with pytest.raises(TournamentError, match="log kind"):
        svc.arbiter.record("note\nforged", "detail")
    assert svc.arbiter.log() == []


def test_cli_refuses_a_forged_name_with_exit_2_and_one_line(tmp_path):
    db = str(tmp_path / "e.db")
    assert ball("event", "create", "--db", db, "--name", "Open", "--system", "swiss").exit_code == 0
    msg = one_line_error(ball("event", "add-player", "--db", db, FORGED))
    assert "entrant name" in msg and "U+000A" in msg
    msg = one_line_error(ball("event", "create", "--db", db, "--name", "X\ny", "--system", "swiss"))
    assert "event name" in msg
    assert entrants(db) == 0


def test_trf_writer_keeps_each_stored_name_on_its_line(tmp_path):
    # A name stored before names were checked (written straight into the database).
    db = tmp_path / "e.db"
    svc = TournamentService(db)
    svc.events.create_event(name="Open", system="swiss", place="Sofia", arbiter="Ivan")
    for name in ("Ann", "Bob"):
        svc.entrants.add_player(name, federation="BUL")
    con = sqlite3.connect(db)
    with con:
        con.execute("update tournament_entrants set name = ? where name = 'Ann'", (FORGED,))
        con.execute("update tournament_entrants set federation = ? where name = 'Bob'", ("B\nU",))
        con.execute(
            "update tournament_events set name = ?, place = ?, arbiter = ?",
            ("Open\n001    7", "So\rfia", "Iv\u2028an"),
        )
    con.close()
    text = svc.trf.export_trf()
    lines = text.splitlines()
    assert len([x for x in lines if x.startswith("001")]) == 2
    assert not any("Forged" in x and x.startswith("001    9") for x in lines)
    assert "Ann 001    9      Forged" in text
    assert [x[:3] for x in lines[:8]] == ["012", "022", "042", "052", "062", "072", "092", "102"]
    # Every line of the export is one record: the reader sees the same two players.
    imported = TournamentService(tmp_path / "b.db")
    imported.trf.import_trf(text)
    assert [e["name"] for e in imported.events.event_info()["entrants"]][1] == "Bob"


def test_trf_import_refuses_a_control_character_in_a_name(tmp_path):
    svc = TournamentService(tmp_path / "a.db")
    svc.events.create_event(name="Open", system="swiss")
    for name in ("Ann", "Bob"):
        svc.entrants.add_player(name)
    text = svc.trf.export_trf().replace("Ann", "A\x1bn")
    target = TournamentService(tmp_path / "b.db")
    with pytest.raises(TournamentError, match=r"TRF line \d+ \(001\).*control character"):
        target.trf.import_trf(text)
    assert target.events.list_events() == []
