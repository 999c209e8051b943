"""The game is named by the event, never assumed (issue 12): an imported TRF plays the game
the importer names, its forfeits carry that game's figures and its tie-break chain that
game's tie-breaks; an unknown game is a clear error that stores nothing."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from ball import games
from ball.tournament import TournamentError, TournamentService

from .test_cli import ball, one_line_error
from .test_trf_import import write


class OtherGame(games.GameBase):
    """A second game: its own forfeit figures and no tie-break of its own."""

    name = "other"
    seats = 2
    tiebreaks: dict[str, games.GameTieBreak] = {}

    def decide(self, sheet: dict[str, Any]) -> games.Decided:
        raise TournamentError("illegal sheet: this game takes no sheet")

    def forfeit(self, winner: str) -> dict[str, games.Figures]:
        loser = "B" if winner == "A" else "A"
        return {winner: {"goals_for": 5}, loser: {"goals_against": 5}}

    def double_forfeit(self) -> dict[str, games.Figures]:
        return {"A": {"goals_against": 5}, "B": {"goals_against": 5}}


@pytest.fixture
def other_game(monkeypatch):
    monkeypatch.setitem(games.GAMES, "other", OtherGame())


def stored_figures(db) -> list[dict]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute(
            "select decision from tournament_results where kind = 'forfeit'"
        ).fetchall()
    finally:
        con.close()
    return [json.loads(r[0])["figures"] for r in rows]


def test_an_imported_event_plays_the_game_named(tmp_path, other_game, swiss_trf):
    text = swiss_trf
    db = tmp_path / "b.db"
    info = TournamentService(db).trf.import_trf(text, game_name="other")
    assert info["game"] == "other"
    assert not set(info["tiebreaks"]) & set(games.GAMES["ball"].tiebreaks)
    figures = stored_figures(db)
    assert figures and all(
        f in (OtherGame().forfeit("A"), OtherGame().forfeit("B")) for f in figures
    )


def test_the_cli_import_takes_the_game(tmp_path, other_game, swiss_trf):
    db = str(tmp_path / "b.db")
    path = write(tmp_path, swiss_trf)
    r = ball("event", "import", "trf", "--db", db, "--game", "other", path)
    assert r.exit_code == 0, r.output
    assert TournamentService(db).events.event_info()["game"] == "other"


def test_without_a_game_the_import_stays_ball(tmp_path, swiss_trf):
    db = str(tmp_path / "b.db")
    r = ball(
        "event",
        "import",
        "trf",
        "--db",
        db,
        write(tmp_path, swiss_trf),
    )
    assert r.exit_code == 0, r.output
    assert TournamentService(db).events.event_info()["game"] == "ball"


def test_an_unknown_game_is_refused_and_nothing_is_stored(tmp_path, swiss_trf):
    db = str(tmp_path / "b.db")
    path = write(tmp_path, swiss_trf)
    msg = one_line_error(ball("event", "import", "trf", "--db", db, "--game", "chess960", path))
    assert "unknown game 'chess960'" in msg
    assert TournamentService(db).events.list_events() == []


def test_the_cli_creates_an_event_of_the_game_named(tmp_path, other_game):
    db = str(tmp_path / "e.db")
    r = ball("event", "create", "--db", db, "--name", "Cup", "--system", "swiss", "--game", "other")
    assert r.exit_code == 0, r.output
    assert TournamentService(db).events.event_info()["game"] == "other"
    msg = one_line_error(
        ball("event", "create", "--db", db, "--name", "Two", "--system", "swiss", "--game", "nope")
    )
    assert "unknown game 'nope'" in msg
