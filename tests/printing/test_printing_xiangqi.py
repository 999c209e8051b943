"""Printed forms of a Xiangqi event (issue 16): per table a score sheet with the move grid of
seed 7.5 (move number, Red, Black), a foul record (4.1.8, 18.1/18.2) and a result slip,
pre-filled from the event (names, table, round, result) by the same printing machinery,
in en/ko/bg; blank from `ball pdf forms --game xiangqi`."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ball.cli.pdf import app
from ball.games.xiangqi.paper.forms import MOVES_PER_PANEL, PANELS
from ball.printing import render_html
from ball.printing.from_event import forms_for_round
from ball.printing.labels import translated_labels

from .conftest import needs_poppler, pdftotext, squash


@pytest.fixture
def xiangqi_db(tmp_path) -> tuple[str, list[dict]]:
    from ball.tournament import TournamentService

    db = str(tmp_path / "xq.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Busan Xiangqi Open", system="round-robin", game_name="xiangqi",
                     arbiter="Kim", date_start="2026-12-05")  # fmt: skip
    for name in ("Wang", "Li", "Zhao", "Qian"):
        svc.entrants.add_player(name)
    tables = svc.rounds.pair_next_round()
    first, second = tables
    svc.results.record_table_result(1, 1, sheet={
        "players": [first["a"], first["b"]], "result": "0-1", "reason": "three-fouls",
        "fouls": {first["a"]: 3, first["b"]: 1}, "moves": 57})  # fmt: skip
    svc.arbiter.give_sanction("warning", "talked during play", player=second["b"], round_number=1)
    return db, tables


def sections(html: str, form: str) -> list[str]:
    return re.findall(rf'<section class="form form-{form}".*?</section>', html, re.S)


def test_one_set_of_three_forms_per_table_filled_in(xiangqi_db):
    db, (first, second) = xiangqi_db
    html = render_html("forms", forms=forms_for_round(db, 1)).html
    sheets, fouls, slips = (sections(html, f) for f in ("xiangqi-sheet", "xiangqi-fouls",
                                                         "xiangqi-slip"))  # fmt: skip
    assert len(sheets) == len(fouls) == len(slips) == 2
    # No BALL form: no PB tally, no half.
    assert "form-score-sheet" not in html and "PBATK" not in html
    sheet = sheets[0]
    assert "Busan Xiangqi Open" in sheet and f">{first['a']}<" in sheet
    assert f">{first['b']}<" in sheet
    # The 7.5 grid: every move number once, a Red and a Black cell for each.
    numbers = [int(n) for n in re.findall(r'<td class="n">(\d+)</td>', sheet)]
    assert numbers == list(range(1, MOVES_PER_PANEL * PANELS + 1))
    assert sheet.count('<td class="cell"></td>') == 2 * len(numbers)
    # The entered result on the slip and the sheet, with its article (4.1.8).
    slip = slips[0]
    for text in ("0-1", "three-fouls", "4.1.8", ">57<", ">3<"):
        assert text in slip, text
    # Table 2 has no result yet: its slip offers the results to tick.
    assert "1-0" in slips[1] and "+ / -" in slips[1]
    # The 18.1 warning of the round is on table 2's foul record, not table 1's.
    assert "talked during play" in fouls[1] and "talked during play" not in fouls[0]
    assert "warning (18.1)" in fouls[1]
    # The standings form follows with the Xiangqi tie-break labels of the seed's 15.1 chain
    # (games with Black only when the organiser adds them).
    assert "Sanctions (18.4)" in html and "Fouls" in html
    assert "Games with Black" not in html


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_the_forms_are_translated(xiangqi_db, lang):
    db, _ = xiangqi_db
    html = render_html("forms", lang=lang, forms=forms_for_round(db, 1)).html
    labels = translated_labels(lang)["forms"]["xiangqi"]
    english = translated_labels("en")["forms"]["xiangqi"]
    for key in ("sheet_title", "fouls_title", "slip_title", "red", "black", "record_help"):
        assert labels[key] != english[key], key
        assert labels[key] in html, key
    assert english["sheet_title"] not in html.split("</style>", 1)[1]


def test_blank_xiangqi_forms_from_the_cli(tmp_path):
    out = tmp_path / "blank.html"
    r = CliRunner().invoke(app, ["forms", "--game", "xiangqi", "--event", "Open", "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert len(sections(html, "xiangqi-sheet")) == 1 and "Open" in html
    bad = CliRunner().invoke(app, ["forms", "--game", "go", "-o", str(out)])
    assert bad.exit_code == 2 and "'go' has no printed forms" in bad.output


def test_a_xiangqi_event_prints_no_ball_regulation(xiangqi_db):
    from ball.printing import PrintingError

    with pytest.raises(PrintingError, match="a Xiangqi event prints its forms"):
        render_html("regulation", forms=forms_for_round(xiangqi_db[0], 1))


@needs_poppler
def test_the_korean_pdf_reads_back(xiangqi_db, tmp_path):
    db, (first, _) = xiangqi_db
    out = tmp_path / "round1.pdf"
    r = CliRunner().invoke(app, ["forms", "--db", db, "--round", "1", "--lang", "ko",
                                 "-o", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    text = squash(pdftotext(out))
    ko = translated_labels("ko")["forms"]["xiangqi"]
    assert ko["sheet_title"] in text and ko["slip_title"] in text
    assert first["a"] in text and "4.1.8" in text
