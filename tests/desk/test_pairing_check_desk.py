"""The desk shows each round's pairing check beside its Publish state (issue 35 §2); a
pairing changed in the database behind the toolbox's back fails its check again, leaves
the public pages and the public print, and is published only once fixed or with a reason
the log keeps."""

from __future__ import annotations

import re
import sqlite3
import subprocess

import pytest
from fastapi.testclient import TestClient

from ball.web.core.deps import service_for

from . import browser_steps
from .conftest import post


def _swap_b(path: str, first: int, second: int) -> None:
    """Coach B of two tables of round 1 change places, by hand in the file."""
    with sqlite3.connect(path) as con:
        rows = dict(con.execute('SELECT "table", b_id FROM tournament_pairings').fetchall())
        for table, b_id in ((first, rows[second]), (second, rows[first])):
            con.execute('UPDATE tournament_pairings SET b_id = ? WHERE "table" = ?', (b_id, table))


def _verdict(page: str) -> tuple[str, str]:
    check = re.search(r'id="check-verdict" data-check="(\w+)"', page)
    published = re.search(r'id="check-published" data-published="(\w+)"', page)
    assert check and published, page
    return check.group(1), published.group(1)


def test_the_round_page_shows_a_passed_check_and_a_published_round(client, event4):
    event_id, tables = event4
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert _verdict(page) == ("ok", "yes")
    assert "Checked by the FIDE Berger tables" in page
    assert 'id="publish"' not in page  # published already: nothing to publish


def test_a_tampered_round_is_held_back_until_fixed_or_overridden(client, event4, tmp_path):
    event_id, tables = event4
    names = {t.a for t in tables} | {t.b for t in tables if t.b}
    public = TestClient(client.app)
    shown = public.get(f"/public/{event_id}/pairings").text
    assert 'id="pairings"' in shown and all(f">{name}<" in shown for name in names)

    _swap_b(str(tmp_path / "desk.sqlite"), 1, 2)
    assert post(client, event_id, "/rounds/1/check").status_code == 303
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert _verdict(page) == ("failed", "no")
    assert "table 1: the Berger table has" in page

    # the players see no round 1: not on the pairings page, not in the public print
    assert public.get(f"/public/{event_id}/pairings?round=1").status_code == 404
    latest = public.get(f"/public/{event_id}/pairings").text
    assert 'id="pairings"' not in latest and "No round is paired yet." in latest
    printed = public.get(f"/print/forms?round=1&event={event_id}")
    assert printed.status_code == 404 and "not published" in printed.text
    assert client.get(f"/print/forms?round=1&event={event_id}").status_code == 200  # the desk

    refused = post(client, event_id, "/rounds/1/publish")
    assert refused.status_code == 400
    assert "round 1 is not published: its pairing check failed" in refused.text
    assert _verdict(refused.text) == ("failed", "no")

    done = post(client, event_id, "/rounds/1/publish", {"override": "venue seating"})
    assert done.status_code == 303
    assert _verdict(client.get(f"/desk/{event_id}/rounds/1").text) == ("failed", "yes")
    assert public.get(f"/public/{event_id}/pairings?round=1").status_code == 200
    svc = service_for(client.app)
    [line] = [x for x in svc.arbiter.log(event=event_id) if x.kind == "publish-override"]
    assert line.detail.startswith("venue seating (check failed: round 1: table 1:")


def test_a_fixed_round_is_published_again(client, event4, tmp_path):
    event_id, _ = event4
    path = str(tmp_path / "desk.sqlite")
    _swap_b(path, 1, 2)
    assert post(client, event_id, "/rounds/1/check").status_code == 303
    _swap_b(path, 1, 2)  # put back
    assert post(client, event_id, "/rounds/1/publish").status_code == 303
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert _verdict(page) == ("ok", "yes")


def test_check_and_publish_need_the_desk_session(client, event4):
    event_id, _ = event4
    stranger = TestClient(client.app)
    for action in ("check", "publish"):
        answer = stranger.post(f"/desk/{event_id}/rounds/1/{action}", data={"csrf": "x"})
        assert answer.status_code in (401, 403), answer.status_code
    assert post(client, event_id, "/rounds/9/check").status_code == 404


def test_the_printed_pairing_list_says_what_checked_it(client, event4, tmp_path):
    event_id, _ = event4
    line = "Pairing checked by the FIDE Berger tables."
    assert line in client.get(f"/print/forms?round=1&event={event_id}").text
    ko = client.get(f"/print/forms?round=1&event={event_id}&lang=ko").text
    assert "FIDE 베르거 표(으)로 대진을 검사함." in ko
    pdf = client.get("/print/forms.pdf", params={"event": event_id, "round": 1, "lang": "en"})
    assert pdf.status_code == 200
    path = tmp_path / "forms.pdf"
    path.write_bytes(pdf.content)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    assert line in " ".join(out.stdout.split())

    # a failed check prints no such line (the desk still prints the round)
    _swap_b(str(tmp_path / "desk.sqlite"), 1, 2)
    assert post(client, event_id, "/rounds/1/check").status_code == 303
    again = client.get(f"/print/forms?round=1&event={event_id}&lang=en")
    assert again.status_code == 200 and "Pairing checked by" not in again.text


@pytest.mark.browser
def test_on_a_phone_the_arbiter_sees_a_failed_check_and_publishes_with_a_reason(
    serve, browser, tmp_path
):
    """Chromium at 390×844: a Swiss round paired at the desk shows the Dutch checker's
    verdict; after its rows are changed in the file, *Check the pairing again* shows the
    failure, *Publish* without a reason is refused with the checker's message, and with a
    reason the round is published."""
    from ball.web.app import create_app

    path = tmp_path / "event.sqlite"
    base = serve(create_app(str(path)))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    browser_steps.create_event(page, base, "Phone Swiss", system="swiss")
    browser_steps.import_entrants(page, "name,rating\n" + "".join(
        f"Coach {i},{2000 - 10 * i}\n" for i in range(1, 7)))  # fmt: skip
    browser_steps.pair_first_round(page, base)
    verdict = page.locator("#check-verdict")
    assert verdict.get_attribute("data-check") == "ok"
    assert "Checked by the FIDE Dutch checker (gacrux)" in verdict.inner_text()
    assert verdict.is_visible()

    _swap_b(str(path), 1, 2)
    page.click("#check-form button")
    page.wait_for_url(f"{base}/desk/1/rounds/1#check")
    assert verdict.get_attribute("data-check") == "failed"
    assert "the Dutch pairing has" in verdict.inner_text()
    assert page.locator("#check-published").get_attribute("data-published") == "no"

    page.click("#publish")
    error = page.locator("#desk-error")
    assert "its pairing check failed" in error.inner_text() and error.is_visible()
    page.fill("#publish-form input[name=override]", "seating fixed by the chief arbiter")
    page.click("#publish")
    page.wait_for_url(f"{base}/desk/1/rounds/1#check")
    assert page.locator("#check-published").get_attribute("data-published") == "yes"
    context.close()
