"""Accessibility of the web toolbox (issue 13), in Debian's Chromium at 1366x768 and 390x844.

- Keyboard alone: a full turn with a dodge, a block that steals the ball and the steal
  choice, then the other side's move and end of turn, and a release-phase split with its
  ball choice; every step is read back from the JSON API (the page decides nothing).
- Phone first: at 390 px the board fills the width at the top, every one of the 111
  playable squares is a tap target at least 44 px wide and high (measured, and probed with
  taps 22 px off its centre), the choice sheet is on screen, and nothing scrolls sideways.
- axe-core (tools/axe, installed by scripts/setup.sh; read from disk, never fetched) finds no
  serious or critical violation on the simulator, rulebook, desk and public pages.
Screenshots land in /tmp/shots_S2/ and test-artifacts/web/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .test_browser import new_game, no_js_errors, open_game, state, wait_plies

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("BALL_SHOTS", "/tmp/shots_S2"))


# --- keyboard ---------------------------------------------------------------------------


def cursor(page) -> str | None:
    return page.evaluate(
        "() => { const c = document.querySelector('.board .cursor');"
        " return c ? c.dataset.square : null; }"
    )


def focused(page, attribute: str) -> str | None:
    return page.evaluate(f"() => document.activeElement.getAttribute('{attribute}')")


def tab_to_board(page) -> None:
    """Tab from the top of the page until the board has the focus."""
    for _ in range(60):
        if page.evaluate("() => document.activeElement.classList.contains('board')"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


def go_to(page, square: str) -> None:
    """Arrow keys until the cursor is on `square` (rows first, then along the row)."""
    for _ in range(40):
        at = cursor(page)
        assert at is not None, "no cursor on the focused board"
        if at == square:
            return
        row, want = int(at[1:]), int(square[1:])
        if row != want:
            page.keyboard.press("ArrowUp" if want > row else "ArrowDown")
        else:
            page.keyboard.press("ArrowRight" if square[0] > at[0] else "ArrowLeft")
    raise AssertionError(f"the cursor never reached {square} (at {cursor(page)})")


def tab_to(page, attribute: str, value: str) -> None:
    """Tab through the choice buttons until the one with attribute=value has the focus."""
    for _ in range(15):
        if focused(page, attribute) == value:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"no button [{attribute}={value}] reached by Tab")


def announced(page) -> str:
    return page.locator("[data-field=announce]").inner_text()


def test_keyboard_alone_plays_a_full_turn(page, live_server):
    """Rulebook diagram 'block-steal' (N to move, 2 PA): N dodges D10 over F8 to E7
    (art. on the dodge), blocks the carrier on G9 with H10 and, the ball stolen, chooses to
    continue; then S moves D8-C7, ends its action phase and, in its release phase, stands up
    the O2 the dodge knocked down."""
    gid = new_game(live_server, "block-steal")
    open_game(page, live_server, gid)
    tab_to_board(page)
    assert cursor(page) is not None
    description = page.locator(".board-text").inner_text()
    assert "X5 G9" in description and "X5 H10" in description

    # Esc gives up a piece selected by mistake; the focus comes back to the board
    go_to(page, "D10")
    page.keyboard.press("Enter")
    page.wait_for_selector(".choices.kinds button")
    assert focused(page, "data-kind") is not None  # the action menu took the focus
    page.keyboard.press("Escape")
    page.wait_for_selector(".choices.kinds", state="detached")
    assert page.evaluate("() => document.activeElement.classList.contains('board')")

    # action 1: dodge D10 over F8 to E7
    go_to(page, "D10")
    page.keyboard.press("Enter")
    page.wait_for_selector(".choices.kinds button")
    tab_to(page, "data-kind", "dodge")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board .target.first")
    go_to(page, "F8")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board .target.followup")
    go_to(page, "E7")
    shoot_phone(page, "keyboard-cursor")
    page.keyboard.press("Enter")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "D10-F8/E7"
    page.wait_for_function(
        "() => document.querySelector('[data-field=announce]').textContent.includes('D10-F8/E7')"
    )

    # action 2: block the carrier on G9 with H10, which steals the ball (steal decision)
    go_to(page, "H10")
    page.keyboard.press("Enter")
    page.wait_for_selector(".choices.kinds button")
    tab_to(page, "data-kind", "block")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board .target.first")
    go_to(page, "G9")
    page.keyboard.press("Enter")
    page.wait_for_selector("button[data-action=continue]")
    assert state(live_server, gid)["position"]["phase"] == "steal"
    shoot_phone(page, "steal-choice")
    # the steal choice takes the focus: Tab between continue and reset, Enter decides
    page.wait_for_function("() => document.activeElement.dataset.action === 'continue'")
    page.keyboard.press("Enter")
    s = wait_plies(page, live_server, gid, 3)
    assert [e["action"] for e in s["log"]] == ["D10-F8/E7", "H10-G9", "continue"]
    assert s["position"]["ball"] == {"carrier": "N:X5"} and s["actor"] == "S"

    # S: a move, then "end the action phase" from the keyboard
    page.wait_for_function("() => document.activeElement.classList.contains('board')")
    go_to(page, "D8")
    page.keyboard.press("Enter")
    page.wait_for_selector(".choices.kinds button")
    tab_to(page, "data-kind", "move")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board .target.first")
    go_to(page, "C7")
    page.keyboard.press("Enter")
    s = wait_plies(page, live_server, gid, 4)
    assert s["log"][3]["action"] == "D8-C7" and s["position"]["pa"] == 1
    page.keyboard.press("Tab")
    tab_to(page, "data-action", "end")
    page.keyboard.press("Enter")
    s = wait_plies(page, live_server, gid, 5)
    assert s["log"][4]["action"] == "end" and s["position"]["phase"] == "release"
    # S's release phase: its O2, knocked down by the dodge, stands up (the task is a button
    # too, but the board does it: the cursor starts on the piece to release)
    page.wait_for_function("() => document.activeElement.classList.contains('board')")
    assert "Release phase" in announced(page)
    go_to(page, "F8")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board .target.first")
    go_to(page, "G7")
    page.keyboard.press("Enter")
    s = wait_plies(page, live_server, gid, 6)
    assert s["log"][5]["action"] == "up F8-G7" and s["actor"] == "N"
    assert "up F8-G7" in announced(page)
    no_js_errors(page)


def test_keyboard_alone_plays_the_release_phase(page, live_server):
    """Rulebook diagram 'release': N splits the stack on G9, its X5 going to H10 on top
    with the ball (the ball choice is a button reached by Tab)."""
    gid = new_game(live_server, "release")
    open_game(page, live_server, gid)
    tab_to_board(page)
    go_to(page, "G9")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board .target.first")
    go_to(page, "H10")
    page.keyboard.press("Enter")
    page.wait_for_selector("button[data-word=top]")
    tab_to(page, "data-word", "top")
    page.keyboard.press("Enter")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "split G9 H10 F10:top"
    assert s["position"]["ball"] == {"carrier": "N:X5"}
    assert "split G9 H10 F10:top" in announced(page)
    # one live region speaks for the widget (the redrawn panels would repeat themselves)
    assert page.locator("#sim [aria-live]").count() == 1
    no_js_errors(page)


# --- phone first ---------------------------------------------------------------------------

TARGETS = """() => {
  const svg = document.querySelector('.board').getBoundingClientRect();
  return [...document.querySelectorAll('.board .hits .hit')].map((hit) => {
    const r = hit.getBoundingClientRect();
    // only what is on the board and on screen counts
    const left = Math.max(r.left, svg.left, 0), right = Math.min(r.right, svg.right, innerWidth);
    const top = Math.max(r.top, svg.top), bottom = Math.min(r.bottom, svg.bottom);
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const probe = (x, y) => {
      const n = document.elementFromPoint(x, y);
      const owner = n && n.closest('[data-square]');
      return owner ? owner.dataset.square : null;
    };
    const taps = [[0, 0], [22, 0], [-22, 0], [0, 22], [0, -22]]
      .filter(([dx, dy]) => cx + dx > svg.left && cx + dx < Math.min(svg.right, innerWidth)
        && cy + dy > svg.top && cy + dy < svg.bottom)
      .map(([dx, dy]) => probe(cx + dx, cy + dy));
    return { square: hit.dataset.square, width: right - left, height: bottom - top, taps };
  });
}"""


def tap(page, square: str) -> None:
    """A tap in the middle of the square's target (pieces drawn over it take it too)."""
    box = page.locator(f'.board .hit[data-square="{square}"]').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def shoot_phone(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_name}.png"))


