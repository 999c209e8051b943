"""The Xiangqi board says why a tap did nothing, lists moves as numbered pairs, and keeps
its rank and file labels off the playing area (issue 36 items 4 and 15), at both sizes.

Each refusal line is compared with the engine's own answer (POST /api/xiangqi/explain), so
the page shows what `ball.games.xiangqi.engine.explain` decided, translated.
"""

from __future__ import annotations

import httpx
import pytest

from .conftest import shoot
from .test_xiangqi_browser import click, create, no_js_errors, open_board, wait_version

pytestmark = pytest.mark.browser

# Red's horse on b0 with its own rook on b1: a2 and c2 are hobbled (leg b1), d1 is open.
HOBBLED = "3k5/9/9/9/9/9/9/9/1R7/1N2K4 w"


def why(page) -> str:
    page.wait_for_function("document.getElementById('xq-why').textContent.trim() !== ''")
    return page.locator("#xq-why").text_content().strip()


def test_a_refused_tap_says_why(page, live_server, axe) -> None:
    game_id = create(live_server, fen=HOBBLED)
    open_board(page, live_server, game_id)
    assert page.locator("#xq-why").get_attribute("aria-live") == "polite"
    click(page, "d9")  # Black's general while Red is to move
    assert why(page) == "That piece is not yours: it is Red's move."
    click(page, "b0")  # the horse: only d1 is open
    assert page.locator("#xq-board .xq-piece.selected").get_attribute("data-square") == "b0"
    assert page.locator("#xq-why").text_content() == ""
    click(page, "c2")
    assert why(page) == "The horse is hobbled: a piece stands on its leg."
    api = httpx.post(
        f"{live_server}/api/xiangqi/explain", json={"fen": HOBBLED, "square": "b0", "to": "c2"}
    ).json()
    assert api["refusal"]["code"] == "hobbled"
    click(page, "e0")  # the general may step to e1 only: d0 would face Black's general on d9
    click(page, "d0")
    assert why(page) == "The generals may not face each other on an open file."
    shoot(page, "xiangqi-why")
    assert axe(page) == []
    # a legal move clears the line and is played
    click(page, "b0")
    click(page, "d1")
    wait_version(page, 1)
    assert page.locator("#xq-why").text_content() == ""
    no_js_errors(page)


def test_moves_are_numbered_pairs_scrolled_to_the_latest(page, live_server) -> None:
    game_id = create(live_server)
    played: list[str] = []
    for i in range(20):  # twenty legal half-moves, picked deterministically from the list
        legal = httpx.get(f"{live_server}/api/xiangqi/games/{game_id}").json()["legal"]
        move = legal[(7 * i) % len(legal)]
        r = httpx.post(f"{live_server}/api/xiangqi/games/{game_id}/moves", json={"move": move})
        assert r.status_code == 200, r.text
        played.append(move)
    open_board(page, live_server, game_id)
    rows = page.locator("#xq-moves li")
    assert rows.count() == 10  # twenty half-moves, ten numbered rows
    assert [c.text_content() for c in rows.nth(0).locator(".xq-move").all()] == played[:2]
    assert page.eval_on_selector("#xq-moves", "n => getComputedStyle(n).columnCount") in (
        "auto",
        "1",
    )
    # scrolled to the latest: the last row is in view inside the list
    seen = page.eval_on_selector(
        "#xq-moves",
        "n => { const r = n.lastElementChild.getBoundingClientRect();"
        " const b = n.getBoundingClientRect();"
        " return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }",
    )
    assert seen
    shoot(page, "xiangqi-moves")
    # Black to move first: the first row opens with "…"
    black_first = create(live_server, fen="3k5/9/9/9/9/9/9/9/9/4K4 b")
    httpx.post(f"{live_server}/api/xiangqi/games/{black_first}/moves", json={"move": "d9d8"})
    open_board(page, live_server, black_first)
    first = page.locator("#xq-moves li").nth(0).locator(".xq-move")
    assert [c.text_content() for c in first.all()] == ["…", "d9d8"]
    no_js_errors(page)


def test_labels_sit_outside_the_playing_area(page, live_server) -> None:
    open_board(page, live_server, create(live_server))
    box = page.locator("#xq-board rect.xq-bg").bounding_box()
    labels = page.eval_on_selector_all(
        "#xq-board .xq-coord",
        "ns => ns.map(n => { const r = n.getBoundingClientRect();"
        " return [n.textContent, r.left, r.top, r.right, r.bottom, r.height]; })",
    )
    assert sorted(t for t, *_ in labels) == sorted([*"abcdefghi", *map(str, range(10))])
    for text, _left, top, right, _bottom, height in labels:
        outside = right <= box["x"] + 0.5 or top >= box["y"] + box["height"] - 0.5
        assert outside, f"label {text} overlaps the board"
        assert height >= 10, f"label {text} is {height:.1f}px tall: too small to read"
    shoot(page, "xiangqi-labels")
    no_js_errors(page)
