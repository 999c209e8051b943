"""Issue 36 item 16: a phone laid between two players shows the far panel upside down; a
laptop keeps both upright; axe finds nothing serious on either."""

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHORT = {
    "name": "test-sudden-60s",
    "game": "xiangqi",
    "title": "60 s sudden death",
    "players": ["red", "black"],
    "stages": [{"time": "60s"}],
}


def create(url, **body):
    response = httpx.post(f"{url}/clock/api/clocks", json={"pin": "2468", "round": "R7", **body})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _transform(page, index):
    return page.evaluate(f"getComputedStyle(document.querySelectorAll('.side')[{index}]).transform")


def test_far_panel_faces_the_far_player_on_a_portrait_phone(tmp_path, web_server, browser, axe):
    _proc, url = web_server(tmp_path / "facing.db")
    clock_id = create(url, table="T1", control=SHORT)
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(f"{url}/clock/{clock_id}")
    far = page.locator(".side").nth(0).bounding_box()
    near = page.locator(".side").nth(1).bounding_box()
    assert far["y"] + far["height"] <= near["y"] + 1  # stacked: one panel per player
    assert _transform(page, 0).startswith("matrix(-1, ")  # rotated 180 degrees
    assert _transform(page, 1) == "none"
    assert page.locator(".clock-back").inner_text() == "R7 · T1"  # round and table
    assert axe(page) == []
    page.screenshot(path="/tmp/uclock_portrait.png")
    page.close()


def test_both_panels_upright_on_a_laptop(tmp_path, web_server, browser, axe):
    _proc, url = web_server(tmp_path / "laptop.db")
    clock_id = create(url, table="T1", control=SHORT)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/clock/{clock_id}")
    assert _transform(page, 0) == "none"
    assert _transform(page, 1) == "none"
    assert axe(page) == []
    page.screenshot(path="/tmp/uclock_laptop.png")
    page.close()
