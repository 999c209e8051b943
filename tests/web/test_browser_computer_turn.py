"""Browser: a match against the computer you can follow (issue 36 items 2, 3 and 5).

At 1366x768 and 390x844 (the `page` fixture):

- item 2: while the computer answers, the page says "thinking…" (read out by the page's live
  region), the player's prompt and its Cancel are gone, nothing is lit, and the board does not
  move at all (its box on the page is sampled on every frame, thinking and following
  included); a new game's banner carries nothing of the game before;
- item 3: in half 2 the match strip counts half 1's touchdown ("You 0 – 1 Computer"), the log
  keeps half 1's lines under "Half 1", and Rematch stays reachable after the result dialog is
  closed (and in the controls all along);
- item 5: the half timer is on screen (turns left, the Final Drive) and the half ends on it,
  told like a touchdown's end.
"""

from __future__ import annotations

import httpx
import pytest

from ball.games.ball.engine import Game
from ball.games.ball.match.timing import load_timing
from ball.games.ball.web.rulebook import diagrams
from ball.half_timer import half_turns

from .conftest import SCREENSHOTS

pytestmark = pytest.mark.browser
SIM = "window.ballSimulator"
CAP = half_turns(load_timing().half_seconds, load_timing().turn_seconds)
IDLE = f"() => {SIM}.state && !document.getElementById('sim').hasAttribute('aria-busy')"


