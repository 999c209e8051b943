"""Browser: a steal's notice and its Continue/Reset choice are on screen together (issue 13).

The steal (spec 5.5: a Block on the ball carrier) asks the stealer to continue or reset (spec
5.6). At 1366x768 and 390x844 (the `page` fixture), right after the steal and without any
scrolling, the notice that explains the choice and both buttons must lie inside the viewport
and be the topmost drawing at their corners (not hidden under the sticky choices' sheet)."""

from __future__ import annotations

import httpx
import pytest

from ball.games.ball.engine import Game
from ball.games.ball.web.rulebook import diagrams

from .conftest import shoot

pytestmark = pytest.mark.browser

# The topmost element at each inset corner and at the centre of a box must lie inside it.
UNCOVERED = """([selector]) => {
  const node = document.querySelector(selector);
  const r = node.getBoundingClientRect();
  const inset = 3;
  const points = [[r.left + inset, r.top + inset], [r.right - inset, r.top + inset],
    [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset],
    [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
  const inView = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const hidden = points.filter(([x, y]) => !node.contains(document.elementFromPoint(x, y)));
  return { inView, covered: hidden.length };
}"""


@pytest.mark.parametrize("lang", ["en", "bg"])  # Bulgarian's longer sentences make a taller notice
def test_the_steal_notice_and_its_two_choices_fit_the_screen(page, live_server, lang):
    position = diagrams()["block-steal"]["position"]
    game = Game.from_json(position)
    steal = next(
        a for a in game.legal_actions() if any(e.kind == "steal" for e in game.copy().apply(a))
    )
    with httpx.Client(base_url=live_server, timeout=30) as c:
        r = c.post("/api/games", json={"position": position})
        r.raise_for_status()
        gid = r.json()["id"]
    page.goto(f"{live_server}/?game={gid}&lang={lang}")
    page.wait_for_selector(".board .pieces [data-piece]")
    # (on a phone an opened game brings its board under the header: that scroll is done)
    opened = page.evaluate("scrollY")
    page.evaluate(f"window.ballSimulator.apply({steal!r})")
    page.locator(".announce-inline[data-kind=steal]").wait_for()
    page.locator("button[data-action=continue]").wait_for()
    assert page.evaluate("scrollY") == opened  # nothing scrolled the page for the steal
    for selector in (
        ".announce-inline[data-kind=steal]",
        "button[data-action=continue]",
        "button[data-action=reset]",
    ):
        seen = page.evaluate(UNCOVERED, [selector])
        assert seen == {"inView": True, "covered": 0}, (selector, seen)
    # the notice explains both answers (spec 5.6), in the page's language
    text = page.locator(".announce-inline").inner_text()
    if lang == "en":
        assert "continue" in text and "reset" in text
    else:
        assert "continue" not in text and "reset" not in text and len(text) > 40
    shoot(page, f"steal-sheet-{lang}")
    # a tap on the board (nothing to select in the steal phase) keeps the notice in the sheet
    page.locator(".board .sq.playable[data-square=A17]").click()
    assert page.locator(".announce-inline[data-kind=steal]").is_visible()
    page.click("button[data-action=reset]")
    page.wait_for_function("() => window.ballSimulator.state.position.phase !== 'steal'")
    assert page.locator(".announce-inline").is_hidden()
