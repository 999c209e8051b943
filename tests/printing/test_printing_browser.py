"""What the print button prints, in a real browser: Debian's Chromium prints the page to PDF
(as the print dialog would) — the whole regulation and every form, and no toolbar."""

from __future__ import annotations

import pytest

from ball.printing import render_html
from ball.printing.render import labels

from .conftest import CONTROLS, needs_poppler, pdftotext, squash

pytestmark = [pytest.mark.browser, needs_poppler]


@pytest.fixture(scope="module")
def page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_browser_print_has_everything_but_the_toolbar(page, lang, tmp_path):
    t = labels(lang)
    page.set_content(render_html("regulation", lang=lang, controls=CONTROLS).html)
    button = page.get_by_role("button", name=t["controls"]["print"])
    page.emulate_media(media="screen")
    assert button.is_visible()
    page.emulate_media(media="print")
    assert not button.is_visible()
    assert not page.locator(".controls").is_visible()
    pdf = tmp_path / "printed.pdf"
    pdf.write_bytes(page.pdf(format="A4", prefer_css_page_size=True))
    text = squash(pdftotext(pdf))
    for label in t["controls"].values():
        assert squash(label) not in text
    for key in ("score_sheet", "pairings", "round_control", "standings", "incident"):
        assert squash(t["forms"][key]["title"]) in text, key
    assert squash(t["forms"]["release_log"]["title"]) in text
    assert squash(t["doc"]["regulation_title"]) in text
