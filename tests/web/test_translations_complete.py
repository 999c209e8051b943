"""Every UI string of the web toolbox is translated into Korean and Bulgarian.

The checks run against the catalogue template (`messages.pot`) and a fresh extraction of the
sources, so a string added to a template, a Python module or a page script without a ko and a
bg translation fails here.
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
from babel.messages.pofile import read_po

from ball.web.i18n import LOCALES, gettext_for

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "ball" / "web"
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


def test_the_template_holds_every_string_of_the_sources(tmp_path):
    # Extract exactly as the developers do (babel.cfg); a string the template lacks has no
    # catalogue entry at all, so the completeness check above would never see it.
    pybabel = shutil.which("pybabel", path=str(Path(sys.executable).parent)) or "pybabel"
    fresh = tmp_path / "fresh.pot"
    subprocess.run(
        [pybabel, "-q", "extract", "-F", str(WEB / "babel.cfg"), "-o", str(fresh), str(WEB)],
        check=True,
        cwd=ROOT,
    )
    known = {m.id for m in read_catalogue(LOCALES / "messages.pot") if m.id}
    extracted = {m.id for m in read_catalogue(fresh) if m.id}
    assert len(extracted) > 300
    assert sorted(extracted - known, key=str) == []


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
