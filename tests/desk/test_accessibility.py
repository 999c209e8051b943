"""axe-core on the arbiter desk and the public pages (issue 13): no serious or critical
violation on the login, event, round, result and what-if pages, nor on the public standings,
pairings and results, at 1366x768 and 390x844. Phone screenshots go to /tmp/shots_S2/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app

from .conftest import PIN, create_event, post, sheet_form

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("BALL_SHOTS", "/tmp/shots_S2"))
VIEWPORTS = {"phone": (390, 844), "desktop": (1366, 768)}


@pytest.fixture
def event_site(tmp_path, serve):
    """A Swiss event with four entrants, round 1 paired and table 1's result entered."""
    db = str(tmp_path / "axe.sqlite")
    seed = TestClient(create_app(db))
    event_id = create_event(seed, name="Sofia Open", system="swiss", rounds="3")
    for name in ["Kim Min-jun", "Aleksandra Petrova", "Lee Seo-yeon", "Ivan Georgiev"]:
        assert post(seed, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(seed, event_id, "/rounds").status_code == 303
    form = {**sheet_form(td1="A", pb=(3, 0, 4, 2)), "version": 0}
    entered = post(seed, event_id, "/rounds/1/tables/1", form)
    assert entered.status_code == 303, entered.text
    return serve(create_app(db)), event_id


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_axe_finds_nothing_serious_on_the_desk_and_public_pages(
    browser, event_site, axe, viewport
):
    base, event_id = event_site
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/desk/{event_id}/login")
    findings = {"login": axe(page)}
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"**/desk/{event_id}")
    pages = {
        "event": f"/desk/{event_id}",
        "round": f"/desk/{event_id}/rounds/1",
        "result": f"/desk/{event_id}/rounds/1/tables/2",
        "what-if": f"/desk/{event_id}/rounds/1/tables/2/what-if?result=1/2",
        "standings": f"/public/{event_id}/standings",
        "pairings": f"/public/{event_id}/pairings",
        "results": f"/public/{event_id}/results",
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, path in pages.items():
        page.goto(base + path)
        findings[name] = axe(page)
        if viewport == "phone":
            page.screenshot(path=str(SHOTS / f"desk-{name}-phone.png"), full_page=True)
    context.close()
    assert {k: v for k, v in findings.items() if v} == {}


@pytest.mark.slow
def test_public_refresh_can_be_paused(browser, event_site):
    """WCAG 2.2.1: the public page's refresh is a timer the reader can pause (refresh.js);
    unpaused it reloads after the set time, paused it stays."""
    base, event_id = event_site
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    url = f"{base}/public/{event_id}/standings?refresh=5"
    page.goto(url)
    pause = page.locator(".refresh-pause")
    assert pause.is_visible() and pause.get_attribute("aria-pressed") == "false"
    assert page.locator('meta[http-equiv="refresh"]').count() == 0  # only inside <noscript>
    with page.expect_navigation(timeout=9000):
        pass  # the timer reloads the page by itself
    page.wait_for_selector(".refresh-pause")
    page.click(".refresh-pause")
    assert page.locator(".refresh-pause").get_attribute("aria-pressed") == "true"
    assert page.locator(".refresh-pause").inner_text() == "Resume refreshing"
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    page.wait_for_timeout(6500)  # longer than the 5 s refresh
    assert loads == []
    context.close()
