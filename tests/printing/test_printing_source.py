"""The one source: labels complete in every language, figures taken from data, forms that
print blank or filled from the same view models."""

from __future__ import annotations

import copy
import re

import pytest

from ball.games.ball.match.timing import load_timing
from ball.games.ball.paper.forms import (
    BallForms,
    ControlRow,
    HalfSheet,
    MatchResult,
    RoundControl,
    ScoreSheet,
    StealRow,
)
from ball.printing import PrintingError, render_html
from ball.printing.forms import FormSet, Header, PairingRow, Pairings, blank_forms
from ball.printing.render import LANGUAGES, labels, parameters, regulation_html

from .conftest import needs_poppler, render_to, squash


def _keys(table: dict, prefix: str = "") -> set[str]:
    keys = set()
    for key, value in table.items():
        path = f"{prefix}{key}"
        keys |= _keys(value, f"{path}.") if isinstance(value, dict) else {path}
    return keys


def test_every_language_has_every_label():
    english = _keys(labels("en"))
    for lang in LANGUAGES:
        assert _keys(labels(lang)) == english, lang
        assert all(str(v).strip() for v in _flat(labels(lang))), lang


def _flat(table: dict):
    for value in table.values():
        yield from _flat(value) if isinstance(value, dict) else [value]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_regulation_quotes_the_figures_from_data(lang):
    timing = load_timing()
    html, _ = regulation_html(lang)
    assert str(int(timing.half_seconds // 60)) in html
    changed = copy.deepcopy(parameters())
    changed.update(half_minutes=43, signal_gap_minutes=29, turn_seconds=77)
    html2, _ = regulation_html(lang, changed)
    for figure in ("43", "29", "77"):
        alone = re.compile(rf"(?<!\d){figure}(?!\d)")  # \b fails before Hangul
        assert not alone.search(html) and alone.search(html2)
    assert "{{" not in html2 and "}}" not in html2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_section_of_the_regulation_is_in_every_language(lang):
    _, toc = regulation_html(lang)
    _, english = regulation_html("en")
    assert [e.level for e in toc] == [e.level for e in english]
    numbers = [e.text.split(".")[0] for e in toc if e.level == 2]
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)]


def test_earliest_second_half_signal():
    control = RoundControl(
        signal_1="10:00",
        gap_minutes=10,
        rows=[ControlRow("1", "10:21"), ControlRow("2", "10:48"), ControlRow("3", "10:35")],
    )
    assert control.last_first_half_end == "10:48"
    assert control.earliest_signal_2 == "10:58"
    # unknown until every table has finished its first half
    control.rows.append(ControlRow("4", ""))
    assert control.earliest_signal_2 == ""


def test_steal_choice_gives_the_pb_of_the_sheet():
    assert StealRow(3, "B", "continue").pb == 1
    assert StealRow(3, "B", "reset").pb == 2
    assert StealRow().pb is None


def _filled() -> FormSet:
    header = Header(event="Plovdiv Open", round="2", date="2026-11-30", referee="Ivanova")
    sheet = ScoreSheet(
        header=header,
        table="7",
        coach_a="Kim Minjun",
        coach_b="Petar Petrov",
        halves=[
            HalfSheet(
                1,
                "A",
                pb={"A": {"atk": 6, "def": 2}, "B": {"atk": 2, "def": 6}},
                steals=[StealRow(5, "B", "reset")],
                touchdown="A",
                td_pbatk=6,
            ),
            HalfSheet(2, "B", pb={"A": {"atk": 0, "def": 9}, "B": {"atk": 9, "def": 0}}),
        ],
        result=MatchResult(td={"A": 1, "B": 0}, criterion="td", winner="A"),
    )
    pairs = [("7", "Kim Minjun", "Petar Petrov"), ("8", "Lee Seo-yeon", "Maria Georgieva")]
    return FormSet(
        pairings=Pairings(header, [PairingRow(t, a, b) for t, a, b in pairs]),
        prefilled=True,
        game=BallForms(
            score_sheets=[sheet],
            round_control=RoundControl(header, "10:00", rows=[ControlRow("7", "10:31")]),
        ),
    )


