"""Rulebook sources, diagrams and the UI catalogues in every language."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po

from ball.games.ball.engine import Game
from ball.games.ball.web import rulebook
from ball.web.core.language import (
    LANGUAGES,
    LOCALES,
    js_message_ids,
    parse_accept_language,
    pick_language,
)

DECISIONS = [f"D-{n:02d}" for n in range(1, 23)]


def structure(lang: str):
    return [
        (s.slug, s.diagrams, s.decisions, [a for a, _ in s.anchors])
        for s in rulebook.sections(lang)
    ]


def test_every_language_has_the_same_sections_diagrams_notes_and_anchors():
    english = structure("en")
    assert len(english) >= 10
    for lang in LANGUAGES:
        assert structure(lang) == english, lang


def test_every_decision_is_shown_somewhere():
    shown = {d for s in rulebook.sections("en") for d in s.decisions}
    assert shown == set(DECISIONS)


@pytest.mark.parametrize("name", sorted(rulebook.diagrams()))
def test_diagram_positions_are_valid_and_suggestions_legal(name):
    entry = rulebook.diagrams()[name]
    game = Game.from_json(entry["position"])
    assert entry["suggest"] in game.legal_actions()


def test_every_diagram_is_used():
    used = {d for s in rulebook.sections("en") for d in s.diagrams}
    assert used == set(rulebook.diagrams())


def test_translations_are_not_english_copies():
    en = {s.slug: s.html for s in rulebook.sections("en")}
    for lang, script in (("ko", "[가-힣]"), ("bg", "[а-яА-Я]")):
        for s in rulebook.sections(lang):
            text = re.sub(r"<[^>]+>", " ", s.html)
            assert s.html != en[s.slug]
            assert len(re.findall(script, text)) > 100, (lang, s.slug)


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_ui_catalogue_translates_every_string_of_the_simulator(lang):
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    missing = [m for m in js_message_ids() if not (catalog.get(m) and catalog.get(m).string)]
    assert missing == []


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_rulebook_pages_render(client, lang):
    index = client.get(f"/rulebook?lang={lang}")
    assert index.status_code == 200
    for s in rulebook.sections(lang):
        page = client.get(f"/rulebook/{s.slug}")
        assert page.status_code == 200
        assert f'<html lang="{lang}">' in page.text
        assert s.title in page.text
        for decision in s.decisions:
            assert f'data-decision="{decision}"' in page.text
        assert page.text.count('<figure class="diagram"') == len(s.diagrams)
    assert client.get("/rulebook/all").text.count("rule-section") >= len(rulebook.sections(lang))


def test_unknown_section_is_404(client):
    r = client.get("/rulebook/no-such-rule")
    assert r.status_code == 404 and "no-such-rule" in r.json()["detail"]


def test_language_choice():
    assert pick_language("ko", "bg", "en") == "ko"
    assert pick_language(None, "bg", "ko") == "bg"
    assert pick_language("xx", None, "bg-BG,bg;q=0.9,en;q=0.8") == "bg"
    assert pick_language(None, None, "fr, ko;q=0.5, bg;q=0.7") == "bg"
    assert pick_language(None, None, None) == "en"
    assert parse_accept_language("de;q=1") is None


def test_page_strings_follow_the_language(client):
    ko = client.get("/", params={"lang": "ko"}).text
    assert "시뮬레이터" in ko
    ui = re.search(r'<script type="application/json" id="ui-messages">(.*?)</script>', ko, re.S)
    assert json.loads(ui.group(1))["Undo"] == "되돌리기"
    assert "시뮬레이터" in client.get("/rulebook").text  # the cookie remembers the choice
    client.cookies.clear()
    bg = client.get("/", headers={"Accept-Language": "bg"}).text
    assert "Симулатор" in bg


def test_catalogue_template_holds_every_script_string():
    # Babel's extraction (babel.cfg) must see every string the scripts translate; a gettext
    # call inside a template literal, for one, is invisible to it.
    with (LOCALES / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    assert [m for m in js_message_ids() if m not in template] == []
