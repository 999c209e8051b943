"""Players enter their table's result by the QR code of their printed score sheet, in
Chromium on phones (390x844; issue 35 §1): the round's PDF is rendered by the server,
rasterised by poppler's pdftoppm and each code read back by zxing-cpp; the URLs read open
the players' pages; a BALL result entered by one side and confirmed by the other reaches
the desk, which approves it; a disputed entry reaches the desk as disputed; a round-1 link
is refused once round 2 is paired; a stranger's guessed link is refused, then throttled."""

from __future__ import annotations

import re
import subprocess
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app
from ball.web.core.deps import service_for
from web.conftest import VIEWPORTS, shoot

from .conftest import PIN, create_event, post, sheet_form

pytestmark = pytest.mark.browser

PHONE = VIEWPORTS["phone"]
LINK = re.compile(r"/t/\d+-(\d+)-(\d+)([ab])-[A-Za-z0-9_-]{22}$")


@pytest.fixture
def round_site(tmp_path, serve):
    """A 4-entrant round robin with round 1 paired and no result yet, served."""
    db = str(tmp_path / "links.sqlite")
    seed = TestClient(create_app(db))
    event_id = create_event(seed, name="Link Open", system="round-robin")
    for name in ["Ann", "Bo", "Cy", "Di"]:
        assert post(seed, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(seed, event_id, "/rounds").status_code == 303
    app = create_app(db)
    return serve(app), event_id, app


def codes_of_round_pdf(
    base: str, event_id: int, number: int, tmp: Path
) -> dict[tuple[int, str], str]:
    """(table, side) -> the URL its QR code carries, read from the round's PDF pages."""
    import zxingcpp
    from PIL import Image

    url = f"{base}/print/forms.pdf?round={number}&event={event_id}"
    with urllib.request.urlopen(url, timeout=300) as answer:
        (tmp / "round.pdf").write_bytes(answer.read())
    subprocess.run(
        ["pdftoppm", "-r", "150", "-gray", "-png", str(tmp / "round.pdf"), str(tmp / "page")],
        check=True,
    )
    found: dict[tuple[int, str], str] = {}
    for image in sorted(tmp.glob("page-*.png")):
        for code in zxingcpp.read_barcodes(Image.open(image)):
            match = LINK.search(code.text)
            assert match, f"a code on {image.name} is no table link: {code.text!r}"
            assert int(match.group(1)) == number
            found[int(match.group(2)), match.group(3).upper()] = code.text
    return found


def phone(browser):
    return browser.new_context(viewport=PHONE, locale="en-GB").new_page()


def enter(tab, h1_td: str, h2_td: str) -> None:
    tab.check(f"input[name=h1_td][value='{h1_td}']")
    tab.check(f"input[name=h2_td][value='{h2_td}']")
    for key, value in (("h1_A_atk", "3"), ("h1_B_atk", "2"), ("h2_A_atk", "1"), ("h2_B_atk", "4")):
        tab.fill(f"input[name={key}]", value)
    tab.click("#send")
    tab.wait_for_load_state()


def test_players_scan_enter_confirm_dispute_and_strangers_are_refused(
    browser, round_site, tmp_path, axe
):
    base, event_id, app = round_site
    svc = service_for(app)
    codes = codes_of_round_pdf(base, event_id, 1, tmp_path)
    assert set(codes) == {(1, "A"), (1, "B"), (2, "A"), (2, "B")}
    assert all(url.startswith(base + "/t/") for url in codes.values())
    t1 = svc.desk.table(event_id, 1, 1)

    # Table 1: A enters a 1-0 on their phone, B confirms on theirs.
    a_phone, b_phone = phone(browser), phone(browser)
    a_phone.goto(codes[1, "A"])
    assert t1.a.name in a_phone.locator("#you").inner_text()
    assert a_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert axe(a_phone) == []
    enter(a_phone, "A", "")
    assert a_phone.locator("#entry-state").get_attribute("data-state") == "entered"
    assert a_phone.locator("#waiting").count() == 1
    b_phone.goto(codes[1, "B"])
    assert f"{t1.a.name} wins 1–0" in b_phone.locator("#entry-text").inner_text()
    assert axe(b_phone) == []
    b_phone.viewport_name = "phone"
    shoot(b_phone, "table-link-confirm")
    b_phone.click("#confirm")
    b_phone.wait_for_load_state()
    assert b_phone.locator("#entry-state").get_attribute("data-state") == "confirmed"
    assert b_phone.locator("#closed").count() == 1  # both agreed: the link is spent
    assert svc.desk.table(event_id, 1, 1).result is None  # the desk approves first

    # The desk sees it confirmed and approves: the result is the table's.
    desk = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    desk.goto(f"{base}/desk/{event_id}/login")
    desk.fill("input[name=pin]", PIN)
    desk.click("button[type=submit]")
    desk.wait_for_url(f"**/desk/{event_id}")
    desk.goto(f"{base}/desk/{event_id}/rounds/1")
    assert desk.locator("#entry-1").get_attribute("data-state") == "confirmed"
    desk.click("#entry-1 button.approve")
    desk.wait_for_load_state()
    stored = svc.desk.table(event_id, 1, 1).result
    assert stored is not None and stored["outcome"] == "A"

    # Table 2: A enters 0-1, B says it is not right: the desk sees the dispute.
    a_phone.goto(codes[2, "A"])
    enter(a_phone, "", "B")
    b_phone.goto(codes[2, "B"])
    b_phone.click("#dispute")
    b_phone.wait_for_load_state()
    assert b_phone.locator("#disputed").count() == 1
    desk.goto(f"{base}/desk/{event_id}/rounds/1")
    assert desk.locator("#entry-2").get_attribute("data-state") == "disputed"

    # The arbiter enters table 2 (the desk's entry wins), round 2 is paired: a round-1
    # link is refused there.
    quick = {**sheet_form(td1="A"), "version": "0"}
    desk_client = TestClient(app)
    desk_client.cookies.update({c["name"]: c["value"] for c in desk.context.cookies()})
    csrf = re.search(r'name="csrf" value="([^"]+)"', desk_client.get(f"/desk/{event_id}").text)
    assert csrf is not None
    saved = desk_client.post(
        f"/desk/{event_id}/rounds/1/tables/2",
        data={**quick, "csrf": csrf.group(1)},
        follow_redirects=False,
    )
    assert saved.status_code == 303, saved.text
    desk.goto(f"{base}/desk/{event_id}/rounds/1")
    desk.click("#pair-next")
    desk.wait_for_url(f"**/desk/{event_id}/rounds/2")
    answer = a_phone.goto(codes[2, "A"])
    assert answer is not None and answer.status == 409
    assert "round is closed" in a_phone.locator("#closed").inner_text()
    assert a_phone.locator("#result-form").count() == 0

    # A stranger guesses: refused, then throttled (and a locked address learns nothing).
    stranger = phone(browser)
    guessed = re.sub(
        r"-[A-Za-z0-9_-]{22}$", "-" + "x" * 22, codes[1, "A"].replace("-1-1a-", "-2-1a-")
    )
    for _ in range(5):
        answer = stranger.goto(guessed)
        assert answer is not None and answer.status == 404
    answer = stranger.goto(guessed)
    assert answer is not None and answer.status == 429
    round2 = svc.table_links.table_link_tokens(event_id, 2)[1]["A"]
    answer = stranger.goto(f"{base}/t/{round2}")
    assert answer is not None and answer.status == 429
