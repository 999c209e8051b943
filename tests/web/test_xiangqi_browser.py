"""The Xiangqi board page in Debian's Chromium: play by click and by keyboard, see a capture
and the check highlight, play the computer, replay a game; the phone layout fits; the page
runs under the app's CSP (any blocked script would be a console error).

After every step the game is read back through the JSON API: the page asked the server.
Screenshots land in test-artifacts/web/ (desktop 1366x768 and phone 390x844).
"""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import shoot

pytestmark = pytest.mark.browser

CHECK_FEN = "4k4/4a4/9/9/4p4/9/4P4/4C4/9/3K5 w"  # e2e5 takes a pawn and gives check


def no_js_errors(page) -> None:
    # A missing favicon is the browser's own request, as in test_browser.py.
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []


def api_state(base: str, game_id: str) -> dict:
    return httpx.get(f"{base}/api/xiangqi/games/{game_id}", timeout=20).json()


def create(base: str, **body) -> str:
    r = httpx.post(f"{base}/api/xiangqi/games", json=body, timeout=60)
    r.raise_for_status()
    return str(r.json()["id"])


def open_board(page, base: str, game_id: str) -> None:
    page.goto(f"{base}/xiangqi/{game_id}")
    page.wait_for_selector("#xq-board .xq-piece")


def click(page, square: str) -> None:
    target = page.locator(f'#xq-board rect.xq-pt[data-square="{square}"]')
    target.evaluate("n => n.scrollIntoView({block: 'center', inline: 'center'})")
    box = target.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def targets(page) -> set[str]:
    return set(
        page.eval_on_selector_all("#xq-board .xq-target", "ns => ns.map(n => n.dataset.target)")
    )


def wait_version(page, version: int) -> None:
    page.wait_for_selector(f'#xq[data-version="{version}"]:not([aria-busy])')


def test_play_moves_by_click_with_capture_and_check(page, live_server) -> None:
    page.goto(f"{live_server}/xiangqi")  # a new hot-seat game is shown by itself
    page.wait_for_selector("#xq-board .xq-piece")
    assert page.locator('#xq-board .xq-piece[data-square="e0"] text').text_content() == "帥"
    assert page.locator('#xq-board .xq-piece[data-square="e9"] text').text_content() == "將"
    # issue 30 item 8: nothing is stored until the first move
    assert httpx.get(f"{live_server}/api/xiangqi/games").json() == []
    click(page, "h2")  # Red's cannon: its legal targets are lit, and only those
    start = httpx.post(f"{live_server}/api/xiangqi/games/preview", json={}).json()
    legal = {m[2:] for m in start["legal"] if m.startswith("h2")}
    assert targets(page) == legal and "e2" in legal
    click(page, "e2")
    wait_version(page, 1)
    page.wait_for_url(re.compile(r"/xiangqi/\d+$"))
    game_id = page.url.rsplit("/", 1)[1]
    assert len(httpx.get(f"{live_server}/api/xiangqi/games").json()) == 1
    click(page, "h9")
    click(page, "g7")
    wait_version(page, 2)
    s = api_state(live_server, game_id)
    assert [m["iccs"] for m in s["moves"]] == ["h2e2", "h9g7"]
    assert page.locator("#xq-moves li").count() == 1  # one numbered row: Red's, Black's move
    assert page.locator("#xq-moves li .xq-move").count() == 2
    assert page.locator("#xq-board .xq-last").count() == 2  # the last move's two points
    # a capture with check, on its own position
    game_id = create(live_server, fen=CHECK_FEN)
    open_board(page, live_server, game_id)
    click(page, "e2")
    click(page, "e5")
    wait_version(page, 1)
    assert page.locator('#xq-board .xq-piece[data-square="e5"]').get_attribute("data-piece") == "C"
    assert page.locator("#xq-board .xq-piece.check").get_attribute("data-square") == "e9"
    assert "check" in page.locator("#xq-status").text_content().lower()
    assert api_state(live_server, game_id)["check"]
    shoot(page, "xiangqi-check")
    no_js_errors(page)


