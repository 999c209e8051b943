"""The arbiter desk on a phone (issue 13): the entrants, round and result pages need no
sideways scroll at 390x844, names wrap between words, and no two buttons overlap. The same
pages are checked at 1366x768. Screenshots go to test-artifacts/desk/phone-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app

from .conftest import PIN, create_event, post

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk"
VIEWPORTS = {"phone": (390, 844), "desktop": (1366, 768)}
# Long names with long words: the kind that broke mid-word or widened the table.
ENTRANTS = [
    ("Aleksandra Konstantinova-Petrova", "Shumen Chess and Strategy Club", "BUL", "1850"),
    ("Kim Min-jun", "Seoul", "KOR", "1790"),
    ("Maximilian Oberhauser-Wittgenstein", "Innsbruck", "AUT", "1720"),
    ("Lee Seo-yeon", "Busan", "KOR", "1700"),
]


@pytest.fixture
def desk(tmp_path, serve):
    db = str(tmp_path / "phone.sqlite")
    seed = TestClient(create_app(db))
    event_id = create_event(seed, name="Sofia Autumn Open", system="swiss", rounds="3")
    for name, club, fed, rating in ENTRANTS:
        data = {"name": name, "club": club, "federation": fed, "rating": rating}
        assert post(seed, event_id, "/entrants", data).status_code == 303
    assert post(seed, event_id, "/rounds").status_code == 303
    return serve(create_app(db)), event_id


def overflow(page) -> int:
    """How far the page is wider than the screen (0: no sideways scroll)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def overlapping_buttons(page) -> list[str]:
    return page.evaluate(
        """() => {
      const boxes = [...document.querySelectorAll('main a.button, main button, main summary')]
        .filter((e) => e.checkVisibility())
        .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && r.height > 0);
      const hits = [];
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, r] = boxes[i], [b, s] = boxes[j];
        const across = r.left < s.right - 1 && s.left < r.right - 1;
        if (across && r.top < s.bottom - 1 && s.top < r.bottom - 1) hits.push(`${a} / ${b}`);
      }
      return hits;
    }"""
    )


def broken_names(page) -> list[str]:
    """Names laid out with a word split over two lines (a break after a hyphen is fine)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('main td.name')].filter((td) => {
      const range = document.createRange();
      const words = [];
      const text = td.firstChild;
      if (!text || text.nodeType !== 3) return false;
      let at = 0;
      for (const word of text.data.split(/[ -]/)) {
        range.setStart(text, at); range.setEnd(text, at + word.length);
        words.push(range.getClientRects().length);
        at += word.length + 1;
      }
      return words.some((n) => n > 1);
    }).map((td) => td.textContent)"""
    )


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_desk_pages_fit_the_screen(browser, desk, viewport):
    base, event_id = desk
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/desk/{event_id}/login")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/desk/{event_id}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = {
        "entrants": f"/desk/{event_id}",
        "round": f"/desk/{event_id}/rounds/1",
        "result": f"/desk/{event_id}/rounds/1/tables/1",
    }
    for name, path in pages.items():
        page.goto(base + path)
        page.screenshot(path=str(SHOTS / f"{viewport}-{name}.png"), full_page=True)
        assert overflow(page) <= 0, (name, overflow(page))
        assert overlapping_buttons(page) == [], name
        assert broken_names(page) == [], name
    context.close()
