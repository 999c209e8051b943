"""Browser (1366x768 and 390x844): the simulator's board by keyboard (issue 36 item 8).

- "Skip to the board" is the first Tab stop; Enter on it puts the focus and the cursor on
  the board (19 Tabs before).
- The arrows move to the nearest playable square in their direction, keeping to the aim
  column (keyboard.js ARROW_STEPS): from D8, Down then Right lands on G7 (it reached K7), and
  Up, Up, Up, Up walks up column D (D8 E9 D10 E11 D12) instead of drifting.
- E ends the action phase (read back from the API), and the keys help under the board says
  so, with the arrows' rule."""

from __future__ import annotations

import pytest

from ball.games.ball.web.rulebook import diagrams

from .conftest import shoot
from .test_accessibility import cursor, go_to
from .test_browser import no_js_errors, open_game, state, wait_plies
from .test_browser_why_not import create

pytestmark = pytest.mark.browser


def open_s_to_move(page, live_server) -> str:
    """Block-steal after N's turn (dodge, block, continue): S to move with 2 PA."""
    gid = create(
        live_server, diagrams()["block-steal"]["position"], ("D10-F8/E7", "H10-G9", "continue")
    )
    open_game(page, live_server, gid)
    return gid


def test_skip_link_is_the_first_tab_stop_and_lands_on_the_board(page, live_server, axe):
    open_s_to_move(page, live_server)
    page.keyboard.press("Tab")
    link = page.evaluate(
        "() => [document.activeElement.className, document.activeElement.textContent]"
    )
    assert link == ["skip-link", "Skip to the board"]
    assert page.locator("a.skip-link").is_visible()  # shown while it has the focus
    shoot(page, "skip-link")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.classList.contains('board')")
    assert cursor(page) is not None
    assert axe(page) == []
    no_js_errors(page)


def test_arrows_keep_to_the_aim_column(page, live_server):
    open_s_to_move(page, live_server)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    go_to(page, "D8")
    page.keyboard.press("ArrowDown")
    assert cursor(page) == "E7"  # the nearer square towards the middle of the board
    page.keyboard.press("ArrowRight")
    assert cursor(page) == "G7"
    go_to(page, "F8")
    go_to(page, "D8")  # Left: D8 is now the aim column
    walked = []
    for _ in range(4):
        page.keyboard.press("ArrowUp")
        walked.append(cursor(page))
    assert walked == ["E9", "D10", "E11", "D12"]
    # a tie goes towards the middle whatever came before (the old alternating lean went on
    # to B8 here)
    go_to(page, "D8")
    for key in ("ArrowUp", "ArrowLeft", "ArrowDown"):
        page.keyboard.press(key)
    assert cursor(page) == "D8"
    go_to(page, "D12")
    page.keyboard.press("ArrowLeft")  # a new aim column: B
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert cursor(page) == "B10"
    no_js_errors(page)


def test_e_ends_the_action_phase_and_the_keys_help_says_so(page, live_server):
    gid = open_s_to_move(page, live_server)
    page.click("[data-field=keys-help] summary")
    help_text = page.locator("[data-field=keys-help]").inner_text()
    assert "end the action phase" in help_text and "keeping to your column" in help_text
    shoot(page, "keys-help")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.classList.contains('board')")
    page.keyboard.press("e")
    s = wait_plies(page, live_server, gid, 4)
    assert s["log"][3]["action"] == "end" and s["log"][3]["side"] == "S"
    assert state(live_server, gid)["position"]["phase"] == "release"
    # in the release phase E cannot end anything: it says so and changes nothing
    page.wait_for_function("() => document.activeElement.classList.contains('board')")
    page.keyboard.press("e")
    page.wait_for_function(
        "() => document.querySelector('[data-field=announce]').textContent"
        " === 'The action phase cannot be ended now.'"
    )
    assert len(state(live_server, gid)["log"]) == 4
    no_js_errors(page)
