"""Printed forms of a Mahjong event (issue 18): the seating list (by table and by name),
table cards with the winds, the hand-by-hand score sheet in the MCR layout (hand rows,
penalty rows, running totals, signatures), the session result slip and the standings,
pre-filled from the event where a sheet is entered and blank otherwise; en/ko/bg, A4/Letter,
from `ball pdf forms` and `/print/forms.pdf`. Read back with poppler as a reader would."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ball.cli.pdf import app
from ball.games.mahjong.tournament.views import points_text
from ball.printing import PrintingError, render_html
from ball.printing.from_event import EventDataError, forms_for_round
from ball.printing.labels import translated_labels
from ball.web.app import create_app
from mahjong.public_event import make_event

from .conftest import needs_poppler, pdfinfo, pdftotext, squash

pytestmark = pytest.mark.pdf
WINDS = "ESWN"


@pytest.fixture
def event(tmp_path):
    db = str(tmp_path / "mj.sqlite")
    svc, event_id = make_event(db)
    return db, svc, event_id


def sections(html: str, form: str) -> list[str]:
    return re.findall(rf'<section class="form form-{form}".*?</section>', html, re.S)


def cells(row_html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                  row_html, re.S)]  # fmt: skip


def test_one_sheet_card_and_slip_per_table_with_the_services_figures(event):
    db, svc, _ = event
    tables = svc.sessions.session_tables(1)["tables"]
    html = render_html("forms", forms=forms_for_round(db, 1)).html
    cards, sheets, slips = (sections(html, f) for f in ("mahjong-cards", "mahjong-sheet",
                                                       "mahjong-slip"))  # fmt: skip
    assert len(sheets) == len(slips) == 4 and len(cards) == 1
    assert cards[0].count('class="mj-card"') == 4
    assert "form-score-sheet" not in html and "PBATK" not in html  # no BALL form
    for table, sheet, slip in zip(tables, sheets, slips, strict=True):
        for wind in WINDS:
            name, score = table["seats"][wind], table["scores"][wind]
            assert name in sheet and name in slip
            assert f'<td data-score="{wind}">{score}</td>' in sheet
            row = re.search(rf'<tr data-wind="{wind}">.*?</tr>', slip, re.S).group(0)
            assert cells(row) == [name, str(score), points_text(table["table_points"][wind])]
        # the last running total of the hands equals the hand points (scores less penalties)
        hands = re.findall(r'<tr data-hand="\d+">.*?</tr>', sheet, re.S)
        assert len(hands) == len(table["hand_points"])
        last = [int(c) for c in cells(hands[-1])[-4:]]
        assert last == [sum(p[i] for p in table["hand_points"]) for i in range(4)]
        assert sum(last) == 0
        # 16 hand rows (the event's hands per session), entered or ruled blank
        numbers = re.findall(r'<td class="n hno">(\d+)</td>', sheet)
        assert [int(n) for n in numbers] == list(range(1, 17))


def test_the_rulings_fill_the_penalty_rows(event):
    db, svc, _ = event
    html = render_html("forms", forms=forms_for_round(db, 1)).html
    sheets = {int(re.search(r'data-table="(\d+)"', s).group(1)): s
              for s in sections(html, "mahjong-sheet")}  # fmt: skip
    false_win = re.search(r'<tr data-ruling="false_win">.*?</tr>', sheets[1], re.S).group(0)
    # WC 6 (seed 003): -30 for the false win, +10 to each other seat; hand 2, at 10:42
    assert cells(false_win)[:4] == ["2", "10:42", "N", "WC 6"] and cells(false_win)[-4:] == [
        "10", "10", "10", "-30"]  # fmt: skip
    dead = re.search(r'<tr data-ruling="dead_hand">.*?</tr>', sheets[3], re.S).group(0)
    assert cells(dead)[:4] == ["1", "10:15", "S", "LS 4"]
    turn = re.search(r'<tr data-ruling="turn_overrun">.*?</tr>', sheets[3], re.S).group(0)
    assert cells(turn)[3] == "TL 2" and cells(turn)[-4:] == ["-10", "", "", ""]


@needs_poppler
def test_the_filled_pdf_reads_back_names_winds_and_totals(event, tmp_path):
    db, svc, _ = event
    out = tmp_path / "session1.pdf"
    r = CliRunner().invoke(app, ["forms", "--db", db, "--round", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    pages = pdftotext(out).split("\f")
    tables = svc.sessions.session_tables(1)["tables"]
    card_pages = [p for p in pages if "Table cards" in p and "東" in p]
    assert len(card_pages) == 4
    for table, page in zip(tables, card_pages, strict=True):
        text, seats = squash(page), table["seats"]
        # the card's two rows of seats: East and South, then West and North, names under
        assert f"Table {table['table']} " in text
        assert f"東 East 南 South {seats['E']} {seats['S']}" in text
        assert f"西 West 北 North {seats['W']} {seats['N']}" in text
    standings = squash(next(p for p in pages if "Team standings" in p))
    for row in svc.sessions.session_standings()["standings"]:
        tp = points_text(row["table_points_exact"])
        assert f"{row['rank']} {row['name']} {row['team']} {tp} {row['score']}" in standings
    info = pdfinfo(out)
    assert info["Page size"].startswith("595.")  # A4


@needs_poppler
@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_blank_forms_in_korean_and_bulgarian_on_letter(tmp_path, lang):
    out = tmp_path / f"blank-{lang}.pdf"
    r = CliRunner().invoke(app, ["forms", "--game", "mahjong", "--lang", lang, "--paper",
                                 "letter", "--event", "MJ Cup", "-o", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    text = squash(pdftotext(out))
    m = translated_labels(lang)["forms"]["mahjong"]
    for key in ("seating_title", "cards_title", "sheet_title", "slip_title", "standings_title"):
        assert m[key] in text
    assert all(m["winds"][w] in text for w in WINDS) and "MJ Cup" in text
    assert pdfinfo(out)["Page size"].startswith("612 x 792")  # Letter


def test_errors_are_one_line_and_exit_2(event, tmp_path):
    db, _, _ = event
    out = str(tmp_path / "x.pdf")
    r = CliRunner().invoke(app, ["forms", "--db", db, "--round", "3", "-o", out])
    assert r.exit_code == 2 and "session 3" in r.output and len(r.output.splitlines()) == 1
    r = CliRunner().invoke(app, ["forms", "--game", "go", "-o", out])
    assert r.exit_code == 2 and "mahjong" in r.output
    with pytest.raises(EventDataError, match="is not seated"):
        forms_for_round(db, 2)
    with pytest.raises(PrintingError, match="a Mahjong event prints its forms"):
        render_html("regulation", forms=forms_for_round(db, 1))


def test_a_seated_session_without_sheets_prints_names_and_empty_figures(tmp_path):
    db = str(tmp_path / "seated.sqlite")
    svc, _ = make_event(db, enter=False)
    html = render_html("forms", forms=forms_for_round(db, 1)).html
    slip = sections(html, "mahjong-slip")[0]
    first = svc.sessions.session_tables(1)["tables"][0]
    row = re.search(r'<tr data-wind="E">.*?</tr>', slip, re.S).group(0)
    assert cells(row) == [first["seats"]["E"], "", ""]
    assert "data-hand=" not in html


def test_the_print_page_serves_the_sessions_forms(event):
    db, svc, event_id = event
    client = TestClient(create_app(db))
    page = client.get("/print/forms", params={"round": 1, "event": str(event_id)})
    assert page.status_code == 200
    assert page.text.count('data-form="mahjong-sheet"') == 4
    assert svc.sessions.session_tables(1)["tables"][0]["seats"]["N"] in page.text
    assert client.get("/print/forms", params={"round": 4}).status_code == 404


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_no_english_word_on_korean_and_bulgarian_forms(event, lang):
    """Names, teams and the seed's article codes aside (as tests/desk/test_no_english_left)."""
    from desk.test_no_english_left import english_words
    from mahjong.public_event import NAMES, TEAMS

    db, _, _ = event
    names = {*NAMES, *TEAMS, "MJ Open", "LS", "WC", "TL", "MCR", "seed"}
    html = render_html("forms", lang=lang, forms=forms_for_round(db, 1)).html
    assert english_words(html, names) == set()
    english = render_html("forms", lang="en", forms=forms_for_round(db, 1)).html
    assert {"Seating", "Winner", "Discarder"} <= english_words(english, names)
