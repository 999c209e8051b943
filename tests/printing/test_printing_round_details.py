"""Pre-filled forms tell the whole story of a round (issue 11, item 17): the criterion of a
1-1 decided by SD, the dual-entry checks, a forfeit's half data, byes in the form's language,
sanctions and signals from the desk's tables, the contents, long halves, the edition's draft
and its marked decisions."""

from __future__ import annotations

import re
import time

import pytest

from ball.printing import render_html
from ball.printing.from_event import forms_for_round
from ball.printing.render import LANGUAGES, labels, parameters

tournament = pytest.importorskip("ball.tournament")

START = time.mktime((2026, 12, 1, 10, 0, 0, 0, 0, -1))


def _half(atk: str, td: str | None, pb: dict, **extra) -> dict:
    return {"atk_first": atk, "td": td, "pb": pb, **extra}


def _pb(x: str, y: str, x_atk: int, x_def: int) -> dict:
    return {x: {"atk": x_atk, "def": x_def}, y: {"atk": x_def, "def": x_atk}}


def _one_all_equal_pbatk(a: str, b: str) -> dict:
    # 1-1, both scorers needed 4 PBATK: decided by SD (D-18); b's SD is larger (2 to -2)
    return {
        "coaches": [a, b],
        "halves": [_half(a, a, _pb(a, b, 4, 1)), _half(b, b, _pb(a, b, 3, 4))],
    }


def _forfeit_in_half_2(a: str, b: str) -> dict:
    # half 1 played to its touchdown, half 2 abandoned by b after 3 PB
    return {
        "coaches": [a, b],
        "halves": [_half(a, a, _pb(a, b, 5, 2)), _half(b, None, _pb(a, b, 0, 3), end="forfeit")],
        "forfeit": b,
    }


def _long_half(a: str, b: str) -> dict:
    # a first half of 34 PBATK for a: more than one strip of boxes
    return {
        "coaches": [a, b],
        "halves": [_half(a, a, _pb(a, b, 34, 2)), _half(b, None, _pb(a, b, 0, 6))],
    }


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> dict:
    from ball.storage import open_database
    from ball.tournament import TournamentService, sanction_log, signals
    from ball.tournament.models import Entrant

    db = str(tmp_path_factory.mktemp("round") / "event.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Busan Open", system="round-robin", arbiter="Park")
    for name in ("Ann", "Boris", "Chae-won", "Dimitar", "Eun-ji", "Filip", "Gergana"):
        svc.entrants.add_player(name)
    tables = svc.rounds.pair_next_round()
    played = [t for t in tables if t["b"]]
    bye = next(t for t in tables if not t["b"])
    sheets = [_one_all_equal_pbatk, _forfeit_in_half_2, _long_half]
    for table, make in zip(played, sheets, strict=True):
        svc.results.enter_result(1, table["table"], sheet=make(table["a"], table["b"]))
    event_id = svc.events.event_info()["id"]
    _, sessions = open_database(db)
    with sessions.begin() as s:
        signals.give_signal(s, event_id, 1, 1, START, 600)
        for table in (played[0], played[2]):  # the forfeited table plays no second half
            signals.record_half_end(s, event_id, 1, table["table"], START + 22 * 60)
        signals.give_signal(s, event_id, 1, 2, START + 35 * 60, 600)
        # logged as the CLI does: the round, but no table
        offender = s.query(Entrant).filter_by(event_id=event_id, name=played[0]["b"]).one()
        sanction_log.record(s, event_id, offender.id, "warning", "slow play", START + 300,
                            round_number=1)  # fmt: skip
    return {"db": db, "tables": played, "bye": bye}


@pytest.fixture(scope="module")
def forms(event):
    return forms_for_round(event["db"], 1)


def _sheet_html(html: str, index: int) -> str:
    """The score sheet at `index` (the order of `forms.game.score_sheets`) in a rendered edition."""
    sections = html.split('<section class="form form-score-sheet"')[1:]
    return sections[index].split("</section>")[0]


