"""Browser: a whole match against the computer, played through the simulator page (issue 13).

"What must be shown": at 1366x768 and 390x844 a full match against the computer reaches the
result announcement with the right reason. Nothing is shortened: the match is started from the
page's New game bar under the shipped standard rules, the player's side is played from the
first turn of half 1 to the end of half 2 with the page's own input (keys at 1366x768: the
board's cursor and Enter, the focus following the next choice; taps at 390x844 on the board's
squares and the menu's buttons), through the half-time screen, to the result. The player's
choice is the simplest one the page offers (the first piece it lights, its first action, the
first target); the computer (the cheapest level, greedy) is seeded by the game, so every run
plays the same match. A simulator half ends at a touchdown or on the half timer counted in
turns (20, D-20; tests/web/test_sim_half_timer.py); greedy scores within ~7 turns against
this player, so the match takes ~30 of the player's actions (measured: about 25 s a size).

Checked on the way, as they happen: each touchdown is announced (half 1's in the half-time
screen, which says the roles switch), the computer's steal is told with its choice (continue
or reset, §10 R-steal), and the result names the winner and the reason exactly as
`GET /api/games/{id}/result` (`decide()`, spec 13) does. Then "New match" and "Rematch".
"""

from __future__ import annotations

import httpx
import pytest

from ball.games.ball.match.result import decide

from .conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIM = "window.ballSimulator"
# ready for the player: no request under way, and either an announcement open or the
# player's move (a finished half waits for its announcement, which comes after the state)
READY = f"""() => {{
  const s = {SIM}.state;
  if (!s || document.getElementById('sim').hasAttribute('aria-busy')) return false;
  if (document.querySelector('dialog.announce[open]')) return true;
  return !s.over && s.actor !== s.computer_side;
}}"""
MAX_STEPS = 400  # page inputs for the whole match; ~3 per action, ~30 actions


