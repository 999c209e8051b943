"""Issue 17's printed forms, filled in from one round: the draw sheet of a knockout round
(who drew which card, the seed; seed 004 §9), the bracket so far (rounds as columns, tie
scores, the bye holder) and the team match cards (board, players, colours by board as
13.2/13.3 say, result boxes, game and match points, 14.2), in en/ko/bg, from
`ball pdf forms --db --round` and `/print/forms`."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ball.cli.pdf import app
from ball.printing import render_html
from ball.printing.from_event import forms_for_round
from ball.printing.labels import translated_labels
from ball.tournament import lots

from .conftest import needs_poppler, pdftotext, squash

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def doc(red: str, black: str, result: str) -> dict:
    return {"players": [red, black], "result": result, "reason": "checkmate"}


@pytest.fixture
def knockout_db(tmp_path) -> str:
    from ball.tournament import TournamentService

    db = str(tmp_path / "ko.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Cup", system="knockout", game_name="xiangqi", games_per_tie=2)
    for name in NAMES:
        svc.entrants.add_player(name)
    svc.knockout.draw_round(seed=41)
    for t in svc.formats.bracket(1).rounds[0].ties:  # the red card's holder wins both games
        svc.knockout.record_tie_game(1, t.table, 1, sheet=doc(t.a, t.b, "1-0"))
        svc.knockout.record_tie_game(1, t.table, 2, sheet=doc(t.b, t.a, "0-1"))
    return db


@pytest.fixture
def team_db(tmp_path) -> str:
    from ball.tournament import TournamentService

    db = str(tmp_path / "teams.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="League", system="round-robin", game_name="xiangqi", teams=4)
    svc.teams.add_team("Reds", ["r1=2200", "r2=2100", "r3=2000", "r4", "r5"])
    svc.teams.add_team("Blues", ["b1", "b2", "b3", "b4"])
    svc.teams.set_lineup("Reds", 1, ["r1", "r2", "r4", "r5"])  # r3 rests: r4, r5 move up (12.2)
    svc.rounds.pair_next_round()
    tables = {(t["a"], t["b"]): t["table"] for t in svc.rounds.pairings(1)}
    svc.results.record_table_result(1, tables[("r1", "b1")], sheet=doc("r1", "b1", "1-0"))
    svc.results.record_table_result(1, tables[("b2", "r2")], sheet=doc("b2", "r2", "1-0"))
    svc.results.record_table_result(1, tables[("r4", "b3")], sheet=doc("r4", "b3", "1-0"))
    svc.results.record_table_result(1, tables[("b4", "r5")], sheet=doc("b4", "r5", "0-1"))
    return db


def section(html: str, form: str) -> str:
    found = re.findall(rf'<section class="form form-{form}".*?</section>', html, re.S)
    assert len(found) == 1, f"{form}: {len(found)} sections"
    return re.sub(r"<[^>]+>", " ", found[0])


def test_draw_sheet_and_bracket(knockout_db):
    html = render_html("forms", forms=forms_for_round(knockout_db, 1)).html
    drawn = lots.draw_from_seed(list(NAMES), 41)
    sheet = squash(section(html, "draw-sheet"))
    assert "Seed 41" in sheet
    for name in NAMES:  # who drew what card
        assert f"{drawn.cards[name]} {name}" in sheet
    bracket = squash(section(html, "bracket"))
    for red, black in drawn.pairs():
        assert f"{red} – {black} 2-0" in bracket  # the red card won both games
    assert f"{drawn.bye()} (bye)" in bracket
    assert "Appendix K — Draw sheet" in html and "Appendix L — Bracket" in html


def test_team_cards_colours_and_points(team_db):
    html = render_html("forms", forms=forms_for_round(team_db, 1)).html
    card = squash(section(html, "team-card"))
    # board 1 and 3: Reds' player has the first colour (Red); boards 2 and 4: Blues' (13.3)
    assert "1 r1 Red 1-0 Black b1" in card
    assert "2 r2 Black 0-1 Red b2" in card
    assert "3 r4 Red 1-0 Black b3" in card
    assert "4 r5 Black 1-0 Red b4" in card
    assert "3 – 1" in card and "2 – 0" in card  # game points, match points (14.2)
    assert "r3" not in card


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_translated(knockout_db, team_db, lang):
    words = translated_labels(lang)["forms"]["formats"]
    ko_html = render_html("forms", lang=lang, forms=forms_for_round(knockout_db, 1)).html
    assert words["draw_title"] in ko_html and words["bracket_title"] in ko_html
    assert translated_labels("en")["forms"]["formats"]["draw_title"] not in ko_html
    team_html = render_html("forms", lang=lang, forms=forms_for_round(team_db, 1)).html
    assert words["team_card_title"] in team_html and words["captain"] in team_html


def test_single_game_events_print_no_format_forms(tmp_path):
    from ball.tournament import TournamentService

    db = str(tmp_path / "rr.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="RR", system="round-robin")
    for name in NAMES[:4]:
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    html = render_html("forms", forms=forms_for_round(db, 1)).html
    assert "form-draw-sheet" not in html and "form-team-card" not in html


@pytest.mark.pdf
@needs_poppler
def test_pdf_from_the_cli(knockout_db, team_db, tmp_path):
    for db, lang, title in ((knockout_db, "bg", "draw_title"), (team_db, "ko", "team_card_title")):
        out = tmp_path / f"{lang}.pdf"
        r = CliRunner().invoke(app, ["forms", "--db", db, "--round", "1", "--lang", lang,
                                     "-o", str(out)])  # fmt: skip
        assert r.exit_code == 0, r.output
        text = squash(pdftotext(out))
        assert translated_labels(lang)["forms"]["formats"][title] in text


def test_game_points_are_written_as_on_paper():
    from ball.printing.event_formats import TeamCard

    assert TeamCard(game_points=(2.5, 1.5)).game_points_text == "2½ – 1½"
    assert TeamCard(game_points=(0.5, 3.5)).game_points_text == "½ – 3½"
    assert TeamCard().game_points_text == ""
