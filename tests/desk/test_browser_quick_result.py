"""Quick results at the desk in Chromium, at 1366x768 and 390x844 (issue 36 item 11): the
round page offers *Quick result* per table; the quick form takes who scored (and asks for
the PB the event's tie-breaks read), shows the decision as it is typed, saves the same
result the full sheet would; *Pair round 2* appears on the round page once every result
is in. axe finds nothing serious on the quick form."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app
from ball.web.core.deps import service_for
from web.conftest import page, shoot  # noqa: F401 - the fixture at both viewports

from .conftest import PIN, create_event, post

pytestmark = pytest.mark.browser


@pytest.fixture
def round_site(tmp_path, serve):
    """A 4-entrant Swiss with round 1 paired and no result yet."""
    db = str(tmp_path / "quick.sqlite")
    seed = TestClient(create_app(db))
    event_id = create_event(seed, name="Quick Open", system="swiss", rounds="3")
    for name in ["Ann", "Bo", "Cy", "Di"]:
        assert post(seed, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(seed, event_id, "/rounds").status_code == 303
    app = create_app(db)
    return serve(app), event_id, app


def login(tab, base: str, event_id: int) -> None:
    tab.goto(f"{base}/desk/{event_id}/login")
    tab.fill("input[name=pin]", PIN)
    tab.click("button[type=submit]")
    tab.wait_for_url(f"**/desk/{event_id}")


def test_a_round_entered_by_quick_results_then_paired_from_the_round_page(
    page,  # noqa: F811
    round_site,
    axe,
):
    base, event_id, app = round_site
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/rounds/1")
    assert page.locator("#pair-next").count() == 0  # not before the round is complete
    quick_links = page.locator("a.quick")
    assert quick_links.count() == 2

    # Table 1: coach A scored in half 1. The event's tie-breaks read PB, so the form asks.
    quick_links.first.click()
    page.wait_for_url("**/rounds/1/tables/1/quick")
    assert "Total SD" in page.locator("#pb-why").inner_text()
    assert page.locator("#full-link a").get_attribute("href").endswith("/rounds/1/tables/1")
    assert axe(page) == []
    page.check("input[name=h1_td][value=A]")
    page.click("#save")  # without the PB: the browser's own check stops it (required)
    assert page.url.endswith("/quick")
    page.fill("input[name=h1_A_atk]", "3")
    page.fill("input[name=h1_B_atk]", "4")
    page.fill("input[name=h2_B_atk]", "5")
    page.fill("input[name=h2_A_atk]", "2")
    page.wait_for_selector("#decision.ok")
    a = service_for(app).desk.table(event_id, 1, 1).a.name
    assert page.locator("#decision").inner_text() == f"{a} wins 1–0 by touchdowns"
    shoot(page, "desk-quick-result")
    page.click("#save")
    page.wait_for_url(re.compile(r".*/rounds/1#table-1$"))
    sheet = service_for(app).desk.table(event_id, 1, 1).sheet
    assert sheet["halves"][0]["pb"][a] == {"atk": 3, "def": 4}  # dual entry made by the form
    assert page.locator("#pair-next").count() == 0  # table 2 has no result yet

    # Table 2 by the quick form too: level touchdowns are decided by the PB.
    page.goto(f"{base}/desk/{event_id}/rounds/1/tables/2/quick")
    page.check("input[name=h1_td][value=A]")
    page.check("input[name=h2_td][value=B]")
    for name, value in (("h1_A_atk", "6"), ("h1_B_atk", "1"), ("h2_B_atk", "2"), ("h2_A_atk", "1")):
        page.fill(f"input[name={name}]", value)
    page.wait_for_selector("#decision.ok")
    assert "attack efficiency" in page.locator("#decision").inner_text()
    page.click("#save")
    page.wait_for_url(re.compile(r".*/rounds/1#table-2$"))

    button = page.locator("#pair-next")
    assert button.inner_text() == "Pair round 2"
    assert axe(page) == []
    shoot(page, "desk-round-complete")
    button.click()
    page.wait_for_url(f"**/desk/{event_id}/rounds/2")
    assert page.locator("#pair-next").count() == 0
    assert page.js_errors == []
