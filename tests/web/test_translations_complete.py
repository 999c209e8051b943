"""Every user-visible string is translated into Korean and Bulgarian, from one catalogue.

The checks run against the catalogue template (`messages.pot`) and a fresh extraction of the
sources, so a string added to a template, a Python module, a page script, the clock scripts'
words or the printed forms' labels without a ko and a bg translation fails here; and the
printed forms and the clock pages are shown to read their words from that catalogue.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

import ball.i18n
from ball.i18n import Marked
from ball.printing import labels as printed
from ball.printing.render import labels, render_html
from ball.web.clocks.text import CLOCK_WORDS
from ball.web.core.language import LOCALES, gettext_for

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ball"
# What scripts/i18n.sh extracts: the web toolbox, the printed edition, the games' labels.
EXTRACTED = [SRC / "web", SRC / "printing", SRC / "games"]
TRANSLATED = ["ko", "bg"]
# %(name)s, %s, %d … and {name}: what Python's % and str.format / the scripts fill in.
_PLACEHOLDER = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[sdifr]|\{[^{}]*\}")
_SCRIPT = {"ko": re.compile("[가-힣]"), "bg": re.compile("[а-яА-Я]")}


def read_catalogue(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


def _texts(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def problems(template: Catalog, catalog: Catalog) -> list[str]:
    """What keeps `catalog` from translating every message of `template`, one line each."""
    found: list[str] = []
    for entry in template:
        if not entry.id:
            continue
        message = catalog.get(entry.id, entry.context)
        if message is None:
            found.append(f"missing: {entry.id!r}")
            continue
        if message.fuzzy:
            found.append(f"fuzzy: {entry.id!r}")
        if not all(s.strip() for s in _texts(message.string)):
            found.append(f"untranslated: {entry.id!r}")
            continue
        wanted = placeholders(" ".join(_texts(entry.id)))
        for text in _texts(message.string):
            if placeholders(text) != wanted:
                found.append(f"placeholders {placeholders(text)} != {wanted}: {entry.id!r}")
    return found


@pytest.fixture(scope="module")
def template() -> Catalog:
    return read_catalogue(LOCALES / "messages.pot")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_of_the_template_is_translated(template, lang):
    catalog = read_catalogue(LOCALES / lang / "LC_MESSAGES" / "messages.po", lang)
    assert len([m for m in template if m.id]) > 300
    assert problems(template, catalog) == []


def test_the_check_catches_empty_fuzzy_missing_and_broken_placeholders():
    template = Catalog()
    for msgid in ("Start", "Round %(n)s", "Ply {n} of {total}", "Table", "Flag"):
        template.add(msgid)
    catalog = Catalog(locale="bg")
    catalog.add("Start", "")
    catalog.add("Round %(n)s", "Кръг %(m)s")
    catalog.add("Ply {n} of {total}", "Полуход {n} от {total}")
    catalog.add("Table", "Маса", flags=["fuzzy"])
    assert problems(template, catalog) == [
        "untranslated: 'Start'",
        "placeholders ['%(m)s'] != ['%(n)s']: 'Round %(n)s'",
        "fuzzy: 'Table'",
        "missing: 'Flag'",
    ]


def test_the_template_holds_every_string_of_the_sources(extracted):
    # Extract exactly as the developers do (babel.cfg); a string the template lacks has no
    # catalogue entry at all, so the completeness check above would never see it.
    known = {(m.context, m.id) for m in read_catalogue(LOCALES / "messages.pot") if m.id}
    assert len(extracted) > 300
    assert sorted(extracted - known, key=str) == []


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> frozenset[tuple[str | None, str]]:
    """(context, id) of every message extracted from the sources, once for the module's two
    tests that read it: it depends only on the source files, and each run of pybabel was
    ~1 s (a child process)."""
    fresh = _extract(tmp_path_factory.mktemp("extracted"))
    return frozenset((m.context, m.id) for m in read_catalogue(fresh) if m.id)


def _extract(tmp_path: Path) -> Path:
    pybabel = shutil.which("pybabel", path=str(Path(sys.executable).parent)) or "pybabel"
    fresh = tmp_path / "fresh.pot"
    config = SRC / "babel.cfg"
    subprocess.run(
        [pybabel, "-q", "extract", "-F", str(config), "-o", str(fresh), *map(str, EXTRACTED)],
        check=True,
        cwd=ROOT,
    )
    return fresh


def _key(message: str | Marked) -> tuple[str | None, str]:
    return (message.context, message.message) if isinstance(message, Marked) else (None, message)


def test_printed_labels_and_clock_words_are_messages_of_the_catalogue(extracted):
    # Extraction finds every printed label (with its context) and every clock word, so the
    # completeness check above covers them in ko and bg.
    wanted = {_key(m) for m in printed.message_ids()} | {(None, m) for m in CLOCK_WORDS.values()}
    assert len(wanted) > 150
    assert sorted(wanted - extracted, key=str) == []


@pytest.fixture
def edited_catalogue(tmp_path, monkeypatch):
    """A copy of the catalogue the test may edit, read instead of the shipped one."""
    copy = tmp_path / "locales"
    shutil.copytree(LOCALES, copy, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(ball.i18n, "LOCALES", copy)
    _forget_catalogues()
    yield copy
    monkeypatch.undo()
    _forget_catalogues()


def _forget_catalogues() -> None:
    ball.i18n.translations.cache_clear()
    printed.labels_in.cache_clear()


def _retranslate(locales: Path, lang: str, context: str | None, msgid: str, text: str) -> None:
    path = locales / lang / "LC_MESSAGES" / "messages.po"
    catalog = read_catalogue(path, lang)
    entry = catalog.get(msgid, context)
    assert entry is not None and entry.string
    entry.string = text
    with path.open("wb") as fh:
        write_po(fh, catalog)
    _forget_catalogues()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_printed_forms_read_their_labels_from_the_catalogue(edited_catalogue, lang):
    before = labels(lang)["forms"]["score_sheet"]["title"]
    _retranslate(edited_catalogue, lang, None, "Match score sheet", "SHEET-FROM-PO")
    assert labels(lang)["forms"]["score_sheet"]["title"] == "SHEET-FROM-PO"
    html = render_html("forms", lang=lang).html
    assert "SHEET-FROM-PO" in html and before not in html
    # a label kept apart on paper follows its own entry ("printed form" context)
    _retranslate(edited_catalogue, lang, "printed form", "Check", "CHECK-ON-PAPER")
    assert labels(lang)["forms"]["score_sheet"]["check"] == "CHECK-ON-PAPER"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_clock_script_words_come_from_the_catalogue(client, edited_catalogue, lang):
    _retranslate(edited_catalogue, lang, None, "paused by the arbiter", "PAUSED-FROM-PO")
    words = _clock_words(client.get("/clock/desk", params={"lang": lang, "round": "1"}).text)
    assert words["status_paused"] == "PAUSED-FROM-PO"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_clock_script_words_arrive_translated(client, lang):
    # The clock scripts take their words from a JSON block the server translates.
    english = _clock_words(client.get("/clock/desk", params={"lang": "en", "round": "1"}).text)
    words = _clock_words(client.get("/clock/desk", params={"lang": lang, "round": "1"}).text)
    assert words.keys() == english.keys() and len(words) > 30
    untranslated = {k: v for k, v in words.items() if not _SCRIPT[lang].search(v)}
    assert untranslated == {}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_clock_page_words_follow_the_language(client, lang):
    page = client.get("/clock", params={"lang": lang}).text
    translate = gettext_for(lang)
    for english in ("Table clocks", "New table clock", "Time control", "No clocks yet."):
        assert english not in page
        assert translate(english) in page


def _clock_words(html: str) -> dict[str, str]:
    block = re.search(r'<script type="application/json" id="clock-text">(.*?)</script>', html, re.S)
    assert block, "the page carries no clock-text block"
    return json.loads(block.group(1))
