"""Phone play of the simulator (issue 36 item 6), at 1366x768 and 390x844: the New game bar
heads the page and Start brings the board into view; a selected piece and each of its lit
targets lie between the sticky header and the choices' sheet (bounding boxes); on a phone a
Zoom toggle widens the board beyond the screen and pans to the selection."""

from __future__ import annotations

import pytest

from .conftest import SCREENSHOTS
from .test_browser import click_square, new_game, no_js_errors, open_game

pytestmark = pytest.mark.browser

# The band of the window a square must lie in: under the sticky header, above the sheet.
BAND = """() => {
  const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
  const sheet = document.querySelector('.compose').getBoundingClientRect();
  const sticky = getComputedStyle(document.querySelector('.compose')).position === 'sticky';
  const bottom = sticky ? Math.min(innerHeight, sheet.top) : innerHeight;
  return { top: Math.max(0, header), bottom };
}"""
# The selected square and every drawn target: square name -> box in the window.
MARKED = """() => {
  const view = window.ballSimulator.composer.view();
  const nodes = [...document.querySelectorAll('.board .targets .target[data-square]')];
  const out = nodes.map(n => [n.dataset.square, n.getBoundingClientRect()]);
  const sel = document.querySelector(`.board .sq[data-square="${view.origin}"]`);
  out.push(['selected ' + view.origin, sel.getBoundingClientRect()]);
  return out.map(([sq, r]) => ({ sq, top: r.top, bottom: r.bottom, left: r.left, right: r.right }));
}"""


def shoot(page, name: str) -> None:
    """The window as the player sees it (a full-page shot would move the sticky sheet)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{page.viewport_name}.png"))


def covered(page) -> list[str]:
    """The marked squares (selection and targets) not wholly inside the visible band."""
    band = page.evaluate(BAND)
    width = page.viewport_size["width"]
    return [
        m["sq"]
        for m in page.evaluate(MARKED)
        if m["top"] < band["top"] - 0.5
        or m["bottom"] > band["bottom"] + 0.5
        or m["left"] < -0.5
        or m["right"] > width + 0.5
    ]


def tap_where_it_is(page, square: str) -> None:
    """A tap on the square as the page shows it now (no scrolling first, as a thumb does)."""
    box = page.locator(f'.board .hit[data-square="{square}"]').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_set_up_heads_the_page_and_start_shows_the_board(page, live_server):
    page.goto(live_server + "/")
    page.wait_for_selector(".board .pieces [data-piece]")
    form = page.locator("#new-game").bounding_box()
    board = page.locator(".board").bounding_box()
    assert form is not None and board is not None
    assert page.evaluate("scrollY") == 0
    assert form["y"] + form["height"] <= board["y"]  # the set-up comes first
    assert form["y"] + form["height"] <= page.viewport_size["height"]  # on the first screen
    page.select_option("#new-game select[name=mode]", "play")
    page.click("#new-game button[type=submit]")
    page.wait_for_function(
        "() => window.ballSimulator.pending && window.ballSimulator.pending.mode === 'play'"
    )
    board = page.locator(".board").bounding_box()
    header = page.evaluate("document.querySelector('.site-header').getBoundingClientRect().bottom")
    assert board is not None
    # the board starts right under the header (a laptop's board is under the New game bar)
    assert header - 1 <= board["y"] < header + (40 if page.viewport_name == "phone" else 80)
    shoot(page, "phone-play-started")
    no_js_errors(page)


def test_the_sheet_never_covers_the_selection_or_its_targets(page, live_server):
    gid = new_game(live_server, "move-x")  # South to move, its pieces in the lower rows
    open_game(page, live_server, gid)
    # a thumb's view: the page scrolled so the X on F6 sits just above the sheet, its
    # downward targets (E5, D4, G5, H4) below where the sheet is held
    page.evaluate(
        """() => {
          const sq = document.querySelector('.board .sq[data-square="F6"]').getBoundingClientRect();
          const sheet = document.querySelector('.compose').offsetHeight;
          const sticky = getComputedStyle(document.querySelector('.compose')).position === 'sticky';
          const bottom = sticky ? innerHeight - sheet : innerHeight;
          window.scrollBy(0, sq.bottom - bottom + 4);
        }"""
    )
    tap_where_it_is(page, "F6")
    page.wait_for_selector(".choices.kinds button[data-kind=move]")
    assert covered(page) == []
    shoot(page, "phone-play-selected-kinds")
    page.click("button[data-kind=move]")
    page.wait_for_function("() => window.ballSimulator.composer.view().stage === 'target'")
    assert covered(page) == []
    targets = page.evaluate(MARKED)
    assert {"D4", "E5", "G5", "H4"} <= {m["sq"] for m in targets}
    shoot(page, "phone-play-selected-targets")
    tap_where_it_is(page, "D4")  # where it is shown: not under the sheet, so the tap lands
    page.wait_for_function("() => window.ballSimulator.state.log.length === 1")
    assert page.evaluate("window.ballSimulator.state.log[0].action") == "F6-D4"
    no_js_errors(page)


def test_zoom_widens_the_board_and_pans_to_the_selection(page, live_server, axe):
    gid = new_game(live_server, "move-x")
    open_game(page, live_server, gid)
    zoom = page.locator("button[data-control=zoom]")
    if page.viewport_name == "desktop":
        assert zoom.is_hidden()  # the laptop's board is big enough
        return
    normal = page.locator(".board").bounding_box()
    assert normal is not None
    zoom.click()
    assert zoom.get_attribute("aria-pressed") == "true"
    wide = page.locator(".board").bounding_box()
    assert wide is not None and wide["width"] >= 1.7 * normal["width"]
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0  # panned strip
    # the ball carrier on G7: its targets reach the whole board, so the selection is centred
    click_square(page, "G7")
    page.wait_for_selector(".choices.kinds button[data-kind=long]")
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.querySelector('.board-scroll').scrollLeft = 0")
    page.click("button[data-kind=long]")
    page.wait_for_function("() => window.ballSimulator.composer.view().stage === 'target'")
    band = page.evaluate(BAND)
    sel = page.locator('.board .sq[data-square="G7"]').bounding_box()
    assert sel is not None
    assert band["top"] <= sel["y"] and sel["y"] + sel["height"] <= band["bottom"]
    assert sel["x"] >= 0 and sel["x"] + sel["width"] <= page.viewport_size["width"]
    shoot(page, "phone-play-zoomed")
    assert axe(page) == []
    click_square(page, "A17")  # a long pass to the far corner, tapped on the zoomed board
    page.wait_for_function("() => window.ballSimulator.state.log.length === 1")
    assert page.evaluate("window.ballSimulator.state.log[0].action") == "G7@A17"
    zoom.click()
    assert zoom.get_attribute("aria-pressed") == "false"
    no_js_errors(page)
