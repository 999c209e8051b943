"""Issue 11 item 3: an event cannot be hijacked by reusing its name.

A second event named like the first is refused at creation (service, so the desk, the CLI
and the TRF import all refuse it); a database that already holds two such events makes a
name ambiguous, and the CLI then refuses it and lists the ids (`--event ID` or `#ID`)."""

from __future__ import annotations

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentError, TournamentService
from ball.tournament.models import Event
from ball.tournament.names import name_key
from ball.tournament.store import Store

runner = CliRunner()


def ball(*args: str):
    return runner.invoke(app, list(args))


def test_same_name_means_equal_after_nfkc_case_and_whitespace():
    assert name_key("Spring Cup") == name_key("  spring\t\u00a0CUP ")
    assert name_key("Spring Cup") == name_key("Ｓｐｒｉｎｇ Ｃｕｐ")  # full-width letters
    assert name_key("Spring Cup") != name_key("Spring Cup 2")


@pytest.mark.parametrize("twin", ["Spring Cup", " spring  CUP ", "Ｓｐｒｉｎｇ Cup"])
def test_a_second_event_with_the_same_name_is_refused(tmp_path, twin):
    svc = TournamentService(tmp_path / "e.db")
    first = svc.events.create_event(name="Spring Cup", system="swiss", rounds=3)
    with pytest.raises(TournamentError, match=r"'Spring Cup' already exists \(id 1\)"):
        svc.events.create_event(name=twin, system="round-robin")
    assert [e["id"] for e in svc.events.list_events()] == [first["id"]]


def test_a_trf_import_cannot_take_an_existing_name(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Spring Cup", system="round-robin")
    for name in ("Ann", "Bo"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, forfeit="A")
    text = svc.trf.export_trf()
    with pytest.raises(TournamentError, match="already exists"):
        svc.trf.import_trf(text, name="SPRING CUP")
    assert len(svc.events.list_events()) == 1
    assert svc.trf.import_trf(text, name="Spring Cup (copy)")["name"] == "Spring Cup (copy)"


def _old_database_with_twins(path) -> TournamentService:
    """A database from before names were unique: the real event 1 and an impostor 2."""
    svc = TournamentService(path)
    svc.events.create_event(name="Spring Cup", system="round-robin")
    svc.entrants.add_player("Real Player", event=1)
    svc.events.create_event(name="Impostor Cup", system="swiss", rounds=3)
    with svc.store.sessions() as s:  # as an old version of the toolbox let it be created
        s.execute(update(Event).where(Event.id == 2).values(name="spring cup"))
        s.commit()
    svc.entrants.add_player("Impostor", event=2)
    return svc


def test_the_cli_refuses_an_ambiguous_name_and_lists_the_ids(tmp_path):
    db = str(tmp_path / "old.db")
    _old_database_with_twins(db)
    r = ball("standings", "--db", db, "--event", "Spring Cup")
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "ambiguous" in lines[0] and "events 1, 2" in lines[0]
    assert "--event 1" in lines[0]
    for ref in ("1", "#1"):
        r = ball("event", "show", "--db", db, "--event", ref)
        assert r.exit_code == 0, r.output
        assert "Real Player" in r.output and "Impostor" not in r.output


def test_a_unique_name_still_selects_its_event(tmp_path):
    db = str(tmp_path / "e.db")
    svc = TournamentService(db)
    svc.events.create_event(name="Spring Cup", system="round-robin")
    svc.events.create_event(name="Autumn Cup", system="round-robin")
    svc.entrants.add_player("Ann", event="Spring Cup")
    assert [e["name"] for e in svc.events.event_info("spring cup")["entrants"]] == ["Ann"]
    assert svc.events.event_info(2)["name"] == "Autumn Cup"


def test_the_database_refuses_a_twin_that_slipped_past_the_service(tmp_path, monkeypatch):
    """Two creations racing (both checked before either committed): the unique name_key
    column stops the second, nothing half-written."""
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Spring Cup", system="swiss", rounds=3)
    monkeypatch.setattr(Store, "refuse_taken_name", staticmethod(lambda s, n: None))
    with pytest.raises(TournamentError, match="rejected by the database"):
        svc.events.create_event(name="SPRING cup", system="swiss", rounds=3)
    assert len(svc.events.list_events()) == 1


def migrated_keys(path, revision: str, names: tuple[str, ...], insert: str) -> list:
    """An old database at `revision` holding events named `names` (written by `insert`,
    with `:n` the name), migrated to the head: each event's (id, name_key)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from ball.storage import MIGRATIONS, make_engine, migrate

    engine = make_engine(str(path))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        for name in names:
            connection.execute(text(insert), {"n": name})
    migrate(engine)
    with engine.connect() as connection:
        return list(
            connection.execute(text("SELECT id, name_key FROM tournament_events ORDER BY id"))
        )


def test_the_migration_keeps_an_old_databases_twins_and_keys_the_oldest(tmp_path):
    insert = (
        "INSERT INTO tournament_events (name, system, game, ruleset, scoring, tiebreaks, "
        "created_at) VALUES (:n, 'swiss', 'ball', 'standard', '{}', '[]', 0)"
    )
    names = ("Spring Cup", "spring  cup", "Autumn")
    keys = migrated_keys(tmp_path / "old.db", "tournament_0001", names, insert)
    assert keys == [(1, name_key("spring cup")), (2, None), (3, name_key("autumn"))]
    svc = TournamentService(str(tmp_path / "old.db"))
    with pytest.raises(TournamentError, match="ambiguous: events 1, 2"):
        svc.events.event_info("Spring Cup")
    with pytest.raises(TournamentError, match="already exists"):
        svc.events.create_event(name="spring cup", system="swiss")
