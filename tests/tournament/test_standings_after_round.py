"""Standings are after the last round with every result in (issue 36, item 1): a round
paired and still being played counts in no figure of any view, and every view says which
round its figures are after."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ball.cli import app as cli
from ball.tournament import TournamentService
from ball.web.app import create_app

runner = CliRunner()


def won_by(side: str) -> dict:
    """A BALL score sheet that coach `side` ("A" or "B") wins by one touchdown."""
    pb = {"A": {"atk": 3, "def": 2}, "B": {"atk": 2, "def": 3}}
    return {
        "coaches": ["A", "B"],
        "halves": [
            {"atk_first": "A", "td": side, "pb": pb},
            {"atk_first": "B", "td": None, "pb": pb},
        ],
        "forfeit": None,
    }


def eight_player_swiss(db: str) -> tuple[TournamentService, int]:
    """The issue's case: 8 players, round 1 complete (coach A wins every table), round 2
    paired with no result yet."""
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Open", system="swiss", rounds=5)["id"]
    for i in range(1, 9):
        svc.entrants.add_player(f"P{i}", rating=2100 - i, event=event_id)
    for t in svc.rounds.pair_next_round(event=event_id):
        svc.results.enter_result(1, t["table"], sheet=won_by("A" if t["a"] == "P1" else "B"),
                         event=event_id)  # fmt: skip
    svc.rounds.pair_next_round(event=event_id)
    return svc, event_id


@pytest.fixture(scope="module")
def open_db(tmp_path_factory) -> tuple[str, int]:
    """The issue's event, built once (the tests below only read it)."""
    db = str(tmp_path_factory.mktemp("open") / "open.db")
    svc, event_id = eight_player_swiss(db)
    svc.engine.dispose()
    return db, event_id


def test_a_paired_round_without_results_counts_in_no_tiebreak(open_db):
    db, event_id = open_db
    svc = TournamentService(db)
    out = runner.invoke(cli, ["standings", "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["name"]: r for r in json.loads(out.output)}
    p1 = rows["P1"]
    assert p1["points"] == 1
    # P1 beat a player who has 0 points after round 1: nothing else counts yet
    assert p1["tiebreaks"]["buchholz"] == 0
    assert p1["tiebreaks"]["buchholz-cut1"] == 0
    text = runner.invoke(cli, ["standings", "--db", db]).output
    assert "Open after round 1" in text
    assert "round 2" in text.splitlines()[1]  # says the round being played is not counted
    table = svc.ranking.standings(event=event_id)
    assert (table.rounds, table.in_progress) == (1, 2)
    # asking for round 2 while it is played gives the standings after round 1, saying so
    assert svc.ranking.standings(event=event_id, upto=2).rounds == 1
    svc.engine.dispose()


def test_the_public_page_is_titled_after_the_last_complete_round(open_db):
    db, event_id = open_db
    html = TestClient(create_app(db)).get(f"/public/{event_id}/standings").text
    assert "Standings after round 1" in html
    assert "Standings after round 2" not in html
    assert 'id="in-progress"' in html  # the round being played is named, not counted


def test_the_printed_standings_agree(open_db):
    from ball.printing.from_event import forms_from_sessions

    db, event_id = open_db
    app = create_app(db)
    printed = forms_from_sessions(app.state.sessions, 2, event_id=event_id).standings
    assert printed.after_round == "1"
    p1 = next(r for r in printed.rows if r.name == "P1")
    assert p1.tiebreaks[:2] == ["0", "0"]  # buchholz-cut1, buchholz: the Swiss chain's first


def test_the_desk_standings_page_agrees(open_db):
    import time

    from ball.web.core import security

    db, event_id = open_db
    app = create_app(db)
    with app.state.sessions.begin() as session:
        security.set_pin(session, event_id, "2468", time.time())
    client = TestClient(app)
    assert client.post(f"/desk/{event_id}/login", data={"pin": "2468"},
                       follow_redirects=False).status_code == 303  # fmt: skip
    html = client.get(f"/desk/{event_id}/standings").text
    assert "Standings after round 1" in html
    assert 'id="in-progress"' in html
    assert f'href="/desk/{event_id}/standings"' in client.get(f"/desk/{event_id}").text


def test_a_team_match_being_played_counts_in_no_team_table(tmp_path):
    """Team standings and board scores, in `ball standings --json` and on the teams page,
    leave out a round whose boards are not all in."""
    db = str(tmp_path / "teams.db")

    def ok(*args: str) -> str:
        out = runner.invoke(cli, [*args[:2], "--db", db, *args[2:]])
        assert out.exit_code == 0, out.output
        return out.output

    ok("event", "create", "--name", "Teams", "--system", "round-robin", "--teams", "2")
    for t in range(1, 5):
        ok("team", "add", f"T{t}", "--player", f"T{t}a=2000", "--player", f"T{t}b=1900")
    svc = TournamentService(db)
    tables = svc.rounds.pair_next_round()
    svc.results.enter_result(1, tables[0]["table"], sheet=won_by("A"))  # one board of four
    data = json.loads(ok("standings", "--json"))
    assert all(not b["players"] for b in data["teams"]["board_scores"])
    assert all(t["match_points"] == 0 and not t["matches"] for t in data["teams"]["standings"])
    page = svc.formats.teams_page(svc.events.event_info()["id"])
    assert page.board_scores == data["teams"]["board_scores"]
    assert page.standings == data["teams"]["standings"]
    svc.engine.dispose()
