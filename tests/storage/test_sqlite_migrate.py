"""`migrate` on SQLite files: a database already at head is left alone without running
Alembic (every CLI command and app start opens one), one behind is brought up to head, and
an unknown revision is still reported rather than skipped."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from ball.storage import MIGRATIONS, at_head, make_engine, migrate, open_database


def _config(connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _stored(engine) -> set[str]:
    with engine.connect() as connection:
        return {row[0] for row in connection.execute(sa.text("SELECT * FROM alembic_version"))}


def test_a_database_at_head_is_opened_without_running_alembic(tmp_path, monkeypatch):
    db = tmp_path / "toolbox.sqlite"
    migrate(make_engine(db))

    def refuse(*_args, **_kwargs):
        raise AssertionError("Alembic upgrade ran on a database already at head")

    monkeypatch.setattr(command, "upgrade", refuse)
    engine = make_engine(db)
    migrate(engine)
    open_database(db)
    with engine.connect() as connection:
        assert at_head(connection)


def test_a_new_database_is_not_at_head_and_gets_every_table(tmp_path):
    engine = make_engine(tmp_path / "new.sqlite")
    with engine.connect() as connection:
        assert not at_head(connection)
    migrate(engine)
    tables = set(sa.inspect(engine).get_table_names())
    assert {"tournament_events", "desk_access", "alembic_version"} <= tables
    with engine.connect() as connection:
        assert at_head(connection)


def test_a_branch_behind_head_is_upgraded(tmp_path):
    engine = make_engine(tmp_path / "behind.sqlite")
    with engine.begin() as connection:
        command.upgrade(_config(connection), "heads")
        command.downgrade(_config(connection), "clocks@-1")
    assert "clocks_0004" not in _stored(engine)
    with engine.connect() as connection:
        assert not at_head(connection)
    migrate(engine)
    assert "clocks_0004" in _stored(engine)


def test_an_unknown_revision_is_reported_not_skipped(tmp_path):
    engine = make_engine(tmp_path / "newer.sqlite")
    migrate(engine)
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO alembic_version VALUES ('zz_from_the_future')"))
    with engine.connect() as connection:
        assert not at_head(connection)
    with pytest.raises(Exception, match="zz_from_the_future"):
        migrate(engine)


def test_the_recovery_code_revision_upgrades_and_downgrades(tmp_path):
    engine = make_engine(tmp_path / "recovery.sqlite")
    migrate(engine)
    assert "desk_recovery" in sa.inspect(engine).get_table_names()
    with engine.begin() as connection:
        command.downgrade(_config(connection), "desk_0003_mj")  # desk_0004_r and after
    assert "desk_recovery" not in sa.inspect(engine).get_table_names()
    assert "desk_0004_r" not in _stored(engine)
    migrate(engine)
    # the desk branch at its head again (desk_0004_r, or a later revision on top of it)
    assert any(v.startswith("desk_") and v >= "desk_0004_r" for v in _stored(engine))
    assert {"event_id", "code_hash", "created_at"} == {
        c["name"] for c in sa.inspect(engine).get_columns("desk_recovery")
    }


def test_the_live_board_revisions_upgrade_and_downgrade(tmp_path):
    """desk_0005_l (published rounds) and web_0009_t (a BALL table's recorded match)."""
    engine = make_engine(tmp_path / "live.sqlite")
    migrate(engine)
    assert "desk_live_broadcasts" in sa.inspect(engine).get_table_names()
    columns = {c["name"] for c in sa.inspect(engine).get_columns("web_games")}
    assert {"desk_event", "desk_round", "desk_table", "device_key"} <= columns
    with engine.begin() as connection:
        command.downgrade(_config(connection), "desk_0004_r")
        command.downgrade(_config(connection), "web_0008_o")
    assert "desk_live_broadcasts" not in sa.inspect(engine).get_table_names()
    assert "device_key" not in {c["name"] for c in sa.inspect(engine).get_columns("web_games")}
    migrate(engine)  # each branch at its head again, whatever revisions sit on top
    assert "desk_live_broadcasts" in sa.inspect(engine).get_table_names()
    assert "device_key" in {c["name"] for c in sa.inspect(engine).get_columns("web_games")}


def test_the_table_links_revision_upgrades_and_downgrades(tmp_path):
    engine = make_engine(tmp_path / "links.sqlite")
    migrate(engine)
    tables = {"desk_table_links", "desk_player_entries"}
    assert tables <= set(sa.inspect(engine).get_table_names())
    with engine.begin() as connection:
        command.downgrade(_config(connection), "desk_0004_r")
    assert not tables & set(sa.inspect(engine).get_table_names())
    assert "desk_0006_q" not in _stored(engine)
    migrate(engine)
    # the desk branch is at desk_0006_q or a later revision on top of it
    assert min(r for r in _stored(engine) if r.startswith("desk_")) >= "desk_0006_q"
    assert {"pairing_id", "side", "document", "state", "answered_by", "at"} == {
        c["name"] for c in sa.inspect(engine).get_columns("desk_player_entries")
    }


def test_the_mahjong_seat_entries_revision_upgrades_and_downgrades(tmp_path):
    engine = make_engine(tmp_path / "seats.sqlite")
    migrate(engine)
    assert "desk_mahjong_seat_entries" in sa.inspect(engine).get_table_names()
    with engine.begin() as connection:
        command.downgrade(_config(connection), "desk_0006_q")
    assert "desk_mahjong_seat_entries" not in sa.inspect(engine).get_table_names()
    assert "desk_player_entries" in sa.inspect(engine).get_table_names()  # 0006's stays
    migrate(engine)
    assert "desk_0007_mjqr" in _stored(engine)
    assert {"round_id", "table", "seat", "document", "state", "answered_by", "at"} == {
        c["name"] for c in sa.inspect(engine).get_columns("desk_mahjong_seat_entries")
    }
