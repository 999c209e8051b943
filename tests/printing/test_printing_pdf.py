"""The printed edition read back from the PDF: text present and in order in every language,
every form on its own page, no controls in print, fonts embedded as subsets, paper sizes."""

from __future__ import annotations

import re
import subprocess

import pytest

from ball.games.ball.paper.forms import APPENDICES
from ball.printing import render_html
from ball.printing.render import labels, regulation_html

from .conftest import EVENT, needs_poppler, pdffonts, pdfinfo, render_to, squash

pytestmark = needs_poppler

HANGUL = re.compile(r"[\uac00-\ud7a3]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")

# A sentence fragment from the opening paragraph of each language's regulation, which is not
# in the table of contents: the body starts there.
OPENING = {
    "en": "This regulation turns the BALL board game into a tournament discipline.",
    "ko": "이 규정은 보드게임 BALL을 대회 종목으로 운영하기 위한 것입니다.",
    "bg": "Този регламент превръща настолната игра BALL в турнирна дисциплина.",
}


def _form_titles(lang: str) -> list[str]:
    t = labels(lang)
    word = t["doc"]["appendix"]
    titles = []
    for letter, key in APPENDICES:
        titles.append(f"{word} {letter} {t['forms'][key]['title']}")
        if key == "pairings":
            titles.append(f"{word} {letter} {t['forms']['pairings']['cards_title']}")
        if key == "incident":
            titles.append(f"{word} {letter} {t['forms']['forfeit']['title']}")
    return titles


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_regulation_text_is_all_there_and_in_order(regulation_pdfs, lang):
    text = squash(regulation_pdfs[lang].text)
    _, toc = regulation_html(lang)
    assert len(toc) >= 12
    start = text.index(squash(OPENING[lang]))
    # Every heading of the regulation, in source order, after the table of contents.
    position = start
    for entry in toc[1:]:
        found = text.find(squash(entry.text), position)
        assert found > position, f"heading {entry.text!r} missing or out of order"
        position = found
    # …and then every form, in appendix order.
    for title in _form_titles(lang):
        found = text.find(squash(title), position)
        assert found > position, f"form {title!r} missing or out of order"
        position = found


def test_korean_and_bulgarian_are_real_script(regulation_pdfs):
    ko = regulation_pdfs["ko"].text
    bg = regulation_pdfs["bg"].text
    assert len(HANGUL.findall(ko)) > 3000
    assert len(CYRILLIC.findall(bg)) > 8000
    # Sentences come out whole and in reading order (no glyph soup, no reordering).
    for phrase in ["볼 클록은 초도, 칸 수도 세지 않습니다.", "터치다운이 더 많은 감독이 이깁니다."]:
        assert phrase in squash(ko)
    for phrase in [
        "Часовникът на топката не брои нито секунди, нито полета.",
        "Печели треньорът с повече тъчдауни.",
    ]:
        assert phrase in squash(bg)
    assert not HANGUL.search(regulation_pdfs["bg"].text)


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_each_form_starts_on_a_new_page(regulation_pdfs, lang):
    pages = regulation_pdfs[lang].pages
    for title in _form_titles(lang):
        starting = [
            i
            for i, page in enumerate(pages)
            # the title is the first line after the running header (event and chapter)
            if squash(title) in squash(" ".join(page.strip().splitlines()[:3]))
        ]
        assert starting, f"{title!r} does not open a page"
        page = squash(pages[starting[0]])
        others = [t for t in _form_titles(lang) if t != title]
        # no other form's heading shares its first page (running headers show only its own)
        assert not any(squash(o) in page for o in others), title


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_no_control_leaks_into_print(regulation_pdfs, lang):
    rendered = regulation_pdfs[lang]
    controls = labels(lang)["controls"]
    text = squash(rendered.text)
    for label in controls.values():
        assert label in rendered.edition.html  # the web page has them…
        assert squash(label) not in text  # …paper never does
    assert "한국어" not in text or lang == "ko"  # language switch names


def test_fonts_are_embedded_subsets(regulation_pdfs):
    for lang, rendered in regulation_pdfs.items():
        fonts = pdffonts(rendered.pdf)
        assert fonts, lang
        for font in fonts:
            assert font["emb"] == "yes" and font["sub"] == "yes", (lang, font)
            assert font["uni"] == "yes", (lang, font)  # text can be extracted and searched
        assert any("Noto" in f["name"] for f in fonts), lang


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_running_header_page_numbers_and_contents(regulation_pdfs, lang):
    rendered = regulation_pdfs[lang]
    pages = rendered.pages
    count = int(pdfinfo(rendered.pdf)["Pages"])
    assert count >= 12
    # every page after the title page carries the event name and "n / total"
    for number, page in enumerate(pages[1:count], start=2):
        assert EVENT[lang] in page, number
        assert f"{number} / {count}" in page, number
    assert EVENT[lang] not in pages[0].replace(EVENT[lang], "", 1)  # title page: no header
    # the contents give page numbers, and they point at the right page
    t = labels(lang)
    contents = pages[1]
    line = next(li for li in contents.splitlines() if f"{t['doc']['appendix']} C" in li)
    target = int(line.rstrip().split()[-1])
    title = f"{t['doc']['appendix']} C {t['forms']['round_control']['title']}"
    assert squash(title) in squash(pages[target - 1])


def test_letter_paper_is_selectable(tmp_path):
    a4 = render_to(tmp_path, "a4", kind="forms", lang="bg", paper="a4")
    letter = render_to(tmp_path, "letter", kind="forms", lang="bg", paper="letter")
    assert "(A4)" in pdfinfo(a4.pdf)["Page size"]
    assert "(letter)" in pdfinfo(letter.pdf)["Page size"]


def test_wide_forms_print_landscape(tmp_path):
    rendered = render_to(tmp_path, "forms", kind="forms", lang="en")
    out = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "99", str(rendered.pdf)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    sizes = re.findall(r"Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+)", out)
    pages = rendered.pages
    for number, width, height in sizes:
        page = pages[int(number) - 1]
        landscape = float(width) > float(height)
        top = squash(" ".join(page.strip().splitlines()[:3]))
        wide_form = "Appendix D Standings" in top or "Appendix F Release-phase" in top
        assert landscape == wide_form, (number, top)


def test_forms_edition_has_no_regulation(tmp_path):
    edition = render_html("forms", lang="en")
    assert OPENING["en"] not in edition.html
    assert all(entry.level in ("appendix", "appendix-form") for entry in edition.toc)