def shot(page, name: str) -> None:
    """The viewport as the player sees it, under test-artifacts/web/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{page.viewport_name}.png"))


def create(base: str, **body) -> dict:
    with httpx.Client(base_url=base, timeout=60) as c:
        r = c.post("/api/games", json=body)
        r.raise_for_status()
        return r.json()


def no_js_errors(page) -> None:
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []


# Every frame, the board's box in page coordinates (scrolling is not moving).
RECORD_BOARD = """() => {
  window.boardBoxes = new Set();
  const tick = () => {
    const r = document.querySelector('#sim .board').getBoundingClientRect();
    window.boardBoxes.add([r.left + scrollX, r.top + scrollY, r.width, r.height]
      .map((v) => Math.round(v)).join(','));
    window.boardTick = requestAnimationFrame(tick);
  };
  tick();
}"""


def start_vs_computer(page, base: str, speed: str = "normal") -> None:
    """A new game against the greedy computer from the New game bar; the player is North,
    who moves first (the computer plays South)."""
    page.goto(f"{base}/")
    page.wait_for_selector(".board .pieces [data-piece]")
    form = page.locator("#new-game")
    form.locator("select[name=mode]").select_option("computer")
    form.locator("select[name=computer_side]").select_option("S")
    form.locator("select[name=computer_level]").select_option("greedy")
    form.locator("button[type=submit]").click()
    page.wait_for_function(f"() => {SIM}.state.mode === 'computer'")
    page.locator("select[name=follow-speed]").select_option(speed)


def test_the_computer_turn_is_readable_and_the_board_stays_still(page, live_server, axe):
    start_vs_computer(page, live_server)
    banner = page.locator("#sim [data-field=banner]")
    assert "Your turn" in banner.inner_text()
    # hold the player's actions at the server's door: the page waits as for a slow computer
    held: list = []
    page.route("**/api/games**", lambda route: held.append(route))
    page.evaluate(RECORD_BOARD)
    # compose an action: a piece, then (the prompt and its Cancel up) the move's target
    origin = page.evaluate(f"{SIM}.composer.origins()[0]")
    page.evaluate(f"{SIM}.clickSquare({origin!r})")
    view = page.evaluate(f"{SIM}.composer.view()")
    if view["stage"] == "kind":
        page.locator(".compose .choices.kinds button").first.click()
        view = page.evaluate(f"{SIM}.composer.view()")
    assert page.locator(".compose button.cancel").is_visible()
    page.evaluate(f"{SIM}.clickSquare({view['squares'][0]!r})")
    page.wait_for_function("() => document.getElementById('sim').hasAttribute('aria-busy')")
    page.wait_for_timeout(200)  # as long as the computer takes
    compose = page.locator("#sim .compose")
    assert compose.locator("[data-field=thinking]").is_visible()
    assert compose.locator("button.cancel").count() == 0  # the stale prompt is gone
    assert compose.locator(".prompt").all_inner_texts() == ["The computer is thinking…"]
    assert page.locator("#sim .board circle.origin").count() == 0  # nothing to pick
    assert "thinking" in banner.inner_text()
    # and a screen reader hears it (the page's polite live region)
    live = page.locator("#sim [data-field=announce]")
    assert live.get_attribute("aria-live") == "polite" and "thinking" in live.inner_text()
    shot(page, "computer-thinking")
    for route in held:
        route.continue_()
    page.unroute("**/api/games**")
    page.wait_for_function(IDLE)
    # finish the turn so the computer plays and its moves are followed on the board
    for _ in range(6):
        if page.evaluate(f"{SIM}.state.log.some((e) => e.side === 'S')"):
            break  # the computer has played its turn
        cheapest = "l => l.includes('end') ? 'end' : l[0]"  # end the turn when it may
        page.evaluate(f"() => {SIM}.apply(({cheapest})({SIM}.state.legal))")
        page.wait_for_function(IDLE)
    page.wait_for_function(f"() => {SIM}.state.log.some((e) => e.side === 'S')")
    page.wait_for_function(IDLE)
    boxes = page.evaluate(
        "() => { cancelAnimationFrame(window.boardTick); return [...window.boardBoxes]; }"
    )
    assert len(boxes) == 1, f"the board moved: {boxes}"
    last = page.evaluate(f"{SIM}.state.log.at(-1)")
    assert last["side"] == "S" and banner.inner_text().startswith(last["text"])
    assert banner.inner_text().endswith("Your turn: you play North (N).")
    shot(page, "computer-turn-done")
    assert axe(page) == []
    # a new game: nothing of the old one in the banner
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_function(f"() => {SIM}.state.log.length === 0")
    assert banner.inner_text().startswith("Your turn")
    no_js_errors(page)


def test_the_match_strip_the_whole_log_and_rematch(page, live_server, axe):
    # half 1: the computer (South, quickest level) scores with its first action
    touchdown = diagrams()["touchdown"]["position"]
    common = {"mode": "computer", "computer_level": "greedy"}
    first = create(live_server, position=touchdown, computer_side="S", **common)
    assert first["over"] and first["position"]["score"]["S"] == 1
    page.goto(f"{live_server}/?game={first['id']}")
    strip = page.locator("#sim [data-field=match]")
    strip.wait_for()
    assert strip.inner_text().startswith("Half 1 · You 0 – 1 Computer")
    # half 2: the computer (now North) moves first; while it does, the page says so
    held: list = []
    page.route("**/next-half", lambda route: held.append(route))
    page.click("[data-control=announce-next-half]")
    page.wait_for_function("() => document.getElementById('sim').hasAttribute('aria-busy')")
    page.wait_for_timeout(100)
    assert page.locator("#sim .compose [data-field=thinking]").is_visible()
    assert page.locator("#sim .compose [data-control=next-half]").count() == 0
    assert "thinking" in page.locator("#sim [data-field=banner]").inner_text()
    for route in held:
        route.continue_()
    page.unroute("**/next-half")
    page.wait_for_function(f"() => {SIM}.state.position.half === 2")
    page.wait_for_function(f"() => {SIM}.firstHalf !== null")
    # half 2: the computer's touchdown of half 1 is still counted, its log lines kept
    assert strip.inner_text().startswith("Half 2 · You 0 – 1 Computer")
    turn = page.evaluate(f"{SIM}.state.position.turn")  # the computer (North) moved first
    assert f"Half timer: {CAP - turn + 1} turns left" in strip.inner_text()
    headings = page.locator("#sim .log .log-half").all_inner_texts()
    assert headings == ["Half 1", "Half 2"]
    half1_rows = page.locator("#sim .log-table[data-half='1'] tbody tr")
    assert half1_rows.count() == len(first["log"]) and "Touchdown" in half1_rows.last.inner_text()
    assert page.locator("#sim [data-control=restart-match]").is_visible()
    shot(page, "match-strip-half-2")
    assert axe(page) == []

    # the match ends (half 2 from a position where the player scores at once); the result
    # dialog is closed, and the result and Rematch stay beside the game
    second = create(live_server, position={**touchdown, "half": 2}, computer_side="N", **common)
    page.evaluate(  # linked to half 1 as the page links a half 2 it saw start
        "([a, b]) => sessionStorage.setItem('ball-first-half:' + b, a)", [first["id"], second["id"]]
    )
    page.goto(f"{live_server}/?game={second['id']}")
    page.wait_for_selector(".board .pieces [data-piece]")
    page.evaluate(f"{SIM}.apply('G15-I17')")
    dialog = page.locator("dialog.announce[open]")
    dialog.wait_for()
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    compose = page.locator("#sim .compose")
    assert "The match is over." in compose.inner_text()
    with httpx.Client(base_url=live_server, timeout=30) as c:
        res = c.get(f"/api/games/{second['id']}/result", params={"first": first["id"]}).json()
    assert compose.locator("[data-field=match-result]").inner_text().startswith(res["title"])
    rematch = compose.locator("[data-control=match-rematch]")
    assert rematch.is_visible()
    shot(page, "match-over-after-dialog")
    rematch.click()
    page.wait_for_function(f"id => {SIM}.state.id !== id", arg=second["id"])
    again = page.evaluate(f"{SIM}.state")
    assert again["position"]["half"] == 1 and again["mode"] == "computer"
    assert strip.inner_text().startswith("Half 1 · You 0 – 0 Computer")
    no_js_errors(page)


def test_the_half_timer_is_shown_and_ends_the_half(page, live_server, axe):
    doc = Game.new().to_json()
    doc["turn"] = CAP - 1
    game = create(live_server, mode="play", position=doc)
    page.goto(f"{live_server}/?game={game['id']}")
    strip = page.locator("#sim [data-field=match]")
    strip.wait_for()
    assert strip.inner_text() == "Half 1 · Coach A 0 – 0 Coach B · Half timer: 2 turns left"
    shot(page, "half-timer")
    seen = set()
    for _ in range(60):  # both coaches end every action phase at once
        if page.evaluate(f"{SIM}.state.over"):
            break
        seen.add(page.locator("#sim [data-field=half-timer]").inner_text())
        page.locator(".compose .choices.plain button").first.click()
        page.wait_for_function(IDLE)
    assert " · Final Drive: last turn" in seen
    dialog = page.locator("dialog.announce[open]")
    dialog.wait_for()
    assert dialog.get_attribute("data-kind") == "half-time"
    assert "Time!" in dialog.inner_text() and "Final Drive" in dialog.inner_text()
    shot(page, "half-timer-time-up")
    page.click("[data-control=announce-close]")
    assert "Time is up" in strip.inner_text()
    assert "The half timer ran out." in page.locator("#sim .compose").inner_text()
    assert page.locator("#sim .compose [data-control=next-half]").is_visible()
    assert page.evaluate(f"{SIM}.state.legal") == []  # the server took the turns away
    assert axe(page) == []
    no_js_errors(page)
