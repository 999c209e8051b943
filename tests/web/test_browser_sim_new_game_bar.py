"""Browser: the simulator's New game bar (issue 36 loose ends, items 1 and 6).

At 1366x768 and 390x844 (the `page` fixture):

- the bar's selects follow the shown game (mode, rules, computer side and level), also a game
  opened by its link, until the reader changes one;
- "Half N" is said once: by the match strip where there is one, else by the turn line;
- "Computer plays" and "Level" are shown only while the mode is "Against the computer";
- in Bulgarian the bar's selects stay within the screen (no horizontal scrolling).
"""

from __future__ import annotations

import httpx
import pytest

from .conftest import shoot

pytestmark = pytest.mark.browser
SIM = "window.ballSimulator"
BAR = "#new-game"


def create(base: str, **body) -> dict:
    with httpx.Client(base_url=base, timeout=60) as c:
        r = c.post("/api/games", json=body)
        r.raise_for_status()
        return r.json()


def bar_values(page) -> dict[str, str]:
    return {
        name: page.locator(f"{BAR} select[name={name}]").input_value()
        for name in ("mode", "ruleset", "computer_side", "computer_level")
    }


def computer_fields_visible(page) -> list[bool]:
    return [
        page.locator(f"{BAR} select[name={name}]").is_visible()
        for name in ("computer_side", "computer_level")
    ]


def test_the_bar_follows_a_game_against_the_computer_opened_by_its_link(page, live_server):
    # the computer plays South and moves first: the game is stored at once
    game = create(
        live_server, mode="computer", ruleset="pe", computer_side="S", computer_level="easy"
    )
    page.goto(f"{live_server}/?game={game['id']}")
    page.wait_for_function(f"() => {SIM}.state && {SIM}.state.id === {game['id']!r}")
    page.wait_for_function(
        f"() => document.querySelector('{BAR} select[name=mode]').value === 'computer'"
    )
    assert bar_values(page) == {
        "mode": "computer",
        "ruleset": "pe",
        "computer_side": "S",
        "computer_level": "easy",
    }
    assert computer_fields_visible(page) == [True, True]
    # "Half 1" once: in the match strip, not again in the turn line (loose end 2)
    assert page.locator("#sim [data-field=match]").inner_text().startswith("Half 1 · ")
    assert page.locator("#sim .turn-line").inner_text().startswith("Turn ")
    assert page.locator("#sim [data-field=half]").count() == 0
    shoot(page, "sim-bar-computer")


def test_computer_fields_show_only_for_the_computer_mode_and_the_reader_choice_stays(
    page, live_server
):
    page.goto(live_server + "/")
    page.wait_for_function(f"() => {SIM}.state")
    mode = page.locator(f"{BAR} select[name=mode]")
    assert mode.input_value() == "free"
    assert computer_fields_visible(page) == [False, False]
    # free play has no match strip: the turn line says the half
    assert page.locator("#sim [data-field=match]").count() == 0
    assert page.locator("#sim .turn-line").inner_text().startswith("Half 1 · Turn 1")
    free_height = page.locator(BAR).bounding_box()["height"]
    shoot(page, "sim-bar-free")

    mode.select_option("computer")
    assert computer_fields_visible(page) == [True, True]
    if page.viewport_name == "phone":  # the phone bar is shorter without them
        assert page.locator(BAR).bounding_box()["height"] > free_height
    # a state change of the shown free game does not undo the reader's choice
    page.evaluate(f"{SIM}.onChange({SIM}.state)")
    assert mode.input_value() == "computer"

    mode.select_option("play")
    assert computer_fields_visible(page) == [False, False]

    # Start: the new game against the computer is shown and the bar says so
    mode.select_option("computer")
    page.locator(f"{BAR} select[name=computer_side]").select_option("N")
    page.locator(f"{BAR} select[name=computer_level]").select_option("medium")
    page.locator(f"{BAR} button[type=submit]").click()
    page.wait_for_function(f"() => {SIM}.state && {SIM}.state.mode === 'computer'")
    assert bar_values(page)["mode"] == "computer"
    assert bar_values(page)["computer_level"] == "medium"


def within(page, selector: str, width: int) -> None:
    for node in page.locator(selector).all():
        box = node.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box, width)


def test_the_bar_fits_the_screen_in_bulgarian(page, live_server, axe):
    page.goto(live_server + "/?lang=bg")
    page.wait_for_function(f"() => {SIM}.state")
    page.locator(f"{BAR} select[name=mode]").select_option("computer")
    width = page.viewport_size["width"]
    within(page, f"{BAR}, {BAR} select", width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, "sim-bar-bg")
    assert axe(page) == []
    if page.viewport_name == "phone":  # a narrow phone: the bar still fits (the board may not)
        page.set_viewport_size({"width": 320, "height": 700})
        page.reload()
        page.wait_for_function(f"() => {SIM}.state")
        page.locator(f"{BAR} select[name=mode]").select_option("computer")
        within(page, f"{BAR}, {BAR} label, {BAR} select", 320)
