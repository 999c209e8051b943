"""Issue 13's loose ends in the browser: no stored game however often / is opened (a game is
stored at its first action, issue 30), no "PE 0" under standard rules (§2/§11), a rulebook
"Play" that greys out once played, a bare /replay that says what to do."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.browser


def stored_games(base: str) -> list[dict]:
    with httpx.Client(base_url=base, timeout=20) as c:
        return c.get("/api/games").json()


def test_visiting_the_simulator_stores_no_game_until_the_first_action(page, live_server):
    # issue 30 item 8: a visit stores nothing; the game is stored with its first action
    for _ in range(3):
        page.goto(f"{live_server}/")
        page.locator("[data-field=score-S]").wait_for()
    assert stored_games(live_server) == []
    page.evaluate("window.ballSimulator.apply(window.ballSimulator.state.legal[0])")
    page.wait_for_url("**/?game=*")
    games = stored_games(live_server)
    assert len(games) == 1 and games[0]["plies"] == 1
    assert page.evaluate("window.ballSimulator.state.log.length") == 1
    # standard rules have no PE: the coach boxes do not show "PE 0"
    assert page.locator("[data-field=pe-S]").count() == 0
    assert page.locator("[data-field=pbatk-S]").count() == 1
    assert page.js_errors == []


def test_rulebook_play_greys_out_once_played(page, live_server):
    page.goto(f"{live_server}/rulebook/dodge")
    figure = page.locator("figure.diagram[data-diagram=dodge]")
    figure.locator("button[data-control=play-suggested]").click()
    figure.locator(".log-table tbody tr").wait_for()
    play = figure.locator("button[data-control=play-suggested]")
    assert play.is_disabled()
    figure.locator("button[data-control=undo]").click()
    figure.locator("button[data-control=play-suggested]:not([disabled])").wait_for()
    assert page.js_errors == []


def test_bare_replay_explains_itself(page, live_server):
    page.goto(f"{live_server}/replay")
    assert page.locator("#replay-empty").is_visible()
    assert not page.locator("#replay").is_visible()
    assert page.js_errors == []
