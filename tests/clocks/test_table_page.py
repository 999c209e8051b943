"""The table clock page in Debian's Chromium, as a phone held in landscape."""

import re

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHORT = {
    "name": "test-sudden-2s",
    "game": "xiangqi",
    "title": "2 s sudden death",
    "players": ["red", "black"],
    "stages": [{"time": "2s"}],
}


def create(url, **body):
    response = httpx.post(f"{url}/clock/api/clocks", json={"pin": "2468", "round": "R7", **body})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def state(url, clock_id):
    return httpx.get(f"{url}/clock/api/clocks/{clock_id}").json()["state"]


def test_table_clock_in_landscape(tmp_path, web_server, browser):
    _proc, url = web_server(tmp_path / "page.db")
    clock_id = create(url, table="T1", control="xiangqi-6.5")
    page = browser.new_page(viewport={"width": 844, "height": 390}, has_touch=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/clock/{clock_id}")
    red, black = page.locator(".side").nth(0), page.locator(".side").nth(1)
    assert red.locator(".digits").inner_text() == "30:00"

    page.click("#btn-start")
    page.wait_for_function("document.querySelector('.side').classList.contains('to-move')")
    assert state(url, clock_id)["mover"] == 0

    page.keyboard.press("Space")  # red ends the move
    page.wait_for_function("document.querySelectorAll('.side')[1].classList.contains('to-move')")
    assert state(url, clock_id)["mover"] == 1

    page.wait_for_timeout(400)  # one tap, one press: wait out the double-tap guard
    red.click()  # not red's turn: the server refuses, nothing changes
    page.wait_for_function("document.querySelector('#clock-message').textContent.length > 0")
    assert state(url, clock_id)["mover"] == 1
    page.wait_for_timeout(400)
    black.click()
    page.wait_for_function("document.querySelector('.side').classList.contains('to-move')")
    assert state(url, clock_id)["players"][1]["moves"] == 1

    # The digits count down between polls from the server's state.
    page.wait_for_timeout(1500)
    assert red.locator(".digits").inner_text() < "30:00"

    # Arbiter pause: a wrong PIN is refused, the right one pauses.
    page.click("#btn-pause")
    page.fill("#pin-dialog input", "1111")
    page.click("#pin-dialog button[value=ok]")
    page.wait_for_function("document.querySelector('#clock-message').textContent.includes('PIN')")
    assert state(url, clock_id)["status"] == "running"
    page.click("#btn-pause")
    page.fill("#pin-dialog input", "2468")
    page.click("#pin-dialog button[value=ok]")
    page.wait_for_function("document.querySelector('#clock-table').dataset.status === 'paused'")
    assert state(url, clock_id)["status"] == "paused"
    assert page.locator("#btn-resume").is_visible()

    # Nothing sticks out of a phone held in landscape.
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    assert page.locator(".side .digits").nth(0).bounding_box()["height"] > 60

    # A closed tab loses nothing: a new one shows the same paused clock.
    page.close()
    again = browser.new_page(viewport={"width": 844, "height": 390})
    again.goto(f"{url}/clock/{clock_id}")
    again.wait_for_function("document.querySelector('#clock-table').dataset.status === 'paused'")
    assert again.locator(".side").nth(1).locator(".detail").inner_text().endswith("moves 1")
    assert errors == []


def test_flag_is_shown_when_the_server_reports_it(tmp_path, web_server, browser):
    _proc, url = web_server(tmp_path / "flag.db")
    clock_id = create(url, table="T2", control=SHORT)
    page = browser.new_page(viewport={"width": 844, "height": 390})
    page.goto(f"{url}/clock/{clock_id}")
    page.click("#btn-mute")  # muting is remembered by the browser
    assert page.evaluate("localStorage.getItem('ball-clock-muted')") == "1"
    page.click("#btn-start")
    page.wait_for_function(
        "document.querySelector('.side').classList.contains('flagged')", timeout=15000
    )
    assert state(url, clock_id)["players"][0]["flagged"]
    assert page.locator("#clock-table").get_attribute("data-status") == "over"
    assert page.locator(".side .digits").nth(0).inner_text().startswith("0:00")
    assert "flag" in page.locator("#clock-notices").inner_text()


def test_arbiter_desk_shows_every_clock_of_the_round(tmp_path, web_server, browser):
    _proc, url = web_server(tmp_path / "desk.db")
    ids = [create(url, table=f"T{i}", control="ball-standard") for i in (1, 2, 3)]
    create(url, table="Other", control="ball-standard", round="R8")
    httpx.post(f"{url}/clock/api/clocks/{ids[1]}/events", json={"kind": "start"})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{url}/clock/desk?round=R7")
    page.wait_for_selector(".desk-card")
    cards = page.locator(".desk-card")
    assert cards.count() == 3
    assert [cards.nth(i).get_attribute("data-clock-id") for i in range(3)] == [str(i) for i in ids]
    assert "running" in cards.nth(1).inner_text() and "ready" in cards.nth(0).inner_text()


def test_ball_page_shows_half_timer_turn_limit_and_release_countdown(tmp_path, web_server, browser):
    _proc, url = web_server(tmp_path / "ball.db")
    clock_id = create(url, table="T4", control="ball-standard", players=["Ana", "Boris"])
    page = browser.new_page(viewport={"width": 740, "height": 360})
    page.goto(f"{url}/clock/{clock_id}")
    page.click("#btn-start")
    # pairing order: Ana (coach A) attacks first, so Boris (DEF, second seat) moves (D-U1)
    page.wait_for_function(
        "document.querySelectorAll('.side')[1].classList.contains('to-move')"
    )
    assert page.locator("#half-timer").is_visible()
    assert re.fullmatch(r"1:00|0:[0-5]\d", page.locator(".side .digits").nth(1).inner_text())
    assert "ATK" in page.locator(".side").nth(0).locator(".penalties").inner_text()
    page.keyboard.press("r")
    page.wait_for_selector("#release-bar:not([hidden])")
    bar = page.locator("#release-bar").inner_text()
    assert "mover" in bar and "Boris" in bar
    assert state(url, clock_id)["turn"]["phase"] == "release"
    page.keyboard.press("Space")
    page.wait_for_selector("#release-bar", state="hidden")
    assert state(url, clock_id)["mover"] == 0


def test_page_never_decides_a_flag_itself(tmp_path, web_server, browser):
    """With the server down the digits run out, but only the server can say the flag fell;
    once it is back (same address, same database) the page shows the flag it computed."""
    db = tmp_path / "down.db"
    proc, url = web_server(db)
    clock_id = create(url, table="T5", control={**SHORT, "stages": [{"time": "5s"}]})
    page = browser.new_page(viewport={"width": 844, "height": 390})
    page.goto(f"{url}/clock/{clock_id}")
    page.click("#btn-start")
    page.wait_for_function("document.querySelector('.side').classList.contains('to-move')")
    proc.kill()
    proc.wait()
    page.wait_for_selector("#clock-offline:not([hidden])", timeout=10000)
    page.wait_for_function("document.querySelector('.side .digits').textContent === '0:00'")
    assert "flagged" not in (page.locator(".side").first.get_attribute("class") or "")
    assert page.locator("#clock-table").get_attribute("data-status") == "running"

    web_server(db, port=int(url.rsplit(":", 1)[1]))
    page.wait_for_function(
        "document.querySelector('.side').classList.contains('flagged')", timeout=30000
    )
    assert page.locator("#clock-table").get_attribute("data-status") == "over"
    assert page.locator("#clock-offline").is_hidden()


def test_new_clock_form_opens_the_table_clock(tmp_path, web_server, browser):
    _proc, url = web_server(tmp_path / "form.db")
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(f"{url}/clock")
    page.fill("input[name=table]", "Table 12")
    page.fill("input[name=round]", "R3")
    page.select_option("select[name=control]", "xiangqi-6.2")
    page.fill("input[name=players]", "Lin, Wu")
    page.fill("input[name=pin]", "12")  # too short: the server says why
    page.evaluate("document.querySelector('input[name=pin]').removeAttribute('minlength')")
    page.click("#clock-create button[type=submit]")
    page.wait_for_function("document.querySelector('.form-message').textContent.includes('pin')")
    page.fill("input[name=pin]", "9753")
    page.click("#clock-create button[type=submit]")
    page.wait_for_url(f"{url}/clock/*")
    page.wait_for_selector(".side .name:text('Lin')")
    listed = httpx.get(f"{url}/clock/api/clocks", params={"round": "R3"}).json()
    assert [(c["table"], c["state"]["players"][1]["name"]) for c in listed] == [("Table 12", "Wu")]