def sheet_on_screen(page) -> bool:
    return page.evaluate(
        """() => { const r = document.querySelector('.compose').getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5; }"""
    )


@pytest.mark.parametrize("page", ["phone"], indirect=True)
def test_phone_board_has_44px_tap_targets_and_no_sideways_scroll(page, live_server):
    gid = new_game(live_server, "block-steal")
    open_game(page, live_server, gid)
    board = page.locator(".board").bounding_box()
    assert board is not None
    assert board["y"] < 70, f"{board['y']:.0f} px of chrome above the board"
    assert board["width"] >= 0.97 * 390
    targets = page.evaluate(TARGETS)
    assert len(targets) == 111  # 13x17 squares, those with column + row even
    small = [(t["square"], round(t["width"]), round(t["height"])) for t in targets
             if t["width"] < 44 or t["height"] < 44]
    assert small == []
    misses = [(t["square"], t["taps"]) for t in targets if set(t["taps"]) != {t["square"]}]
    assert misses == [], misses[:5]
    smallest = min(min(t["width"], t["height"]) for t in targets)
    print(f"smallest tap target at 390x844: {smallest:.1f} px; board top {board['y']:.0f} px")
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    # the menu is shut and folds open under the header, with every link on screen
    assert not page.locator(".site-nav").is_visible()
    page.click(".menu-toggle")
    links = page.evaluate(
        "() => [...document.querySelectorAll('.site-nav a')].map(a => a.getBoundingClientRect())"
        ".filter(r => r.left < 0 || r.right > innerWidth).length"
    )
    assert page.locator(".site-nav").is_visible() and links == 0
    page.click(".menu-toggle")

    # a tap on a piece opens the action menu as a sheet on screen, not below the fold
    tap(page, "H10")
    page.wait_for_selector(".choices.kinds button")
    assert sheet_on_screen(page)
    shoot_phone(page, "simulator-menu-sheet")
    page.click("button[data-kind=block]")
    tap(page, "G9")
    page.wait_for_selector("button[data-action=continue]")
    assert sheet_on_screen(page)
    # scrolled down to the log, the sheet with the steal choice is still on screen
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert sheet_on_screen(page)
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.evaluate("window.scrollTo(0, 0)")
    shoot_phone(page, "simulator-mid-game")
    no_js_errors(page)


# --- axe-core (the desk and public pages: tests/desk/test_accessibility.py) -----------------


def test_axe_finds_nothing_serious_on_the_simulator_and_rulebook(page, live_server, axe):
    gid = new_game(live_server, "block-steal")
    open_game(page, live_server, gid)
    tap(page, "H10")
    page.wait_for_selector(".choices.kinds button")
    findings = {"simulator": axe(page)}
    page.goto(f"{live_server}/rulebook")
    findings["rulebook"] = axe(page)
    page.goto(f"{live_server}/rulebook/all")
    page.wait_for_selector(".board")
    findings["rulebook/all"] = axe(page)
    assert {k: v for k, v in findings.items() if v} == {}
