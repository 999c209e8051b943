"""Card mode in Debian's Chromium: a card-mode game from the "New game" bar, PA to PE, cards
played from their buttons (and on the board for cards that name a piece), and the
card-recovery choice. After every step the state is read back through the JSON API.
"""

from __future__ import annotations

import httpx
import pytest

from ball.games.ball.engine import Game
from ball.web.core.language import gettext_for

from .conftest import SCREENSHOTS, shoot
from .test_browser import click_square, lit, no_js_errors, open_game, state, wait_plies

pytestmark = pytest.mark.browser

DECK = ["sprint", "second-wind", "long-arm", "quick-feet", "screen", "audible"]


def create(base: str, position: dict) -> str:
    with httpx.Client(base_url=base, timeout=20) as c:
        r = c.post("/api/games", json={"position": position})
        r.raise_for_status()
        return r.json()["id"]


def origins(page) -> set[str]:
    """Squares lit as pieces that can act now."""
    squares = page.eval_on_selector_all(
        ".board .origin", "ns => ns.map(n => n.parentNode.dataset.square)"
    )
    return set(squares)


def shoot_cards(page, name: str) -> None:
    """The card panel alone, besides the full page."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    panel = page.locator("section.cards")
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=str(SCREENSHOTS / f"{name}-panel-{page.viewport_name}.png"))
    shoot(page, name)


def test_card_mode_pe_sprint_and_recovery(page, live_server):
    page.goto(f"{live_server}/")
    page.wait_for_selector(".board .pieces [data-piece]")
    assert page.locator("section.cards").is_hidden()  # standard rules: no card panel
    page.select_option("#new-game select[name=ruleset]", "cards")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("section.cards [data-pile=hand-N] .card-chip")
    # the new game is shown, not stored yet: it is stored with its first action
    s = page.evaluate("window.ballSimulator.state")
    assert s["ruleset"] == "cards" and s["actor"] == "N"
    assert s["position"]["cards"]["N"] == {"hand": DECK, "discard": []}
    assert page.locator("[data-field=provisional]").is_visible()
    chips = page.locator("[data-pile=hand-N] .card-chip").all_inner_texts()
    assert [c.split()[0] for c in chips][:1] == ["Sprint"] and "2 PE" in chips[0]
    assert page.locator("button.card-button").count() == 0  # no PE yet: no card is legal

    page.click("button[data-action=pe]")
    page.wait_for_url("**/?game=*")
    gid = page.evaluate("new URLSearchParams(location.search).get('game')")
    s = wait_plies(page, live_server, gid, 1)
    assert s["ruleset"] == "cards"
    assert (s["position"]["pe"]["N"], s["position"]["pa"]) == (1, 1)
    assert page.locator("[data-field=pe-N]").inner_text() == "1"
    page.click("button[data-action=pe]")
    s = wait_plies(page, live_server, gid, 2)
    assert (s["position"]["pe"]["N"], s["position"]["pa"]) == (2, 0)
    # the page offers exactly the server's legal cards, one button each
    buttons = page.eval_on_selector_all("button.card-button", "ns => ns.map(n => n.dataset.card)")
    legal = sorted(a.split()[1] for a in s["legal"] if a.startswith("card "))
    assert sorted(buttons) == legal and "sprint" in legal
    shoot_cards(page, "20-cards-with-pe")

    page.click("button[data-card=sprint]")
    s = wait_plies(page, live_server, gid, 3)
    assert s["log"][-1]["action"] == "card sprint"
    assert (s["position"]["pe"]["N"], s["position"]["pa"]) == (0, 1)
    assert s["position"]["cards"]["N"]["discard"] == ["sprint"]
    page.wait_for_selector("[data-pile=discard-N] .card-chip[data-card=sprint]")
    assert page.locator("[data-pile=hand-N] .card-chip[data-card=sprint]").count() == 0

    # a pending recovery, built by the engine from an edited card-mode start
    doc = Game.new("cards").to_json()
    doc["phase"] = "recover"
    doc["cards"]["N"] = {"hand": [], "discard": DECK}
    rid = create(live_server, Game.from_json(doc).to_json())
    open_game(page, live_server, rid)
    page.wait_for_selector("button[data-action='recover -']")
    offered = page.eval_on_selector_all(
        ".choices.recover button", "ns => ns.map(n => n.dataset.action)"
    )
    assert sorted(offered) == sorted(state(live_server, rid)["legal"])
    shoot_cards(page, "21-card-recovery")
    page.click("button[data-action='recover screen']")
    s = wait_plies(page, live_server, rid, 1)
    assert s["position"]["cards"]["N"]["hand"] == ["screen"]
    assert "screen" not in s["position"]["cards"]["N"]["discard"]
    assert (s["position"]["phase"], s["position"]["to_move"]) == ("action", "S")
    page.wait_for_selector("[data-pile=hand-N] .card-chip[data-card=screen]")
    no_js_errors(page)


def test_cards_that_name_a_piece_are_played_on_the_board(page, live_server):
    doc = Game.new("cards").to_json()
    doc["pe"] = {"S": 0, "N": 4}
    doc["restricted"] = ["N:O6"]  # on H10
    for p in doc["pieces"]:
        if (p["side"], p["id"]) == ("N", "X1"):  # on D10
            p["state"] = "down"
    gid = create(live_server, Game.from_json(doc).to_json())
    open_game(page, live_server, gid)
    # the New game bar offers the shown game's rules
    assert page.locator("#new-game select[name=ruleset]").input_value() == "cards"
    assert "D10" not in origins(page)  # a piece click never plays a card by itself

    page.click("button[data-card=quick-feet]")
    assert origins(page) == {"D10"}
    click_square(page, "D10")
    legal = state(live_server, gid)["legal"]
    assert lit(page, "first") == {a.split("-")[-1] for a in legal if "quick-feet" in a}
    assert "Choose where the piece stands up" in page.locator(".compose .prompt").inner_text()
    shoot(page, "22-quick-feet-target")
    click_square(page, "C11")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "card quick-feet D10-C11"
    stood = next(p for p in s["position"]["pieces"] if (p["side"], p["id"]) == ("N", "X1"))
    assert (stood["at"], stood["state"]) == ("C11", "active")

    page.click("button[data-card=second-wind]")
    assert origins(page) == {"H10"}
    page.keyboard.press("Escape")  # cancelling spends nothing
    assert page.locator("button[data-card=second-wind]").is_visible()
    page.click("button[data-card=second-wind]")
    click_square(page, "H10")
    s = wait_plies(page, live_server, gid, 2)
    assert s["log"][1]["action"] == "card second-wind H10"
    assert s["position"]["restricted"] == [] and s["position"]["pe"]["N"] == 1

    assert page.locator("[data-effect]").count() == 0
    page.click("button[data-card=long-arm]")
    s = wait_plies(page, live_server, gid, 3)
    assert s["position"]["effects"]["short_range"] == 6
    assert "6" in page.locator("[data-effect=short_range]").inner_text()
    assert page.locator("[data-pile=discard-N] .card-chip").count() == 3
    shoot_cards(page, "23-effects-in-force")
    no_js_errors(page)


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_card_panel_speaks_the_page_language(page, live_server, lang):
    doc = Game.new("cards").to_json()
    doc["phase"] = "recover"
    doc["cards"]["N"] = {"hand": [], "discard": ["sprint", "quick-feet"]}
    gid = create(live_server, Game.from_json(doc).to_json())
    page.goto(f"{live_server}/?game={gid}&lang={lang}")
    page.wait_for_selector("[data-field=provisional]")
    translate = gettext_for(lang)
    note = "Provisional deck: the rulebook does not list the cards yet (D-15)."
    assert page.locator("[data-field=provisional]").inner_text() == translate(note)
    prompt = translate("Card recovery: {side} may take back one used card, or none.")
    assert page.locator(".prompt.recover").inner_text() == prompt.replace("{side}", "N")
    take_back = page.locator("button[data-action='recover quick-feet']").inner_text()
    assert take_back == translate("Take back card {name}").replace("{name}", "Quick Feet")
    shoot_cards(page, f"24-card-recovery-{lang}")
    no_js_errors(page)
