"""The table clock page of a clock bound to an event, in Debian's Chromium (issue 30): the
desk's link (`/clock/N#key=...`) lets the tablet press it, also after a reload, without the
key showing in the address bar; the same page opened without the link reads the clock but
cannot start it."""

import httpx
import pytest

from ball.clocks.store import ClockStore
from ball.storage import open_database

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def bound_clock(db) -> tuple[int, str]:
    engine, sessions = open_database(db)
    try:
        store = ClockStore(sessions)
        view = store.create("Table 2", "xiangqi-6.5", None, None, "Open R1", event_id=1)
        return view.id, store.key_of(view.id)[1]
    finally:
        engine.dispose()


def status(url, clock_id):
    return httpx.get(f"{url}/clock/api/clocks/{clock_id}").json()["state"]["status"]


def test_the_desks_link_presses_and_a_bare_page_does_not(tmp_path, web_server, browser):
    db = tmp_path / "device.db"
    clock_id, key = bound_clock(db)
    _proc, url = web_server(db)

    stranger = browser.new_context().new_page()
    stranger.goto(f"{url}/clock/{clock_id}")
    stranger.click("#btn-start")
    stranger.wait_for_function("document.querySelector('#clock-message').textContent.length > 0")
    assert "key" in stranger.locator("#clock-message").inner_text()
    assert status(url, clock_id) == "ready"

    tablet = browser.new_context().new_page()
    errors = []
    tablet.on("pageerror", lambda e: errors.append(str(e)))
    tablet.goto(f"{url}/clock/{clock_id}#key={key}")
    assert key not in tablet.url  # the address bar drops it
    tablet.reload()  # the browser kept it
    tablet.click("#btn-start")
    tablet.wait_for_function("document.querySelector('.side.to-move') !== null")
    assert status(url, clock_id) == "running"
    assert errors == []
