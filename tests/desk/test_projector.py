"""Public standings on a projector (issue 13, issue 36 item 13): the projector view
(`/public/{id}/projector`) of a Swiss event with eight tie-breaks shows every column without
a sideways scroll (short headings, a legend below) at 1366x768, 20 rows at 1920x1080 with
no site navigation, and pages through a large event by itself, one screenful per refresh;
the standings page of phones and laptops has page links instead and stays on its page.
Screenshots: test-artifacts/desk/projector-standings*.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.tournament.service import TournamentService
from ball.web.app import create_app
from ball.web.public.display import ROWS_PER_PAGE
from ball.web.public.projector import PROJECTOR_ROWS

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
ENTRANTS = 56  # more than two pages of the standings and of the projector


def seeded(db: str) -> int:
    app = create_app(db)
    sessions = app.state.sessions
    svc = TournamentService.from_sessions(sessions.kw["bind"], sessions)
    event_id = svc.events.create_event(
        name="Plovdiv Swiss Open", system="swiss", rounds=5, tiebreaks=CHAIN
    )["id"]
    for i in range(ENTRANTS):
        svc.entrants.add_player(f"Coach Number{i:02d} Longername", rating=2000 - i, event=event_id)
    tables = svc.rounds.pair_next_round(event=event_id)
    for t in tables:
        if t.get("b"):
            svc.results.enter_result(1, t["table"], forfeit="B", event=event_id)
    return event_id


@pytest.fixture
def event(tmp_path) -> tuple[str, int]:
    db = str(tmp_path / "projector.sqlite")
    return db, seeded(db)


def names_of(html: str) -> list[str]:
    return re.findall(r'<td class="name">([^<]+)</td>', html)


def test_projector_pages_through_a_large_event(event):
    db, event_id = event
    client = TestClient(create_app(db))
    seen: list[str] = []
    pages = -(-ENTRANTS // PROJECTOR_ROWS)
    for page in range(1, pages + 1):
        html = client.get(f"/public/{event_id}/projector", params={"page": page}).text
        names = names_of(html)
        assert len(names) == (PROJECTOR_ROWS if page < pages else ENTRANTS % PROJECTOR_ROWS)
        seen += names
        # each refresh moves on to the next page, and after the last back to the first
        nxt = page % pages + 1
        assert f';url=/public/{event_id}/projector?page={nxt}&amp;rows={PROJECTOR_ROWS}"' in html
        assert 'class="site-header' not in html  # the whole screen is the standings'
    assert len(set(seen)) == ENTRANTS
    # a page past the end shows the last one; more rows to a screen when asked
    last = client.get(f"/public/{event_id}/projector", params={"page": 99}).text
    assert names_of(last) == seen[-(ENTRANTS % PROJECTOR_ROWS) :]
    assert len(names_of(client.get(f"/public/{event_id}/projector?rows=30").text)) == 30
    assert client.get(f"/public/{event_id}/projector", params={"page": 0}).status_code == 422
    assert client.get(f"/public/{event_id}/projector", params={"rows": 500}).status_code == 422


def test_standings_page_links_and_stays_on_its_page(event):
    db, event_id = event
    client = TestClient(create_app(db))
    pages = -(-ENTRANTS // ROWS_PER_PAGE)
    seen: list[str] = []
    for page in range(1, pages + 1):
        html = client.get(f"/public/{event_id}/standings", params={"page": page}).text
        seen += names_of(html)
        # a reader keeps their page: the refresh reloads it, the links lead to every page
        assert '<meta http-equiv="refresh" content="30">' in html
        for n in range(1, pages + 1):
            assert f'href="/public/{event_id}/standings?page={n}"' in html
        assert f'href="/public/{event_id}/standings?page={page}" aria-current="page"' in html
    assert len(set(seen)) == ENTRANTS


def test_find_my_name_opens_its_page(event):
    db, event_id = event
    app = create_app(db)
    client = TestClient(app)
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    ranked = svc.ranking.standings(event=event_id).standings
    wanted = ranked[ROWS_PER_PAGE + 3]  # on page 2
    typed = wanted.name.split()[1].upper()  # "NUMBER41": part of the name, another case
    html = client.get(f"/public/{event_id}/standings", params={"find": typed}).text
    found = re.search(r'<section class="found".*?</section>', html, re.S)
    assert found and f"Rank {wanted.rank}: <strong>{wanted.name}</strong>" in found.group(0)
    # the page shown is the one with the name, marked, and a search does not refresh
    hit = re.findall(r'<tr class="hit"><td class="rank num">\d+</td><td class="name">([^<]+)', html)
    assert hit == [wanted.name]
    assert 'aria-current="page">2</a>' in html
    assert 'http-equiv="refresh"' not in html
    none = client.get(f"/public/{event_id}/standings", params={"find": "Zed"}).text
    assert "No player’s name contains “Zed”." in none.replace("&#39;", "’").replace("'", "’")
    assert 'class="hit"' not in none


@pytest.mark.browser
@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_projector_fills_the_screen(browser, serve, event, axe, width, height):
    db, event_id = event
    base = serve(create_app(db))
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/public/{event_id}/projector?refresh=0")
    assert page.locator(".site-header, .site-nav").count() == 0
    headers = page.locator("#standings thead th.tb").evaluate_all(
        "cells => cells.map(c => c.title.split(':')[0])"
    )
    assert len(headers) == len(CHAIN)
    # nothing scrolls, neither sideways nor down, and every row is on the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    rows = page.locator("#standings tbody tr")
    assert rows.count() == PROJECTOR_ROWS >= 20
    bottoms = rows.evaluate_all("rs => rs.map(r => r.getBoundingClientRect().bottom)")
    assert max(bottoms) <= height
    rights = page.locator("#standings thead th").evaluate_all(
        "cells => cells.map(c => c.getBoundingClientRect().right)"
    )
    assert max(rights) <= width
    # large type: a row's text is at least 2% of the screen's height
    size = page.locator("#standings td.name").first.evaluate(
        "c => parseFloat(getComputedStyle(c).fontSize)"
    )
    assert size >= 0.02 * height
    # the legend spells out every short heading
    assert page.locator(".projector-legend span").count() == len(CHAIN)
    assert axe(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"projector-standings-{width}x{height}.png"))
    context.close()


@pytest.mark.browser
def test_projector_turns_its_pages(browser, serve, event):
    db, event_id = event
    base = serve(create_app(db))
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/public/{event_id}/projector?refresh=5")
    first = page.locator("#standings td.name").all_inner_texts()
    page.wait_for_url("**/projector?page=2*", timeout=12_000)
    second = page.locator("#standings td.name").all_inner_texts()
    assert second and not set(first) & set(second)
    assert "page 2 of 3" in page.inner_text(".projector-title")
    context.close()


def test_a_mahjong_event_has_the_projector_and_find_my_name(tmp_path):
    from mahjong.public_event import make_event

    db = str(tmp_path / "mahjong.sqlite")
    svc, event_id = make_event(db)
    client = TestClient(create_app(db))
    html = client.get(f"/public/{event_id}/projector").text
    expected = [r["name"] for r in svc.sessions.session_standings(event=event_id)["standings"]]
    assert names_of(html) == expected  # 16 players: one screen, by table points
    assert "Standings after session 1" in html and "<abbr>Team</abbr>" in html
    # find my name on the Mahjong standings, accents and case ignored; no refresh meanwhile
    found = client.get(f"/public/{event_id}/standings", params={"find": "zoe ANG"}).text
    hits = re.findall(r'<tr data-number="\d+" class="hit">.*?<td class="name">([^<]+)', found)
    assert hits == ["Zoë Ångström"]
    assert 'http-equiv="refresh"' not in found
    none = client.get(f"/public/{event_id}/standings", params={"find": "Nobody"}).text
    assert 'id="found"' in none and 'class="hit"' not in none
