"""Browser (1366x768 and 390x844): Learn by keyboard (issue 36 loose end 3).

"Skip to the board" is Learn's first Tab stop; Enter on it puts the focus and the cursor on the
lesson's board, the arrows move the cursor, Enter selects a piece and its target, and the lesson
"Moving" is completed without the mouse. The link still lands on the board of a lesson opened
after the first (Learn builds a new board per lesson)."""

from __future__ import annotations

import pytest

from .conftest import shoot
from .test_accessibility import cursor, go_to
from .test_browser import no_js_errors

pytestmark = pytest.mark.browser
BOARD_FOCUSED = "() => document.activeElement.classList.contains('board')"


def skip_to_board(page) -> None:
    page.keyboard.press("Tab")
    link = page.evaluate(
        "() => [document.activeElement.className, document.activeElement.textContent]"
    )
    assert link == ["skip-link", "Skip to the board"]
    page.keyboard.press("Enter")
    page.wait_for_function(BOARD_FOCUSED)
    assert cursor(page) is not None


def test_the_move_lesson_by_keyboard(page, live_server, axe):
    page.goto(f"{live_server}/learn#move")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    skip_to_board(page)
    assert axe(page) == []
    start = cursor(page)
    page.keyboard.press("ArrowUp" if start[1:] != "17" else "ArrowDown")
    assert cursor(page) != start  # the arrows move the cursor
    go_to(page, "F6")
    page.keyboard.press("Enter")  # selects the piece: its kinds or its targets are offered
    page.wait_for_selector(".choices.kinds button, .board .target")
    if page.locator(".choices.kinds button[data-kind=move]").count():
        page.locator(".choices.kinds button[data-kind=move]").focus()
        page.keyboard.press("Enter")
    page.wait_for_selector(".board .target")
    page.wait_for_function(BOARD_FOCUSED)
    go_to(page, "D4")
    shoot(page, "learn-keyboard-cursor")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.lessonMet === 'move'")
    assert page.locator("#lesson-verdict").inner_text() == "Well done: lesson complete."
    no_js_errors(page)


def test_the_skip_link_finds_the_board_of_the_next_lesson(page, live_server):
    page.goto(f"{live_server}/learn#move")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    page.evaluate("() => { location.hash = 'handoff'; }")
    page.wait_for_function(
        "() => document.body.dataset.lessonMet !== 'move'"
        " && document.querySelector('#lesson-title').textContent !== 'Moving'"
    )
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    page.locator("a.skip-link").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(BOARD_FOCUSED)
    assert page.evaluate(
        "() => document.getElementById('lesson-board').contains(document.activeElement)"
    )
    assert cursor(page) is not None
    no_js_errors(page)


# Counts the keydown listeners the page holds on the document (added minus removed), so a
# board that Learn replaces is seen to let go of its Esc handler.
COUNT_DOCUMENT_KEYDOWN = """
(() => {
  window.__keydown = 0;
  const add = Document.prototype.addEventListener;
  const remove = Document.prototype.removeEventListener;
  Document.prototype.addEventListener = function (type, ...rest) {
    if (type === "keydown") window.__keydown += 1;
    return add.call(this, type, ...rest);
  };
  Document.prototype.removeEventListener = function (type, ...rest) {
    if (type === "keydown") window.__keydown -= 1;
    return remove.call(this, type, ...rest);
  };
})();
"""


def test_a_replaced_lesson_board_lets_go_of_the_document(page, live_server):
    page.add_init_script(COUNT_DOCUMENT_KEYDOWN)
    page.goto(f"{live_server}/learn#move")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    first = page.evaluate("() => window.__keydown")
    for lesson in ("handoff", "move", "handoff"):
        before = page.evaluate("() => document.querySelector('#lesson-title').textContent")
        page.evaluate(f"() => {{ location.hash = '{lesson}'; }}")
        page.wait_for_function(
            f"() => document.querySelector('#lesson-title').textContent !== {before!r}"
        )
        page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    # three lessons later the document holds as many keydown listeners as with the first
    assert page.evaluate("() => window.__keydown") == first
    no_js_errors(page)