def test_keyboard_play_and_text_alternative(page, live_server) -> None:
    game_id = create(live_server)
    open_board(page, live_server, game_id)
    page.focus("#xq-board")
    # the cursor starts on e0; walk to h2 (three right, two up), pick it, then to e2
    for key in ["ArrowRight"] * 3 + ["ArrowUp"] * 2 + ["Enter"] + ["ArrowLeft"] * 3 + ["Enter"]:
        page.keyboard.press(key)
    wait_version(page, 1)
    assert api_state(live_server, game_id)["last"] == "h2e2"
    text = page.locator("#xq-text").text_content()
    assert "帥 e0" in text and "將 e9" in text and "炮 e2" in text
    no_js_errors(page)


def test_play_the_computer(page, live_server) -> None:
    page.goto(f"{live_server}/xiangqi")
    page.wait_for_selector("#xq-board .xq-piece")
    page.select_option("#xq-new select[name=mode]", "computer")
    page.select_option("#xq-new select[name=computer]", "black")
    page.click("#xq-new button[type=submit]")
    page.wait_for_selector('#xq[data-version="0"]:not([aria-busy])')
    click(page, "b2")
    click(page, "e2")
    wait_version(page, 2)  # our move and the computer's answer
    page.wait_for_url(re.compile(r"/xiangqi/\d+$"))
    game_id = page.url.rsplit("/", 1)[1]
    s = api_state(live_server, game_id)
    assert s["mode"] == "computer"
    assert s["moves"][0]["iccs"] == "b2e2" and s["moves"][1]["by"] == "black"
    assert page.locator("#xq-moves li .xq-move").count() == 2
    shoot(page, "xiangqi-computer")
    no_js_errors(page)


def test_phone_fits_without_sideways_scroll(page, live_server) -> None:
    open_board(page, live_server, create(live_server))
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    board = page.locator("#xq-board svg").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= width[1]


def test_replay_a_stored_game_step_by_step(page, live_server) -> None:
    game_id = create(live_server)
    for move in ("h2e2", "h9g7"):
        httpx.post(f"{live_server}/api/xiangqi/games/{game_id}/moves", json={"move": move})
    page.goto(f"{live_server}/xiangqi/replay?game={game_id}")
    page.wait_for_selector('#xq[data-at="0"]')
    assert page.locator('#xq-board .xq-piece[data-square="h2"]').count() == 1
    page.click("[data-step=next]")
    page.wait_for_selector('#xq[data-at="1"]')
    assert page.locator('#xq-board .xq-piece[data-square="e2"]').count() == 1
    page.click("[data-step=last]")
    page.wait_for_selector('#xq[data-at="2"]')
    assert page.locator('#xq-board .xq-piece[data-square="g7"]').count() == 1
    no_js_errors(page)


def test_replay_a_pasted_game_document(page, live_server) -> None:
    game_id = create(live_server)
    for move in ("b0c2", "b9c7", "c3c4"):
        httpx.post(f"{live_server}/api/xiangqi/games/{game_id}/moves", json={"move": move})
    doc = httpx.get(f"{live_server}/api/xiangqi/games/{game_id}/document").text
    page.goto(f"{live_server}/xiangqi/replay")
    page.fill("#xq-load textarea", doc)
    page.click("#xq-load button[type=submit]")
    page.wait_for_selector('#xq[data-at="0"]')
    page.focus("#xq-board")
    page.keyboard.press("End")
    page.wait_for_selector('#xq[data-at="3"]')
    assert page.locator('#xq-board .xq-piece[data-square="c4"]').get_attribute("data-piece") == "P"
    assert page.locator("#xq-moves .xq-move.current").text_content() == "c3c4"
    assert page.locator("#xq-moves li").count() == 2  # "1. b0c2 b9c7", "2. c3c4"
    page.fill("#xq-load textarea", "{not json")
    page.click("#xq-load button[type=submit]")
    page.wait_for_selector("#xq-error:has-text('JSON')")
    no_js_errors(page)
