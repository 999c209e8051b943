"""The public display of a Mahjong event in Debian's Chromium (issue 18), on a desktop and a
phone: a 16-player event seated with its first session entered through the service; a
player types their name without accents and finds their table; the standings read off the
page equal the service's; every table's result is shown. Screenshots in test-artifacts/web/.
"""

from __future__ import annotations

import pytest

from ball.games.mahjong.tournament.views import points_text
from ball.web.app import create_app
from mahjong.public_event import make_event

from .conftest import shoot

pytestmark = pytest.mark.browser
WORDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


@pytest.fixture
def site(db_path, serve):
    svc, event_id = make_event(db_path)
    return serve(create_app(db_path)), svc, event_id


def fits(page) -> bool:
    """No sideways scrolling of the page itself (wide tables scroll inside their box)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_find_my_table_standings_and_table_results(page, site):
    base, svc, event_id = site
    page.goto(f"{base}/public/{event_id}/seating")
    page.fill("#find", "zoe angstrom")
    page.press("#find", "Enter")
    page.wait_for_selector("#found")
    table = next(
        t for t in svc.sessions.session_tables(1)["tables"] if "Zoë Ångström" in t["seats"].values()
    )
    wind = next(w for w, n in table["seats"].items() if n == "Zoë Ångström")
    found = " ".join(page.inner_text("#found").split())
    assert found == f"Zoë Ångström Session 1: Table {table['table']}, {WORDS[wind]}"
    hit = page.locator("#seating td.hit")
    assert hit.count() == 1 and hit.get_attribute("data-wind") == wind
    assert page.locator(f'#seating tr[data-table="{table["table"]}"] td.hit').count() == 1
    assert fits(page)
    shoot(page, "mahjong-find-table")

    page.click("nav.tabs >> text=Standings")
    page.wait_for_selector("#standings")
    shown = page.eval_on_selector_all(
        "#standings tbody tr",
        "rows => rows.map(r => Array.from(r.cells).slice(0, 5).map(c => c.innerText.trim()))",
    )
    expected = [
        [
            str(r["rank"]),
            r["name"],
            r["team"],
            points_text(r["table_points_exact"]),
            str(r["score"]),
        ]
        for r in svc.sessions.session_standings()["standings"]
    ]
    assert shown == expected
    assert page.locator("#teams tbody tr").count() == 4
    assert fits(page)
    shoot(page, "mahjong-standings")

    page.click("nav.tabs >> text=Table results")
    page.wait_for_selector(".mahjong-table")
    for t in svc.sessions.session_tables(1)["tables"]:
        section = page.locator(f"#table-{t['table']}")
        for w in "ESWN":
            cells = section.locator(f'tr[data-wind="{w}"] td').all_inner_texts()
            assert cells[1] == t["seats"][w] and cells[2].split()[0] == str(t["scores"][w])
            assert cells[3] == points_text(t["table_points"][w])
    assert "false win (WC 6)" in page.inner_text("#table-1")
    assert fits(page)
    shoot(page, "mahjong-tables")
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []
