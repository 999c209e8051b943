"""The public standings read on a phone and a laptop (issue 36 item 13), in Chromium at both
sizes: the page refreshes itself without moving its reader (same page, same scroll, the
table's sideways scroll too), page links lead through a long table, and "find my name"
opens the page with the name marked. Screenshots: test-artifacts/web/public-standings-*.png.
"""

from __future__ import annotations

import pytest

from ball.tournament.service import TournamentService
from ball.web.app import create_app

from .conftest import shoot

pytestmark = pytest.mark.browser
ENTRANTS = 60  # three pages of 25
CHAIN = ["buchholz-cut1", "buchholz", "sonneborn-berger", "wins", "progressive", "koya"]


@pytest.fixture
def site(db_path, serve):
    app = create_app(db_path)
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    event_id = svc.events.create_event(
        name="Sofia Swiss", system="swiss", rounds=5, tiebreaks=CHAIN
    )["id"]
    for i in range(ENTRANTS):
        svc.entrants.add_player(f"Player {i:02d} Ivanova", rating=2000 - i, event=event_id)
    for t in svc.rounds.pair_next_round(event=event_id):
        if t.get("b"):
            svc.results.enter_result(1, t["table"], forfeit="B", event=event_id)
    return serve(app), svc, event_id


def test_a_refresh_keeps_the_readers_place(page, site, axe):
    base, _, event_id = site
    url = f"{base}/public/{event_id}/standings?page=2&refresh=5"
    page.goto(url)
    # the reader scrolls down the page and (on a phone) the table sideways
    page.locator("#standings tbody tr").nth(20).scroll_into_view_if_needed()
    page.evaluate("document.querySelector('.scroll').scrollLeft = 120")
    y = page.evaluate("window.scrollY")
    left = page.evaluate("document.querySelector('.scroll').scrollLeft")
    assert y > 100
    marker = page.evaluate("window.__before = 1")
    assert marker == 1
    # the refresh comes (a new document: the marker is gone) and the place is the same
    page.wait_for_function("window.__before === undefined", timeout=12_000)
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)
    assert page.url == url
    assert abs(page.evaluate("window.scrollY") - y) <= 2
    assert page.evaluate("document.querySelector('.scroll').scrollLeft") == left
    assert "page 2 of 3" in page.inner_text("h2")
    assert axe(page) == []
    shoot(page, "public-standings-kept")
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []


def test_page_links_and_find_my_name(page, site, axe):
    base, svc, event_id = site
    page.goto(f"{base}/public/{event_id}/standings?refresh=0")
    page.click("nav.page-links >> text=3")
    assert "page 3 of 3" in page.inner_text("h2")
    ranked = svc.ranking.standings(event=event_id).standings
    wanted = ranked[25 + 7]  # on page 2
    page.fill("#find", wanted.name.split()[1] + " ivanova")  # "37 ivanova": part, any case
    page.press("#find", "Enter")
    page.wait_for_selector("#found")
    assert f"Rank {wanted.rank}: {wanted.name}" in page.inner_text("#found")
    assert "page 2 of 3" in page.inner_text("h2")
    hit = page.locator("#standings tr.hit td.name")
    assert hit.all_inner_texts() == [wanted.name]
    assert hit.is_visible()
    # no refresh pulls the answer away
    assert page.locator(".refresh-note").count() == 0
    assert axe(page) == []
    shoot(page, "public-standings-found")
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []
