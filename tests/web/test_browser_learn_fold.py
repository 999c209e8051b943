"""Browser at 1366x768: the whole Learn board is visible without scrolling under the lesson
list (issue 36 loose end 4; the list takes one short line on a laptop)."""

from __future__ import annotations

import pytest

from .conftest import shoot

pytestmark = pytest.mark.browser


# the laptop only: a phone folds the list to one line and scrolls to its board
# (tests/web/test_browser_learn_retry.py)
@pytest.mark.parametrize("page", ["desktop"], indirect=True)
@pytest.mark.parametrize("lesson", ["pieces", "move", "handoff", "keep"])
def test_the_board_is_above_the_fold_on_a_laptop(page, live_server, lesson):
    page.goto(f"{live_server}/learn#{lesson}")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    page.evaluate("() => window.scrollTo(0, 0)")
    board = page.locator("#lesson-board .board").bounding_box()
    height = page.viewport_size["height"]
    assert board["y"] >= 0 and board["y"] + board["height"] <= height, (board, height)
    links = page.locator(".lesson-list a[data-lesson]")
    assert links.count() >= 10 and all(a.is_visible() for a in links.all())
    shoot(page, f"learn-fold-{lesson}")