def _ticked(html: str) -> list[str]:
    return [m.strip() for m in re.findall(r'<span class="cb on"></span>([^<]*)', html)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_all_decided_by_sd_ticks_its_own_criterion(event, forms, lang):
    one_all = forms.game.score_sheets[0]
    assert one_all.result.criterion == "efficiency_sd" and one_all.result.winner == "B"
    L = labels(lang)["forms"]["score_sheet"]
    ticked = _ticked(_sheet_html(render_html("forms", lang=lang, forms=forms).html, 0))
    assert L["crit_efficiency_sd"] in ticked
    assert L["crit_defence"] not in ticked  # it was no 0-0


def test_dual_entry_checks_are_ticked_when_the_counters_agree(forms):
    html = render_html("forms", lang="en", forms=forms).html
    for sheet in forms.game.score_sheets:
        for half in sheet.halves:
            assert half.dual_entry_ok == {"a_atk": True, "b_atk": True}
    checks = re.findall(r'<span class="check">(.*?)</span></h3>', html, re.S)
    filled = checks[: 2 * len(forms.game.score_sheets)]
    assert filled and all(c.count('class="cb on"') == 2 for c in filled)
    blank = render_html("forms", lang="en").html
    assert 'class="cb on"' not in "".join(re.findall(r'<span class="check">.*?</h3>', blank, re.S))


def test_a_forfeit_after_a_played_half_prints_its_tallies_and_keeps_the_data(event, forms):
    sheet = forms.game.score_sheets[1]
    first, second = sheet.halves
    assert first.pb == {"A": {"atk": 5, "def": 2}, "B": {"atk": 2, "def": 5}}
    assert second.pb == {"A": {"atk": 0, "def": 3}, "B": {"atk": 3, "def": 0}}
    assert (first.research_only, second.research_only) == (False, True)
    assert sheet.result.criterion == "forfeit" and sheet.result.td == {"A": 2, "B": 0}
    (record,) = forms.game.forfeits
    assert (record.half, record.how, record.kept) == (2, "abandoned", True)
    t = labels("ko")
    html = render_html("forms", lang="ko", forms=forms).html
    section = _sheet_html(html, 1)
    assert re.findall(r'data-pb="(\d+)"', section) == ["5", "2", "2", "5", "3", "3"]
    assert t["forms"]["score_sheet"]["research_only"] in section
    forfeit = html[html.index('data-form="forfeit"') :]
    assert t["common"]["yes"] in _ticked(forfeit) and t["forms"]["forfeit"]["abandoned"] in (
        _ticked(forfeit)
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bye_is_named_in_the_forms_language(event, forms, lang):
    (row,) = [r for r in forms.pairings.rows if not r.coach_b]
    assert row.bye == "pab"
    html = render_html("forms", lang=lang, forms=forms).html
    assert f"— ({labels(lang)['forms']['pairings']['bye']['pab']})" in html
    assert "(pab)" not in html


def test_sanctions_and_signals_from_the_desks_tables(event, forms):
    # a sanction logged without a table lands on the offender's table of that round
    assert [(s.coach, s.level, s.reason, s.time) for s in forms.game.score_sheets[0].sanctions] == [
        ("B", "warning", "slow play", "10:05")
    ]
    control = forms.game.round_control
    assert control.signal_1 == "10:00"
    assert [(r.first_half_end, r.second_half_start) for r in control.rows] == [
        ("10:22", "10:35")
    ] * 2
    html = render_html("forms", lang="bg", forms=forms).html
    assert "slow play" in html and "10:35" in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_contents_list_every_form_and_each_appendix_once(lang):
    t = labels(lang)
    edition = render_html("regulation", lang=lang)
    letters = [e.text.split(" — ")[0] for e in edition.toc if e.level == "appendix"]
    assert letters == [f"{t['doc']['appendix']} {c}" for c in "ABCDEF"]
    listed = " ".join(e.text for e in edition.toc)
    assert t["forms"]["pairings"]["cards_title"] in listed
    assert t["forms"]["forfeit"]["title"] in listed
    for entry in edition.toc:
        assert f'id="{entry.anchor}"' in edition.html, entry


def test_a_half_over_thirty_pb_has_room_on_the_sheet(event, forms):
    boxes = parameters()["blank"]["tally_boxes"]
    sheet = forms.game.score_sheets[2]
    assert sheet.halves[0].tally_lines(boxes) == 2
    html = render_html("forms", lang="en", forms=forms).html
    section = _sheet_html(html, 2)
    first_half = section.split('<div class="half">')[1]
    # A's 34 PBATK: a full strip of 30 and 4 more on the second line; every counter of that
    # half gets the second line, so the rows stay aligned
    assert re.findall(r'data-pb="(\d+)"', first_half)[:2] == [str(boxes), "4"]
    assert first_half.count(f'data-from="{boxes + 1}"') == 4
    assert f"{2 * boxes + 1}+" in first_half
    # on a blank sheet the strokes beyond the boxes have their own cell in every row
    blank = render_html("forms", lang="en").html
    assert blank.count('<td class="tally-more">') == 8 and f"{boxes + 1}+" in blank


DECIDED = {
    "en": "A 1-1 with equal PBATK is decided by SD",
    "ko": "1-1에서 PBATK까지 같으면",
    "bg": "При 1-1 с равни PBATK решава SD",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_edition_is_draft_v6_and_marks_the_decisions(lang):
    t = labels(lang)
    html = render_html("regulation", lang=lang).html
    title_page = html[html.index('<header class="title-page">') : html.index("</header>")]
    assert t["doc"]["draft"] in title_page and "V6" in t["doc"]["draft"]
    decisions = re.findall(r'<blockquote class="decision">(.*?)</blockquote>', html, re.S)
    marked = " ".join(decisions)
    for number in ("D-12", "D-13", "D-18", "D-19", "D-20", "D-21", "D-34", "D-35"):
        assert f"{t['doc']['decision']} {number}" in marked, number
    # the D-18 rule is inside its decision block and nowhere else as plain regulation text
    assert DECIDED[lang] in marked and html.count(DECIDED[lang]) == 1
    assert t["doc"]["decision_note"] in html


def test_a_forfeit_stored_before_d35_still_prints(tmp_path):
    """A forfeit sheet whose two halves were played out, stored before D-35 refused such
    sheets, must not stop the round's forms from printing."""
    import json

    from ball.storage import open_database
    from ball.tournament import TournamentService
    from ball.tournament.models import Result

    db = str(tmp_path / "old.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Old Cup", system="round-robin")
    for name in ("Ann", "Boris"):
        svc.entrants.add_player(name)
    (table,) = svc.rounds.pair_next_round()
    a, b = table["a"], table["b"]
    svc.results.enter_result(1, table["table"], forfeit="B")
    legacy = {
        "coaches": [a, b],
        "halves": [_half(a, b, _pb(a, b, 0, 3)), _half(b, b, _pb(a, b, 4, 0))],
        "forfeit": b,
    }
    _, sessions = open_database(db)
    with sessions.begin() as s:
        s.query(Result).one().sheet = json.dumps(legacy)
    (sheet,) = forms_for_round(db, 1).game.score_sheets
    assert sheet.result.criterion == "forfeit" and sheet.result.winner == "A"
    assert sheet.halves[1].pb == {"A": {"atk": 4, "def": 0}, "B": {"atk": 0, "def": 4}}