def shot(page, name: str) -> None:
    """What the player sees (the viewport, not the whole page: the dialog and the phone's
    bottom sheet are placed in the viewport), under test-artifacts/web/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{page.viewport_name}.png"))


def square_point(page, square: str) -> tuple[float, float]:
    """The screen point of a square's centre, scrolled into view (the board's own geometry)."""
    page.evaluate(
        f"sq => {{ const b = {SIM}.board; b.svg.querySelector(`.hits [data-square=${{sq}}]`)"
        ".scrollIntoView({block: 'center'}); }",
        square,
    )
    return page.evaluate(
        f"""sq => {{
          const b = {SIM}.board; const [x, y] = b.center(sq);
          const m = b.svg.getScreenCTM();
          return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
        }}""",
        square,
    )


def tap(page) -> None:
    """One tap of the player: the first lit piece, its first action, its first target, or the
    first button the page offers when no piece is lit (end the turn, the steal choice)."""
    view = page.evaluate(f"{SIM}.composer.view()")
    if view["stage"] == "piece":
        if view["origins"]:
            page.mouse.click(*square_point(page, view["origins"][0]))
        else:
            page.locator(".compose .choices.plain button").first.click()
    elif view["stage"] == "kind":
        page.locator(".compose .choices.kinds button").first.click()
    elif view["squares"]:
        page.mouse.click(*square_point(page, view["squares"][0]))
    else:
        page.locator(".compose .choices.words button").first.click()


def key(page) -> None:
    """One key of the player: Enter on what has the focus (the board's cursor, which starts on
    the first lit piece or target, or the button the focus moved to); Tab to the board first
    when the focus is elsewhere (after a dialog closed)."""
    where = "() => { const a = document.activeElement; return a && (a.matches('.board') ? 'board'"
    where += " : a.closest('#sim .compose') ? 'menu' : 'elsewhere'); }"
    for _ in range(60):
        if page.evaluate(where) != "elsewhere":
            break
        page.keyboard.press("Tab")
    else:
        pytest.fail("Tab never reaches the board")
    page.keyboard.press("Enter")


def result_of(base: str, second: str, first: str) -> dict:
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.get(f"/api/games/{second}/result", params={"first": first})
        r.raise_for_status()
        return r.json()


def start_match(page, base: str) -> str:
    page.goto(f"{base}/")
    page.wait_for_selector(".board .pieces [data-piece]")
    blank = page.evaluate(f"{SIM}.state.id")
    form = page.locator("#new-game")
    form.locator("select[name=mode]").select_option("computer")
    form.locator("select[name=ruleset]").select_option("standard")
    form.locator("select[name=computer_side]").select_option("N")
    form.locator("select[name=computer_level]").select_option("greedy")
    form.locator("button[type=submit]").click()
    page.wait_for_function(f"id => {SIM}.state && {SIM}.state.id !== id", arg=blank)
    # the computer's turns followed at the quickest speed that still animates them
    page.locator("select[name=follow-speed]").select_option("fast")
    return page.evaluate(f"{SIM}.state.id")


def test_a_full_match_against_the_computer_reaches_its_result(page, live_server):
    step = key if page.viewport_name == "desktop" else tap
    first = start_match(page, live_server)
    state = page.evaluate(f"{SIM}.state")
    assert (state["mode"], state["ruleset"], state["computer_level"]) == (
        "computer",
        "standard",
        "greedy",
    )
    assert state["computer_side"] == "N" and state["position"]["half"] == 1
    # North moves first (DEF, R-turns): the computer has played turn 1, the player's is next
    assert {(e["turn"], e["side"]) for e in state["log"]} == {(1, "N")}
    assert state["actor"] == "S" and not state["over"]
    dialog = page.locator("dialog.announce[open]")
    steals: list[str] = []
    touchdowns: list[dict] = []
    seen_half_time = False
    for _ in range(MAX_STEPS):
        page.wait_for_function(READY, timeout=60_000)
        state = page.evaluate(f"{SIM}.state")
        notice = page.locator(".announce-inline[data-kind=steal]")
        told_at = f"{state['id']}:{len(state['log'])}"
        if notice.is_visible() and told_at not in steals:
            steals.append(told_at)
            told = notice.inner_text()
            assert "Steal!" in told and "continue" in told and "reset" in told  # explained
            last_steal = max(i for i, e in enumerate(state["log"]) if "steal" in e["events"])
            if state["announce"]["side"] == state["computer_side"]:
                # the computer chose at once: its choice is told (continue swaps the roles)
                chosen = state["log"][last_steal + 1]["action"]
                assert state["announce"]["choice"] == chosen and f"chooses to {chosen}" in told
                assert ("ATK and DEF swap" in told) == (chosen == "continue")
                roles = page.locator(".coach[data-side=N] [data-role]").get_attribute("data-role")
                assert roles == state["position"]["attack"].replace("N", "ATK").replace("S", "DEF")
            else:
                assert state["position"]["phase"] == "steal" and "ATK and DEF swap" in told
            notice.scroll_into_view_if_needed()
            shot(page, "full-match-steal")
        if not dialog.count():
            step(page)
            continue
        kind = dialog.get_attribute("data-kind")
        touchdowns.append(state["announce"])
        assert state["over"] and state["announce"]["kind"] == "touchdown"
        scorer = state["log"][-1]["side"]
        assert "touchdown" in state["log"][-1]["events"]
        assert state["announce"]["side"] == scorer
        assert state["announce"]["text"] in dialog.inner_text()  # "<side> scores and ends…"
        if kind == "half-time":
            assert state["position"]["half"] == 1 and not seen_half_time
            seen_half_time = True
            text = dialog.inner_text()
            assert "Touchdown!" in text and "Half-time" in text and "roles switch" in text
            assert "You now play North, the computer plays South" in text
            shot(page, "full-match-half-time")
            if step is key:
                page.keyboard.press("Enter")  # the dialog's first button: the second half
            else:
                page.locator("[data-control=announce-next-half]").click()
            page.wait_for_function(f"() => {SIM}.state.position.half === 2")
            assert not page.locator("dialog.announce[open]").count()
            second = page.evaluate(f"{SIM}.state")
            # Forget the tab's own link to half 1 (as another tab, or a reload, would not
            # have it): the result below must come from the server's record of the halves.
            page.wait_for_function("id => sessionStorage.getItem('ball-first-half:' + id)",
                                   arg=second["id"])  # fmt: skip
            page.evaluate("sessionStorage.clear()")
            assert second["computer_side"] == "S" and second["position"]["turn"] == 1
            if step is key:  # the keyboard player is not stranded on the page after it
                assert page.evaluate("document.activeElement.matches('.board')")
            continue
        assert kind == "result"
        break
    else:
        pytest.fail(f"no result after {MAX_STEPS} inputs")
    assert seen_half_time and len(touchdowns) == 2
    # this seeded match has the computer's steal in half 1 (it continues): it was told
    assert steals
    # the announcement is the server's decision of this match (decide() on its sheet)
    state = page.evaluate(f"{SIM}.state")
    assert state["position"]["half"] == 2 and state["computer_side"] == "S"
    res = result_of(live_server, state["id"], first)
    decision = decide(res["sheet"])
    assert dialog.get_attribute("data-reason") == decision.reason.value
    assert res["decision"]["reason"] == decision.reason.value
    text = dialog.inner_text()
    assert res["title"] in text and res["text"] in text
    assert [h["td"] for h in res["sheet"]["halves"]] == [
        "A" if t["side"] == ("S" if i == 0 else "N") else "B" for i, t in enumerate(touchdowns)
    ]
    winner = {None: "Draw", "you": "You won", "computer": "The computer won"}
    who = None
    if decision.winner is not None:
        who = "computer" if decision.winner == "B" else "you"  # B: North in half 1
    assert winner[who] in text
    td = decision.td  # whose touchdowns are whose, in words (B, North in half 1: the computer)
    assert f"Touchdowns: you {td['A']}, the computer {td['B']}." in text
    shot(page, "full-match-result")

    # New match: back to the New game bar, the next match chosen there
    page.locator("[data-control=new-match]").click()
    assert not page.locator("dialog.announce[open]").count()
    assert page.evaluate("document.activeElement.closest('#new-game') !== null")
    page.locator("#new-game select[name=mode]").select_option("play")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_function(f"() => {SIM}.state.mode === 'play'")
    assert page.evaluate(f"{SIM}.state.position.half") == 1

    # Rematch, from the finished match's page: the same settings, half 1 again
    page.goto(f"{live_server}/?game={state['id']}")
    page.wait_for_selector("dialog.announce[open][data-kind=result]")
    page.locator("[data-control=rematch]").click()
    page.wait_for_function(f"id => {SIM}.state.id !== id", arg=state["id"])
    again = page.evaluate(f"{SIM}.state")
    assert again["id"] not in (first, state["id"])
    assert again["position"]["half"] == 1 and again["computer_side"] == "N"
    assert (again["mode"], again["ruleset"], again["computer_level"]) == (
        "computer",
        "standard",
        "greedy",
    )
    real = [e for e in page.js_errors if "Failed to load resource" not in e]
    assert real == []
