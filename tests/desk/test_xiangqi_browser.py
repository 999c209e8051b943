"""A Xiangqi result entered at the desk from the browser (Debian's Chromium via Playwright)
and the public standings in the seed's order (issue 16; 15.1: points, then 18.4, small
points, wins, direct encounter, fouls)."""

from __future__ import annotations

import re

import pytest

from ball.web.app import create_app

from .browser_steps import add_entrants, create_event
from .conftest import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def server(tmp_path, serve):
    app = create_app(str(tmp_path / "xiangqi.sqlite"))
    app.state.clock_time = FakeClock()
    return serve(app)


def enter(page, base: str, table: int, result: str, reason: str, fouls=(0, 0)) -> str:
    page.goto(f"{base}/desk/1/rounds/1/tables/{table}")
    assert page.locator("input[name=h1_A_atk]").count() == 0  # no BALL half sheet
    page.check(f"input[name=xq_result][value='{result}']")
    page.select_option("select[name=xq_reason]", reason)
    page.fill("input[name=xq_fouls_A]", str(fouls[0]))
    page.fill("input[name=xq_fouls_B]", str(fouls[1]))
    page.click("button[value=check]")
    page.wait_for_selector("#decision.ok")
    text = page.locator("#decision").inner_text()
    page.click("#save")
    page.wait_for_url(re.compile(r".*/desk/1/rounds/1(#.*)?$"))
    return text


def test_a_xiangqi_result_at_the_desk_and_the_public_standings(server, browser):
    base = server
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_event(page, base, "Xiangqi Open", system="round-robin", game="xiangqi")
    add_entrants(page, ("Wang", "Li", "Zhao", "Qian"))
    page.click("#pair-next")
    page.wait_for_url(f"{base}/desk/1/rounds/1")
    tables = []
    for row in page.locator("#pairings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        tables.append((int(cells[0]), cells[1].strip(), cells[2].strip()))
    (t1, red1, black1), (t2, red2, black2) = tables

    # A winner with three fouls is refused (4.1.8): the page says so and nothing is saved.
    page.goto(f"{base}/desk/1/rounds/1/tables/{t1}")
    page.check("input[name=xq_result][value='1-0']")
    page.select_option("select[name=xq_reason]", "checkmate")
    page.fill("input[name=xq_fouls_A]", "3")
    page.click("#save")
    assert "cannot win or draw (4.1.8)" in page.locator("#save-error").inner_text()

    assert enter(page, base, t1, "1-0", "checkmate") == f"{red1} wins (checkmate, 4.1.1)"
    assert "Draw (agreement, 4.2.2)" in enter(page, base, t2, "1/2-1/2", "agreement", (1, 0))
    results = page.locator("#pairings tbody td.result").all_inner_texts()
    assert all(r.strip() not in ("", "—") for r in results)

    visitor = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    visitor.goto(f"{base}/public/1/standings")
    names = [n.strip() for n in visitor.locator("#standings tbody td.name").all_inner_texts()]
    # 1 point for the winner; the two drawers are equal on points, small points, wins and
    # their direct encounter: the one with a foul (Red of table 2) ranks below (15.1).
    assert names == [red1, black2, red2, black1]
    headers = visitor.locator("#standings thead th.tb").evaluate_all(
        "cells => cells.map(c => c.dataset.tiebreak)"
    )
    assert headers[:5] == ["sanctions", "sonneborn-berger", "wins", "direct-encounter", "fouls"]
    assert errors == []
