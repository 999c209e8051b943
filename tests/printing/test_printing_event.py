"""Forms filled in from a real event database, written through the tournament service and the
arbiter's desk (signals, sanctions), then printed by `ball pdf forms --db … --round …`."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from ball.cli.pdf import app
from ball.printing import render_html
from ball.printing.from_event import EventDataError, forms_for_round

from .conftest import needs_poppler, pdftotext, squash

tournament = pytest.importorskip("ball.tournament")


def _sheet(a: str, b: str) -> dict:
    # a scores in the first half after 5 PB (one steal with reset inside: 2 of them);
    # the second half ends 0-0 with 7 PB of B's attack.
    return {
        "coaches": [a, b],
        "halves": [
            {
                "atk_first": a,
                "td": a,
                "pb": {a: {"atk": 5, "def": 1}, b: {"atk": 1, "def": 5}},
            },
            {"atk_first": b, "td": None, "pb": {a: {"atk": 0, "def": 7}, b: {"atk": 7, "def": 0}}},
        ],
    }


@pytest.fixture
def event_db(tmp_path) -> str:
    from ball.storage import open_database
    from ball.tournament import TournamentService, sanction_log, signals

    db = str(tmp_path / "event.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(
        name="Varna Cup", system="round-robin", arbiter="Ivanova", date_start="2026-12-01"
    )
    for name in ("Ann", "Boris", "Chae-won", "Dimitar"):
        svc.entrants.add_player(name)
    tables = svc.rounds.pair_next_round()
    first, second = tables[0], tables[1]
    svc.results.enter_result(1, first["table"], sheet=_sheet(first["a"], first["b"]))
    svc.results.enter_result(1, second["table"], forfeit="B")
    info = svc.events.event_info()
    _, sessions = open_database(db)
    start = time.mktime((2026, 12, 1, 10, 0, 0, 0, 0, -1))
    with sessions.begin() as s:
        signals.give_signal(s, info["id"], 1, 1, start, 600)
        signals.record_half_end(s, info["id"], 1, first["table"], start + 23 * 60)
        entrant = next(e for e in svc.events.event_info()["entrants"] if e["name"] == first["b"])
        entrant_id = _entrant_id(s, info["id"], entrant["name"])
        sanction_log.record(
            s, info["id"], entrant_id, "warning", "slow play", start + 600,
            round_number=1, table=first["table"],
        )  # fmt: skip
    svc.rounds.pair_next_round()  # round 2: no result yet
    return db


def _entrant_id(session, event_id: int, name: str) -> int:
    from ball.tournament.models import Entrant

    return session.query(Entrant).filter_by(event_id=event_id, name=name).one().id


def test_round_forms_from_the_event(event_db):
    forms = forms_for_round(event_db, 1)
    assert forms.prefilled
    header = forms.pairings.header
    assert (header.event, header.round, header.date, header.referee) == (
        "Varna Cup", "1", "2026-12-01", "Ivanova",
    )  # fmt: skip
    assert [(r.coach_a, r.coach_b) for r in forms.pairings.rows] == [
        (s.coach_a, s.coach_b) for s in forms.game.score_sheets
    ]
    played, forfeited = forms.game.score_sheets
    # the entered sheet: tally, touchdown, decision by touchdowns
    assert played.halves[0].pb == {"A": {"atk": 5, "def": 1}, "B": {"atk": 1, "def": 5}}
    assert played.halves[0].touchdown == "A" and played.halves[0].td_pbatk == 5
    assert played.halves[1].atk == "B" and played.halves[1].touchdown == "none"
    assert played.result.td == {"A": 1, "B": 0} and played.result.winner == "A"
    assert played.result.criterion == "td"
    assert played.result.sd == {"A": (1 - 5) + (7 - 0), "B": (5 - 1) + (0 - 7)}
    assert [(s.coach, s.level, s.reason) for s in played.sanctions] == [
        ("B", "warning", "slow play")
    ]
    # the forfeit: administrative 0-2 and a forfeit record
    assert forfeited.result.criterion == "forfeit" and forfeited.result.winner == "A"
    assert [(f.forfeiting, f.opponent) for f in forms.game.forfeits] == [
        (forfeited.coach_b, forfeited.coach_a)
    ]
    # the desk: signal 1 and the one playing table's first-half end (the forfeit plays none)
    control = forms.game.round_control
    assert control.signal_1 == "10:00"
    assert [(r.table, r.first_half_end) for r in control.rows] == [(played.table, "10:23")]
    assert control.earliest_signal_2 == "10:33"
    # standings after round 1 (complete) with the event's own tie-break chain
    standings = forms.standings
    assert standings.after_round == "1"
    assert standings.tiebreaks and len(standings.rows[0].tiebreaks) == len(standings.tiebreaks)
    winners = {played.coach_a, forfeited.coach_a}
    assert {r.name for r in standings.rows[:2]} == winners
    assert all(r.played == 1 for r in standings.rows)
    # crosstable: winner's row has their points against the loser, "+" for the forfeit
    names = [r.name for r in standings.rows]
    i, j = names.index(played.coach_a), names.index(played.coach_b)
    assert standings.crosstable[i][j] == "1" and standings.crosstable[j][i] == "0"
    k, m = names.index(forfeited.coach_a), names.index(forfeited.coach_b)
    assert standings.crosstable[k][m] == "+" and standings.crosstable[m][k] == "−"


def test_unplayed_round_has_names_and_previous_standings(event_db):
    forms = forms_for_round(event_db, 2)
    assert all(s.result.td is None for s in forms.game.score_sheets)
    assert all(s.coach_a and s.coach_b for s in forms.game.score_sheets)
    assert forms.standings.after_round == "1"
    control = forms.game.round_control
    assert control.signal_1 == "" and control.earliest_signal_2 == ""
    html = render_html("forms", lang="ko", forms=forms).html
    assert html.count('data-form="score_sheet"') == 2


@pytest.mark.parametrize(
    ("round_number", "needle"), [(3, "round 3 is not paired"), (0, "numbered from 1")]
)
def test_missing_round_is_a_clear_error(event_db, round_number, needle):
    with pytest.raises(EventDataError, match=needle):
        forms_for_round(event_db, round_number)


@needs_poppler
def test_cli_prints_the_filled_round(event_db, tmp_path):
    out = tmp_path / "round1.pdf"
    result = CliRunner().invoke(
        app, ["forms", "--db", event_db, "--round", "1", "--lang", "bg", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = squash(pdftotext(out))
    assert "Varna Cup" in text and "Ivanova" in text and "slow play" in text
    for name in ("Ann", "Boris", "Chae-won", "Dimitar"):
        assert name in text
    result = CliRunner().invoke(app, ["forms", "--db", event_db, "--round", "9", "-o", str(out)])
    assert result.exit_code == 2 and "round 9 is not paired" in result.stderr


def test_every_tie_break_of_the_tournament_has_a_label_in_every_language():
    from ball.games import game
    from ball.printing.render import LANGUAGES, labels
    from ball.tournament.standings import known_tiebreaks

    for lang in LANGUAGES:
        names = labels(lang)["forms"]["standings"]["tiebreak"]
        assert set(known_tiebreaks(game("ball"))) <= set(names), lang


@needs_poppler
def test_web_forms_of_a_round(event_db, tmp_path):
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from sqlalchemy.orm import sessionmaker

    from ball.storage import make_engine
    from ball.web.print.pages import router

    web = FastAPI()
    web.include_router(router)
    client = TestClient(web)
    assert client.get("/print/forms", params={"round": 1}).status_code == 404  # no database
    web.state.engine = make_engine(event_db)
    web.state.sessions = sessionmaker(web.state.engine)  # the app's own, as create_app sets
    page = client.get("/print/forms", params={"round": 1, "lang": "ko"})
    assert page.status_code == 200 and "Varna Cup" in page.text
    assert 'href="/print/forms.pdf?round=1&amp;lang=ko&amp;paper=a4"' in page.text
    pdf = client.get("/print/forms.pdf", params={"round": 1})
    assert pdf.status_code == 200
    assert "ball-forms-round-1-en.pdf" in pdf.headers["content-disposition"]
    out = tmp_path / "r1.pdf"
    out.write_bytes(pdf.content)
    assert "Chae-won" in pdftotext(out)
    missing = client.get("/print/forms.pdf", params={"round": 7})
    assert missing.status_code == 404 and "round 7 is not paired" in missing.json()["detail"]
    bad = client.get("/print/forms", params={"round": "two"})
    assert 400 <= bad.status_code < 500


@needs_poppler
def test_web_forms_print_the_event_asked_for(event_db):
    """With two events in one database, `event=` picks whose round is printed."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from sqlalchemy.orm import sessionmaker

    from ball.storage import make_engine
    from ball.tournament import TournamentService
    from ball.web.print.pages import router

    svc = TournamentService(event_db)
    svc.events.create_event(name="Sofia Open", system="round-robin")
    for name in ("Yana", "Zlatko"):
        svc.entrants.add_player(name, event="Sofia Open")
    svc.rounds.pair_next_round(event="Sofia Open")
    web = FastAPI()
    web.include_router(router)
    web.state.engine = make_engine(event_db)
    web.state.sessions = sessionmaker(web.state.engine)  # the app's own, as create_app sets
    client = TestClient(web)
    asked = client.get("/print/forms", params={"round": 1, "event": "Varna Cup"})
    assert asked.status_code == 200
    assert "Varna Cup" in asked.text and "Chae-won" in asked.text and "Yana" not in asked.text
    latest = client.get("/print/forms", params={"round": 1})
    assert "Sofia Open" in latest.text and "Yana" in latest.text
