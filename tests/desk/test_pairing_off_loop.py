"""Pairing a round runs off the server's event loop (issue 15, target 7).

A Swiss round of a few hundred entrants spends seconds inside the pairing engine (gacrux,
kept at arm's length; docs/performance.md). The same event loop answers the table clocks,
the public display and the simulator, so the desk hands the pairing to a worker thread and
shows the arbiter how long it has been working (static/desk/pair.js). These tests hold the
pairing on purpose and check what the server and the page do meanwhile."""

from __future__ import annotations

import asyncio
import re
import threading
import urllib.request

import pytest

from ball.tournament.round_service import RoundUseCases

from . import browser_steps
from .conftest import create_event, post


def _loop_running_here() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_pair_round_and_draw_run_where_no_event_loop_runs(client, monkeypatch):
    seen: list[bool] = []
    real = RoundUseCases.pair_next_round

    def watched(self, *args, **kwargs):
        seen.append(_loop_running_here())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RoundUseCases, "pair_next_round", watched)
    event_id = create_event(client, system="swiss", rounds="3")
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    answer = post(client, event_id, "/rounds")
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == f"/desk/{event_id}/rounds/1"
    assert seen == [False]


@pytest.fixture
def held_pairing(monkeypatch):
    """Pairings wait until the test lets them go: a slow engine, made to order."""
    started, release = threading.Event(), threading.Event()
    real = RoundUseCases.pair_next_round

    def held(self, *args, **kwargs):
        started.set()
        assert release.wait(30), "the test never released the pairing"
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RoundUseCases, "pair_next_round", held)
    yield started, release
    release.set()


@pytest.mark.browser
@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_the_arbiter_sees_the_pairing_at_work_and_the_server_keeps_answering(
    serve, browser, tmp_path, held_pairing, size
):
    from ball.web.app import create_app

    started, release = held_pairing
    base = serve(create_app(str(tmp_path / "event.sqlite")))
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    browser_steps.create_event(page, base, "Big Swiss", system="swiss")
    browser_steps.import_entrants(page, "name\n" + "".join(f"Coach {i}\n" for i in range(1, 8)))

    page.click("#pair-next")
    assert started.wait(10), "the pairing never started"
    progress = page.locator("#pair-progress")
    assert "Pairing round 1 of 7 entrants: 0 s so far" in progress.inner_text()
    assert progress.is_visible()
    assert page.locator("#pair-next").is_disabled()
    # While the engine works, the same server answers the public display at once.
    with urllib.request.urlopen(f"{base}/public/1", timeout=5) as answer:
        assert answer.status == 200
    page.wait_for_function(
        "() => /: [1-9] s so far/.test(document.getElementById('pair-progress').textContent)",
        timeout=5000,
    )
    assert re.search(r"Pairing round 1 of 7 entrants: [1-5] s so far", progress.inner_text())
    release.set()
    page.wait_for_url(f"{base}/desk/1/rounds/1")
    assert page.locator("table").first.is_visible()
    context.close()
