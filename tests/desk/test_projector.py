"""Public standings on a 1366x768 projector (issue 13): a Swiss event with eight tie-breaks
shows every column without a sideways scroll (short headings, a legend below), and a large
event pages through by itself, one screenful per refresh. Screenshot:
test-artifacts/desk/projector-standings.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.tournament.service import TournamentService
from ball.web.app import create_app
from ball.web.public import ROWS_PER_PAGE

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk"
CHAIN = [
    "buchholz-cut1",
    "buchholz",
    "buchholz-median",
    "sonneborn-berger",
    "wins",
    "progressive",
    "koya",
    "td-difference",
]
ENTRANTS = 26  # more than two screenfuls


def seeded(db: str) -> int:
    app = create_app(db)
    sessions = app.state.sessions
    svc = TournamentService.from_sessions(sessions.kw["bind"], sessions)
    event_id = svc.create_event(
        name="Plovdiv Swiss Open", system="swiss", rounds=5, tiebreaks=CHAIN
    )["id"]
    for i in range(ENTRANTS):
        svc.add_player(f"Coach Number{i:02d} Longername", rating=2000 - i, event=event_id)
    tables = svc.pair_next_round(event=event_id)
    for t in tables:
        if t.get("b"):
            svc.enter_result(1, t["table"], forfeit="B", event=event_id)
    return event_id


@pytest.fixture
def event(tmp_path) -> tuple[str, int]:
    db = str(tmp_path / "projector.sqlite")
    return db, seeded(db)


def test_standings_page_through_a_large_event(event):
    db, event_id = event
    client = TestClient(create_app(db))
    seen: list[str] = []
    pages = -(-ENTRANTS // ROWS_PER_PAGE)
    for page in range(1, pages + 1):
        html = client.get(f"/public/{event_id}/standings", params={"page": page}).text
        names = re.findall(r'<td class="name">([^<]+)</td>', html)
        assert len(names) == (ROWS_PER_PAGE if page < pages else ENTRANTS % ROWS_PER_PAGE)
        seen += names
        # each refresh moves on to the next page, and after the last back to the first
        nxt = page % pages + 1
        assert f';url=/public/{event_id}/standings?page={nxt}"' in html
    assert len(set(seen)) == ENTRANTS
    # a page past the end shows the last one; a small event has no paging at all
    last = client.get(f"/public/{event_id}/standings", params={"page": 99}).text
    assert re.findall(r'<td class="name">([^<]+)</td>', last) == seen[-(ENTRANTS % ROWS_PER_PAGE) :]
    assert client.get(f"/public/{event_id}/standings", params={"page": 0}).status_code == 422


@pytest.mark.browser
def test_eight_tiebreaks_fit_a_projector(browser, serve, event):
    db, event_id = event
    base = serve(create_app(db))
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/public/{event_id}/standings?refresh=0")
    headers = page.locator("#standings thead th.tb").evaluate_all(
        "cells => cells.map(c => c.dataset.tiebreak)"
    )
    assert headers == CHAIN
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    scroller = page.locator(".scroll").evaluate("e => e.scrollWidth - e.clientWidth")
    assert scroller <= 0
    rights = page.locator("#standings thead th").evaluate_all(
        "cells => cells.map(c => c.getBoundingClientRect().right)"
    )
    assert max(rights) <= width
    # and every row of the page is on the screen, none below its bottom edge
    bottom = page.locator("#standings tbody tr").last.evaluate(
        "r => r.getBoundingClientRect().bottom"
    )
    assert bottom <= page.evaluate("window.innerHeight")
    # the legend spells out every short heading
    legend = page.locator(".tb-legend div").evaluate_all("ds => ds.map(d => d.dataset.tiebreak)")
    assert legend == CHAIN
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "projector-standings.png"))
    context.close()
