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


def _longest_box_run(pgm: bytes, box_px: float) -> int:
    """Most boxes side by side on one pixel row of a greyscale page image: inked lines one
    box width apart (within 15 %), as the tally strip draws them; text never lines up so."""
    header, rest = pgm.split(b"\n", 1)
    size, rest = rest.split(b"\n", 1)
    _, data = rest.split(b"\n", 1)
    width, height = map(int, size.split())
    best = 0
    for y in range(height):
        row = data[y * width : (y + 1) * width]
        starts = [x for x in range(1, width) if row[x] < 235 <= row[x - 1]]
        run = 0
        for a, b in zip(starts, starts[1:], strict=False):
            run = run + 1 if abs(b - a - box_px) <= 0.15 * box_px else 0
            best = max(best, run)
    return best


def test_browser_print_keeps_every_tally_box(page, tmp_path):
    """Chromium prints without "background graphics" by default, and the boxes are drawn as
    backgrounds: the printed score sheet must still show every box of the strip."""
    import subprocess

    from ball.printing.render import parameters

    blank = parameters()["blank"]
    t = labels("en")
    page.set_content(render_html("forms", lang="en", controls=CONTROLS).html)
    page.emulate_media(media="print")
    pdf = tmp_path / "printed.pdf"
    pdf.write_bytes(page.pdf(format="A4", prefer_css_page_size=True))
    pages = pdftotext(pdf).split("\f")
    title = t["forms"]["score_sheet"]["title"]
    sheet_page = next(  # the form itself, not its line in the contents
        n for n, text in enumerate(pages, start=1) if title in text and "PBATK" in text
    )
    dpi = 150
    image = subprocess.run(
        ["pdftoppm", "-f", str(sheet_page), "-l", str(sheet_page), "-r", str(dpi), "-gray", pdf],
        capture_output=True,
        check=True,
    ).stdout
    box_px = blank["tally_box_mm"] / 25.4 * dpi
    assert _longest_box_run(image, box_px) >= blank["tally_boxes"]
