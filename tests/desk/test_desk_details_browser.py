"""Issue 36 item 14 in Chromium at 390x844 and 1366x768: the Mahjong session page (how it
was seated in words, the team-mates warning), the score sheet (closing asks first, apart
from the take-back, and works as a step), a 13-entrant Xiangqi knockout's bracket at the
desk and in public (every round to the final), and the sanctions form (every field
labelled). axe finds nothing serious or critical on any of them. Screenshots:
test-artifacts/desk/item14-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app
from ball.web.core.deps import service_for

from .conftest import PIN, create_event, post
from .test_mahjong_desk import edit, seat

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk"
VIEWPORTS = {"phone": (390, 844), "desktop": (1366, 768)}


@pytest.fixture
def site(tmp_path, serve):
    db = str(tmp_path / "item14.sqlite")
    seed = TestClient(create_app(db))
    mahjong = create_event(seed, name="MJ Open", game="mahjong", rounds="4", hands="4")
    for i in range(1, 17):
        club = "Big" if i <= 8 else f"Team {i % 4}"
        post(seed, mahjong, "/entrants", {"name": f"Player {i}", "club": club})
    seat(seed, mahjong, method="random")
    sheet = f"/desk/{mahjong}/sessions/1/tables/1"
    edit(seed, mahjong, sheet, "hand", {"outcome": "self_drawn", "winner": "E", "fan": "8"})
    knockout = create_event(seed, "XQ Cup", "knockout", game="xiangqi")
    for i in range(1, 14):
        post(seed, knockout, "/entrants", {"name": f"Entrant {i:02d}"})
    svc = service_for(seed.app)
    svc.knockout.draw_round(seed=7, event=knockout)
    first = next(p for p in svc.desk.round_view(knockout, 1).pairings if p.b is not None)
    svc.results.enter_result(1, first.table, forfeit="B", event=knockout)
    return serve(create_app(db)), mahjong, knockout


def sign_in(page, base: str, event_id: int) -> None:
    page.goto(f"{base}/desk/{event_id}/login")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/desk/{event_id}")


def look(page, axe, name: str, viewport: str) -> None:
    assert axe(page) == [], name
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, name
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"item14-{name}-{viewport}.png"), full_page=True)


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_item14_pages(browser, site, axe, viewport):
    base, mahjong, knockout = site
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()

    sign_in(page, base, mahjong)
    page.goto(f"{base}/desk/{mahjong}/sessions/1")
    assert page.inner_text("#method").startswith("Seated by a random draw")
    warning = page.locator("#team-warning[role=alert]")
    assert warning.is_visible() and "Warning: team-mates sit at one table." in warning.inner_text()
    look(page, axe, "mahjong-session", viewport)

    page.goto(f"{base}/desk/{mahjong}/sessions/1/tables/1")
    assert page.locator("#log #undo").is_visible()
    assert not page.locator("#close-table").is_visible()  # one step before it
    page.click("#close-open")
    assert page.locator("#close-table").is_visible()
    assert "Check the scores first" in page.inner_text("#close-confirm")
    look(page, axe, "mahjong-close", viewport)
    undo, close = (page.locator(s).bounding_box() for s in ("#undo", "#close-table"))
    assert close["y"] > undo["y"] + undo["height"] + 40  # apart, not side by side

    sign_in(page, base, knockout)
    assert page.inner_text("#event-system").startswith("Knockout · 13 entrants · drawn by lots")
    page.goto(f"{base}/desk/{knockout}/bracket")
    rounds = page.locator("#bracket .bracket-round").evaluate_all(
        "rs => rs.map(r => r.dataset.round)"
    )
    assert rounds == ["1", "2", "3", "4"]
    assert page.locator("#bracket .awaited").count() == 5  # "Winner of T…" for the rest
    look(page, axe, "bracket-desk", viewport)

    page.goto(f"{base}/public/{knockout}")
    page.wait_for_url(f"**/public/{knockout}/bracket")
    assert page.locator("#bracket .bracket-round").count() == 4
    look(page, axe, "bracket-public", viewport)

    page.goto(f"{base}/desk/{knockout}/sanctions")
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('main form select, main form input')]
          .filter((e) => e.type !== 'hidden')
          .filter((e) => !e.closest('label') || !e.closest('label').innerText.trim())
          .map((e) => e.name)"""
    )
    assert unlabelled == []
    look(page, axe, "sanctions", viewport)
    context.close()
