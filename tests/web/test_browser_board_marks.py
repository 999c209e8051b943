"""Browser: stacks and knocked-down pieces read clearly at every size (issue 13).

At 1366x768 and 390x844 (the `page` fixture) the rulebook's release diagram (a Block stack,
spec 5.4, and a knocked-down piece, spec 5.3) is loaded through the API. The stack must carry
its count-and-kind badge and the knocked-down piece its mark, each drawn on top (not hidden
under another drawing) and at least 12 px across, and the board's text description (its
aria-describedby) must name both."""

from __future__ import annotations

import httpx
import pytest

from ball.games.ball.web.rulebook import diagrams

from .conftest import shoot

pytestmark = pytest.mark.browser
MIN_PX = 12


def _load(page, live_server, position) -> None:
    with httpx.Client(base_url=live_server, timeout=30) as c:
        r = c.post("/api/games", json={"position": position})
        r.raise_for_status()
        gid = r.json()["id"]
    page.goto(f"{live_server}/?game={gid}")
    page.wait_for_selector(".board .pieces [data-piece]")


def _assert_readable(page, locator, what: str) -> None:
    assert locator.count() == 1, what
    assert locator.is_visible(), what
    box = locator.bounding_box()
    assert box is not None, what
    assert box["width"] >= MIN_PX and box["height"] >= MIN_PX, (what, box)
    # on top: the point at its centre belongs to the mark itself, not to a piece drawn over it
    on_top = page.evaluate(
        """([x, y, cls]) => Boolean(document.elementFromPoint(x, y)?.closest('.' + cls))""",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, what],
    )
    assert on_top, what


def test_a_stack_and_a_knocked_down_piece_are_marked_and_described(page, live_server):
    position = diagrams()["release"]["position"]
    top = next(p for p in position["pieces"] if p["state"] == "top")
    bottom = next(p for p in position["pieces"] if p["state"] == "bottom" and p["at"] == top["at"])
    down = next(p for p in position["pieces"] if p["state"] == "down")
    assert top["side"] != bottom["side"]  # a Block (spec 5.4): opponents on one square
    _load(page, live_server, position)

    cell = page.locator(f".board .pieces [data-square={top['at']}]")
    badge = cell.locator(".badge.stack-count")
    _assert_readable(page, badge, "stack-count")
    assert badge.locator("text").text_content() == "2B"
    assert "block" in (badge.get_attribute("class") or "")
    # the title names both pieces, top first (issue 36 item 7)
    names = f"{top['side']} {top['id']} / {bottom['side']} {bottom['id']}"
    assert badge.locator("title").text_content() == f"Stack of 2: Block, {names}"

    mark = page.locator(f".board .pieces [data-square={down['at']}] .down-mark")
    _assert_readable(page, mark, "down-mark")
    assert mark.get_attribute("data-piece") == f"{down['side']}:{down['id']}"
    # exactly the knocked-down pieces carry the mark
    assert page.locator(".board .down-mark").count() == sum(
        p["state"] == "down" for p in position["pieces"]
    )

    described = page.locator(".board").get_attribute("aria-describedby")
    text = page.locator(f"#{described}").text_content() or ""
    assert f"Stack on {top['at']} (Block)" in text
    assert f"{down['id']} {down['at']} (knocked down)" in text
    shoot(page, "board-marks")


def test_a_protection_stack_is_marked_p(page, live_server):
    """Allies on one square (spec 5.4 Protection) read "2P", not "2B"."""
    position = diagrams()["release"]["position"]
    top = next(p for p in position["pieces"] if p["state"] == "top")
    bottom = next(p for p in position["pieces"] if p["state"] == "bottom")
    # an ally of the top piece takes the bottom piece's place, and the bottom piece its place
    ally = next(
        p for p in position["pieces"] if p["side"] == top["side"] and p["state"] == "active"
    )
    pieces = [dict(p) for p in position["pieces"] if p is not bottom and p is not ally]
    pieces.append({**ally, "at": bottom["at"], "state": "bottom", "was": bottom["was"]})
    pieces.append(
        {k: v for k, v in bottom.items() if k != "was"} | {"at": ally["at"], "state": "active"}
    )
    changed = {**position, "pieces": pieces}
    _load(page, live_server, changed)
    badge = page.locator(f".board .pieces [data-square={top['at']}] .badge.stack-count")
    _assert_readable(page, badge, "stack-count")
    assert badge.locator("text").text_content() == "2P"
    described = page.locator(".board").get_attribute("aria-describedby")
    assert f"Stack on {top['at']} (Protection)" in (
        page.locator(f"#{described}").text_content() or ""
    )