def test_filled_score_sheet_marks_the_tally_and_the_choices():
    html = render_html("forms", lang="ko", forms=_filled()).html
    section = html[html.index('data-form="score_sheet"') : html.index('data-form="pairings"')]
    # 6+2+2+6 PB in the first half, 0+9+9+0 in the second: one stroked box each, drawn as a
    # run of marks as wide as that many boxes
    box = parameters()["blank"]["tally_box_mm"]
    runs = re.findall(r'class="marks" data-pb="(\d+)" style="width: ([\d.]+)mm', section)
    assert [int(n) for n, _ in runs] == [6, 2, 2, 6, 9, 9]
    assert all(abs(float(w) - int(n) * box) < 1e-6 for n, w in runs)
    assert "Kim Minjun" in section and "Petar Petrov" in section
    assert section.count('class="cb on"') >= 4  # reset, touchdown A, criterion, winner
    # blank copy has none
    blank = render_html("forms", lang="ko").html
    assert 'class="marks"' not in blank and 'class="cb on"' not in blank


@needs_poppler
def test_filled_forms_pdf(tmp_path):
    rendered = render_to(tmp_path, "filled", kind="forms", lang="bg", forms=_filled())
    text = squash(rendered.text)
    for name in ("Kim Minjun", "Petar Petrov", "Lee Seo-yeon", "Maria Georgieva"):
        assert name in text
    assert "Plovdiv Open" in text and "10:41" in text  # earliest signal 2 = 10:31 + 10 min
    # two table cards (one per pairing), each with its table number
    cards = [p for p in rendered.pages if labels("bg")["forms"]["pairings"]["cards_title"] in p]
    assert cards and "7" in cards[0] and "8" in cards[0]


def test_blank_forms_carry_the_event_name():
    forms = blank_forms("Seoul Cup")
    assert forms.game.score_sheets[0].header.event == "Seoul Cup"
    assert "Seoul Cup" in render_html("forms", lang="en", forms=forms).html


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"lang": "fr"}, "unknown language 'fr'"),
        ({"paper": "b5"}, "unknown paper size 'b5'"),
        ({"kind": "rulebook"}, "unknown edition 'rulebook'"),
    ],
)
def test_bad_requests_name_what_was_wrong(kwargs, needle):
    with pytest.raises(PrintingError, match=re.escape(needle)):
        render_html(**kwargs)


def test_weasyprint_accepts_the_whole_stylesheet(caplog):
    """An ignored CSS rule silently breaks the layout (a font stack, a tally stroke), so
    WeasyPrint must not warn about anything in our document."""
    from ball.printing import render_pdf

    caplog.set_level("WARNING", logger="weasyprint")
    render_pdf(render_html("forms", lang="ko", forms=_filled()))
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []


def test_the_regulation_prints_only_with_its_games_forms():
    """BALL's blank set is the regulation's appendices; another game's forms, or the shared
    forms alone, are refused with it, in words that name the game."""
    from ball.games import GAMES, load

    regulation = render_html("regulation", lang="en").html
    assert 'data-form="score_sheet"' in regulation and 'data-form="release_log"' in regulation
    xiangqi = load(GAMES["xiangqi"].paper.blank)("Cup")
    with pytest.raises(PrintingError) as refused:
        render_html("regulation", lang="en", forms=xiangqi)
    assert str(refused.value) == "the regulation is BALL's; a Xiangqi event prints its forms"
    shared = FormSet(pairings=Pairings(Header(event="Cup"), [PairingRow("1", "X", "O", "1-0")]))
    with pytest.raises(PrintingError, match="the regulation is BALL's; this event prints"):
        render_html("regulation", lang="en", forms=shared)


def test_forms_without_a_games_own_print_the_shared_pairing_list_and_standings():
    shared = FormSet(pairings=Pairings(Header(event="Cup"), [PairingRow("1", "X", "O", "1-0")]))
    html = render_html("forms", lang="en", forms=shared).html
    forms = re.findall(r'data-form="([^"]+)"', html)
    assert forms == ["pairings", "table_cards", "standings"]
    assert "Cup" in html
