"""Learn mode in Debian's Chromium at 1366x768 and 390x844 (issue 13): a lesson is completed
by clicks on the simulator's board, the server's engine says the goal is met, the progress
is kept in localStorage and the next lesson opens."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import shoot
from .test_browser import click_square, no_js_errors

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("BALL_LEARN_SHOTS")  # a folder to copy the screenshots to


def test_complete_the_move_lesson_by_clicks(page, live_server):
    page.goto(f"{live_server}/learn#move")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    assert page.locator("#lesson-title").inner_text() == "Moving"
    assert page.locator("#lesson-rulebook").get_attribute("href") == "/rulebook/movement#kinds"
    page.click("#lesson-hint summary")
    assert page.locator("#lesson-hint p").is_visible()
    click_square(page, "F6")
    if page.locator("button[data-kind=move]").count():  # the piece offers several kinds
        page.click("button[data-kind=move]")
    click_square(page, "D4")
    page.wait_for_function("() => document.body.dataset.lessonMet === 'move'")
    assert page.locator("#lesson-verdict").inner_text() == "Well done: lesson complete."
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('ball.learn.done'))")
    assert stored == ["move"]
    path = shoot(page, "learn-move-done")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / path.name))
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / f"top-{path.name}"))
    assert page.locator("#lesson-next").is_visible()
    page.click("#lesson-next")
    page.wait_for_function("() => location.hash === '#handoff'")
    page.wait_for_function(
        "() => document.querySelector('#lesson-title').textContent === 'Hand-off'"
    )
    assert page.locator('[data-lesson="move"].done').count() == 1
    no_js_errors(page)


def test_learn_page_passes_axe_and_has_no_sideways_scroll(page, live_server, axe):
    page.goto(f"{live_server}/learn#dodge")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    assert page.locator("#lesson-title").inner_text() == "A dodge that knocks down"
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    assert axe(page) == []
    no_js_errors(page)


def play_by_clicks(page, action: str, kind: str = "move") -> None:
    """One learner action through the board: the piece (or the release task), its `kind`
    where several are offered, then the target square."""
    before = page.evaluate("() => window.ballLearn.sim.state.log.length")
    if action.startswith("up "):
        origin, target = action[3:].split("-")
        page.click(f'button[data-task="{origin}"]')
    else:
        origin, target = action.split("-")
        click_square(page, origin)
        if page.locator(f"button[data-kind={kind}]").count():
            page.click(f"button[data-kind={kind}]")
    click_square(page, target)
    page.wait_for_function(
        f"() => window.ballLearn.sim.state.log.length > {before} && !window.ballLearn.replying"
    )


@pytest.mark.slow
def test_complete_a_multi_turn_lesson_with_the_opponents_replies(page, live_server):
    """Keep the ball for 2 turns (§ protection): North's replies are played on the board and
    listed in the lesson panel between the learner's turns; the goal is met after the last."""
    page.goto(f"{live_server}/learn#keep")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    assert page.locator("#lesson-title").inner_text() == "Keeping the ball"
    assert page.locator("#lesson-opponent").is_hidden()
    for action in ["D8-C7", "C7-B8"]:
        play_by_clicks(page, action)
    page.wait_for_function("() => document.querySelectorAll('#lesson-opponent li').length === 2")
    replies = page.locator("#lesson-opponent li").all_inner_texts()
    assert "(H10-H8/G9)" in replies[0] and "(F10-F8/E9)" in replies[1]
    assert page.locator("#lesson-opponent").is_visible()
    play_by_clicks(page, "B8-A7")
    play_by_clicks(page, "F6-G7", "protect")  # X3 stacks on the carrier (protection)
    for action in ["up F8-E7", "up H8-I7"]:  # the release phase: the guards stand up
        play_by_clicks(page, action)
    page.wait_for_function("() => document.body.dataset.lessonMet === 'keep'")
    assert page.locator("#lesson-opponent li").count() == 4
    assert page.locator("#lesson-verdict").inner_text() == "Well done: lesson complete."
    log = page.evaluate("() => window.ballLearn.sim.state.log.map(e => e.action)")
    assert len(log) == 10 and log[2:4] == ["H10-H8/G9", "F10-F8/E9"]
    shoot(page, "learn-keep-done")
    no_js_errors(page)
