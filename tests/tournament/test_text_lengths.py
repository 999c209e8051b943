"""Issue 30 item 12: every stored text field has a length limit, refused with a message
naming the field and the limit (service, CLI, TRF import; the desk and the JSON API go
through the same service, see tests/security/test_campaign_names.py)."""

from __future__ import annotations

import sqlite3
import time

import pytest

from ball.storage import open_database
from ball.storage.lengths import TEXT_MAX, TextTooLong, check_row
from ball.tournament import TournamentError, TournamentService
from ball.tournament.models import Entrant, Event, LogEntry

from .test_cli import ball, one_line_error


def entrants(db) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("select count(*) from tournament_entrants").fetchone()[0]


@pytest.mark.parametrize("field", ["name", "place", "arbiter"])
def test_event_fields_are_at_most_200_characters(tmp_path, field):
    svc = TournamentService(tmp_path / "e.db")
    label = {"name": "event name"}.get(field, field)
    fields = {"name": "Open", field: "x" * 201}
    with pytest.raises(TournamentError, match=f"^{label} is at most 200 characters, got 201$"):
        svc.events.create_event(system="swiss", **fields)
    assert svc.events.list_events() == []
    fields[field] = "y" * 200
    assert svc.events.create_event(system="swiss", **fields)


def test_a_900000_character_entrant_name_is_refused_at_once(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss")
    huge = "A" * 900_000
    for kwargs, label in (({}, "entrant name"), ({"club": huge}, "club")):
        name = "Ann" if kwargs else huge
        started = time.process_time()
        with pytest.raises(TournamentError, match=f"^{label} is at most 200 characters"):
            svc.entrants.add_player(name, **kwargs)
        assert time.process_time() - started < 5  # a refusal, not a scan of every character
    assert entrants(tmp_path / "e.db") == 0


def test_team_names_log_entries_and_correction_reasons_are_bounded(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss", rounds=3)
    for name in ("Ann", "Bob"):
        svc.entrants.add_player(name)
    with pytest.raises(TournamentError, match="^log kind is at most 40 characters, got 41$"):
        svc.arbiter.record("k" * 41, "detail")
    with pytest.raises(TournamentError, match="^detail is at most 2000 characters, got 2001$"):
        svc.arbiter.record("note", "d" * 2001)
    assert svc.arbiter.log() == []
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, forfeit="A")
    with pytest.raises(TournamentError, match="reason: at most"):
        svc.results.correct_result(1, 1, reason="r" * 100_000, forfeit="B")
    team = TournamentService(tmp_path / "t.db")
    team.events.create_event(name="Teams", system="swiss", rounds=3, teams=2)
    with pytest.raises(TournamentError, match="^team name is at most 200 characters"):
        team.teams.add_team("T" * 201, ["A1", "A2"])
    with pytest.raises(TournamentError, match="^player name is at most 200 characters"):
        team.teams.add_team("Tigers", ["P" * 201, "A2"])


def test_the_cli_refuses_a_long_name_in_one_line(tmp_path):
    db = str(tmp_path / "e.db")
    assert ball("event", "create", "--db", db, "--name", "Open", "--system", "swiss").exit_code == 0
    msg = one_line_error(ball("event", "add-player", "--db", db, "N" * 5000))
    assert msg.endswith("entrant name is at most 200 characters, got 5000")
    msg = one_line_error(
        ball("event", "create", "--db", db, "--name", "E" * 300, "--system", "swiss")
    )
    assert "event name is at most 200 characters, got 300" in msg
    assert entrants(db) == 0


def test_a_trf_import_with_a_long_event_name_is_refused(tmp_path):
    svc = TournamentService(tmp_path / "a.db")
    svc.events.create_event(name="Open", system="swiss")
    for name in ("Ann", "Bob"):
        svc.entrants.add_player(name)
    text = svc.trf.export_trf().replace("012 Open", "012 " + "O" * 5000)
    target = TournamentService(tmp_path / "b.db")
    with pytest.raises(TournamentError, match="event name is at most 200 characters, got 5000"):
        target.trf.import_trf(text)
    assert target.events.list_events() == []


def test_every_flush_checks_every_text_column(tmp_path):
    """The net under the services: a row written past them is refused before the database,
    naming the table, the column and the limit."""
    _engine, sessions = open_database(str(tmp_path / "e.db"))
    with sessions() as s:
        with pytest.raises(TextTooLong, match="^tournament_entrants.name is at most 200"):
            check_row(Entrant(event_id=1, registered=1, number=1, name="x" * 201))
        check_row(Entrant(event_id=1, registered=1, number=1, name="x" * 200))
        with pytest.raises(TextTooLong, match="^tournament_log.detail is at most 2000"):
            check_row(LogEntry(event_id=1, kind="note", detail="d" * 2001))
        with pytest.raises(TextTooLong, match=f"^tournament_events.scoring is at most {TEXT_MAX}"):
            check_row(Event(name="E", system="swiss", scoring="{" * (TEXT_MAX + 1)))
        s.add(Event(name="E" * 201, system="swiss", scoring="{}", tiebreaks="[]", created_at=0))
        with pytest.raises(TextTooLong):
            s.flush()


def test_the_service_maps_the_net_to_its_error(tmp_path, monkeypatch):
    import ball.tournament.entrant_service as entrant_service

    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss")
    monkeypatch.setattr(entrant_service, "check_name", lambda value, label, limit=200: value)
    with pytest.raises(TournamentError, match="^tournament_entrants.name is at most 200"):
        svc.entrants.add_player("n" * 300)
    assert entrants(tmp_path / "e.db") == 0
