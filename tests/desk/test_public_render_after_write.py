"""Render after write (issue 15, target 2; decision D-P1): a write of the server's own
process renders the event's watched public pages again in the background, and a phone that
asks meanwhile gets the previous page at once, with that page's own ETag, for at most
`PageCache.stale_seconds` after the write.

No test here measures time. Background renders are held by `PageCache.hold` (called before
each render) until the test lets them go, the bound is tested with an injected clock, and
"rendered in the background" is proved by counting renders: the next reader finds the page
ready and renders nothing. Every test builds its own app (no app shared between tests).
Writes go through the app's own service (`service_for`), as the desk's routes do; the
writes of another process are tests/desk/test_public_cache.py's.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.app import create_app
from ball.web.core import security
from ball.web.core.deps import service_for
from ball.web.page_store import RERENDER_THREAD, PageCache
from web.test_public_mahjong_cache import WRITES as MAHJONG_WRITES
from web.test_public_mahjong_cache import build as mahjong_build

from .conftest import PIN, post
from .test_public_cache import ACTIONS, WRITES, build, event_for, fresh


class Hold:
    """Holds every background render (the cache's own threads) until `release`; readers'
    renders pass. `fail`: the held renders raise instead of rendering."""

    def __init__(self, fail: bool = False) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()
        self.fail = fail
        self.keys: list[str] = []

    def __call__(self, key: str) -> None:
        if not threading.current_thread().name.startswith(RERENDER_THREAD):
            return
        self.keys.append(key)
        self.entered.set()
        assert self.released.wait(60), "the test never released the render"
        if self.fail:
            raise RuntimeError("the renderer broke")

    def wait(self) -> None:
        assert self.entered.wait(60), "no background render started"

    def release(self) -> None:
        self.released.set()


def _asking(
    cache: PageCache, client: TestClient, url: str, headers: dict[str, str]
) -> Callable[[], Any]:
    """Send a request from another thread; return once the cache decided whether it may
    keep a previous page (so the test can release a held render after that, never
    before). The returned call gives the answer."""
    asked = threading.Event()
    stale = cache.stale

    def spy(*args: Any) -> Any:
        page = stale(*args)
        asked.set()
        return page

    cache.stale = spy  # type: ignore[method-assign]
    reader = ThreadPoolExecutor(1)
    answer = reader.submit(client.get, url, headers=headers)
    assert asked.wait(60), "the request never reached the cache"

    def result() -> Any:
        try:
            return answer.result(timeout=60)
        finally:
            reader.shutdown()
            cache.stale = stale  # type: ignore[method-assign]

    return result


class Clock:
    """The cache's clock (monotonic seconds), moved by the test only."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def ball_event(tmp_path) -> tuple[str, int]:
    db = str(tmp_path / "public.sqlite")
    return db, build(db)


@pytest.fixture
def served(ball_event) -> Iterator[tuple[TestClient, PageCache, TournamentService, int, str]]:
    """A started app on the event, its cache (clock injected) and service; the db path."""
    db, event_id = ball_event
    app = create_app(db)
    with TestClient(app) as client:
        cache = app.state.page_cache
        cache.clock = Clock()
        yield client, cache, service_for(app), event_id, db


def test_a_phone_during_the_render_gets_the_previous_page_then_the_new_one(served):
    client, cache, svc, event_id, db = served
    url = f"/public/{event_id}/results"
    before = client.get(url)
    assert before.status_code == 200
    hold = cache.hold = Hold()
    renders = cache.renders

    svc.results.enter_result(1, 3, forfeit="A", event=event_id)  # the desk's way: this process
    hold.wait()  # the new page is rendering now, held

    # the phone that shows the previous page keeps it, at once, with its own ETag
    during = client.get(url, headers={"If-None-Match": before.headers["etag"]})
    assert during.status_code == 304 and during.headers["etag"] == before.headers["etag"]
    assert cache.stale_served == 1
    assert cache.renders == renders  # nobody rendered on a phone's time

    # a reader without it (a new visitor) waits for the new page
    newcomer = _asking(cache, client, url, {})
    hold.release()
    assert cache.settle()
    arrived = newcomer()
    assert arrived.status_code == 200 and arrived.text != before.text
    assert cache.stale_served == 1
    after = client.get(url)
    assert after.text != before.text and after.text == fresh(db, url)
    assert after.headers["etag"] != before.headers["etag"]
    assert cache.renders == renders + 1  # the background render, found ready
    # 304 for the new rendering's tag, and the old tag no longer matches
    assert client.get(url, headers={"If-None-Match": after.headers["etag"]}).status_code == 304
    old = client.get(url, headers={"If-None-Match": before.headers["etag"]})
    assert old.status_code == 200 and old.text == after.text


def _watch_then_write(
    db: str, event_id: int, url: str, write: Callable[[TournamentService], Any]
) -> None:
    """A phone watches `url`; the app's own service writes (one transaction); the watched
    page is rendered again in the background, so the next phone renders nothing and sees
    what a fresh server renders."""
    app = create_app(db)
    with TestClient(app) as client:
        before = client.get(url)
        assert before.status_code == 200
        cache: PageCache = app.state.page_cache
        renders, passes = cache.renders, cache.passes
        write(service_for(app))
        assert cache.settle()
        assert cache.passes == passes + 1
        assert cache.renders == renders + 1  # rendered after the write, by the cache
        after = client.get(url)
        assert cache.renders == renders + 1  # ... so this phone rendered nothing
        assert after.headers["etag"] != before.headers["etag"]
    assert after.text == fresh(db, url)


# The two writes of test_public_cache.py's lists that are two transactions: the first is
# made before the phone looks (a page nobody looked at since a write waits for its reader).
BEFORE: dict[str, Callable[[TournamentService, int], Any]] = {
    "pairing": lambda svc, e: svc.results.enter_result(1, 3, forfeit="A", event=e),
    "desk close": lambda svc, e: svc.mahjong_desk.edit_mahjong_table(
        e, 1, 4, "hand", {"winner": "E", "discarder": "W", "fan": 8}, expected_version=0
    ),
}
ONE_WRITE: dict[str, Callable[[TournamentService, int], Any]] = {
    "pairing": lambda svc, e: svc.rounds.pair_next_round(event=e),
    "desk close": lambda svc, e: svc.mahjong_desk.close_mahjong_table(
        e, 1, 4, expected_version=svc.mahjong_desk.mahjong_table(e, 1, 4)["version"]
    ),
}


@pytest.mark.parametrize("kind", list(WRITES))
def test_every_kind_of_write_renders_the_watched_page_in_the_background(tmp_path, kind):
    write, page = WRITES[kind]
    write = ONE_WRITE.get(kind, write)
    db = str(tmp_path / "public.sqlite")
    event_id = event_for(db, kind)
    if kind in BEFORE:
        BEFORE[kind](TournamentService(db), event_id)
    url = f"/public/{event_id}/{page}"
    _watch_then_write(db, event_id, url, lambda svc: write(svc, event_id))


@pytest.mark.parametrize("kind", list(MAHJONG_WRITES))
def test_every_kind_of_mahjong_write_renders_the_watched_page_in_the_background(tmp_path, kind):
    write, page, entered = MAHJONG_WRITES[kind]
    write = ONE_WRITE.get(kind, write)
    db = str(tmp_path / "mahjong.sqlite")
    event_id = mahjong_build(db, entered)
    if kind in BEFORE:
        BEFORE[kind](TournamentService(db), event_id)
    url = f"/public/{event_id}/{page}"
    _watch_then_write(db, event_id, url, lambda svc: write(svc, event_id))


def test_writes_during_a_render_make_one_more_render(served):
    client, cache, svc, event_id, db = served
    url = f"/public/{event_id}/standings"
    client.get(url)
    hold = cache.hold = Hold()
    renders, passes = cache.renders, cache.passes

    svc.results.enter_result(1, 3, forfeit="A", event=event_id)
    hold.wait()  # the first pass renders the page as after the result
    svc.entrants.add_player("Galin", rating=1500, event=event_id)  # three more writes meanwhile
    svc.entrants.add_player("Hristo", rating=1400, event=event_id)
    svc.entrants.withdraw("Dora", event=event_id)
    hold.release()
    assert cache.settle()

    assert cache.passes == passes + 2  # the writes during the pass: one more, not three
    assert cache.renders == renders + 2
    after = client.get(url)
    assert cache.renders == renders + 2  # the last pass rendered the page as it is now
    assert "Hristo" in after.text and after.text == fresh(db, url)


def test_a_page_nobody_asked_for_since_its_last_render_waits_for_its_reader(served):
    """After a write the pages phones asked for since their last rendering render in the
    background; one nobody looked at since is left to its next reader, who renders it
    (and so sees the new page, as without the background) -- unless it is the only page
    of its kind (path), whose render computes what the kind's pages share."""
    client, cache, svc, event_id, db = served
    results = f"/public/{event_id}/results"
    looked = f"/public/{event_id}/standings?page=1"
    unseen = f"/public/{event_id}/standings?page=2"  # the same rows, but its own page
    lonely = f"/public/{event_id}/pairings"
    for url in (unseen, lonely, results, looked):
        client.get(url)
    cache.clock.t += 1.0  # the renders after the write come later than those asks
    svc.results.enter_result(1, 3, forfeit="A", event=event_id)
    assert cache.settle()
    renders = cache.renders
    assert renders == 4 + 4  # all had been asked for: all rendered again

    client.get(results)  # phones look at the new results and standings page 1 only
    client.get(looked)
    svc.arbiter.give_signal(1, 1, event=event_id)
    assert cache.settle()
    # results and standings page 1; the pairings, the only page of its kind, even so
    assert cache.renders == renders + 3
    old = client.get(unseen)  # its reader renders it (nothing is rendering: no old page)
    assert cache.renders == renders + 4 and cache.stale_served == 0
    assert old.text == fresh(db, unseen)
    client.get(lonely)
    assert cache.renders == renders + 4  # found ready


def test_a_page_looked_at_less_often_than_the_event_is_written_waits_for_its_reader(served):
    """A page phones look at less often than the event is written (`AHEAD` write intervals)
    would be outdated again before its next reader came: a write no longer renders it in
    advance; its reader renders it, and sees exactly the new page. A page looked at as
    often as the event is written is still rendered in advance, and so is one page of
    each kind (standings page 1 here, the most recently asked), first."""
    client, cache, svc, event_id, db = served
    clock = cache.clock
    often, rare = f"/public/{event_id}/results", f"/public/{event_id}/standings?page=2"
    first = f"/public/{event_id}/standings?page=1"
    client.get(rare)
    clock.t += 20.0
    client.get(rare)  # standings page 2: looked at every 20 s
    for n in range(4):  # the event written every 2 s, the results looked at every second
        for _ in range(2):
            clock.t += 1.0
            client.get(often)
            client.get(first)
        svc.entrants.add_player(f"Late {n}", rating=1500, event=event_id)
        assert cache.settle()
    client.get(rare)
    client.get(often)
    clock.t += 0.5
    client.get(first)  # asked last: the standings' page rendered first
    hold = cache.hold = Hold()
    renders = cache.renders
    clock.t += 2.0
    svc.arbiter.give_signal(1, 1, event=event_id)
    hold.wait()
    assert f"/public/{event_id}/standings|" in hold.keys[0]  # the kind's page, first
    hold.release()
    assert cache.settle()
    assert cache.renders == renders + 2  # results and standings page 1, not page 2
    assert client.get(often).text == fresh(db, often)
    assert cache.renders == renders + 2  # found ready
    late = client.get(rare)  # its reader renders it: the page as it is now
    assert cache.renders == renders + 3 and cache.stale_served == 0
    assert late.text == fresh(db, rare)


def test_a_phone_holding_an_older_page_gets_the_previous_one_during_the_render(served):
    """D-P2: a phone showing an older rendering of the page (it missed a write between its
    refreshes) is given the previous page (200, with that page's own ETag) while the new
    one renders, within the bound; a new visitor and, past the bound, the phone wait for the
    new page."""
    client, cache, svc, event_id, db = served
    url = f"/public/{event_id}/results"
    oldest = client.get(url)
    svc.results.enter_result(1, 3, forfeit="A", event=event_id)
    assert cache.settle()
    previous = client.get(url)  # rendered in the background after the first result
    assert previous.text != oldest.text
    hold = cache.hold = Hold()
    renders = cache.renders
    svc.results.correct_result(1, 1, forfeit="A", reason="misread", event=event_id)
    hold.wait()

    holding = {"If-None-Match": oldest.headers["etag"]}
    given = client.get(url, headers=holding)
    assert given.status_code == 200 and given.text == previous.text
    assert given.headers["etag"] == previous.headers["etag"]  # its 304 stays right
    assert cache.stale_served == 1 and cache.renders == renders
    cache.clock.t += cache.stale_seconds + 0.001  # past the bound: it waits
    late = _asking(cache, client, url, holding)
    hold.release()
    answer = late()
    assert answer.status_code == 200 and answer.text == fresh(db, url)
    assert answer.text != previous.text and cache.stale_served == 1


def test_a_tag_of_another_page_is_not_a_page_of_the_slot(served):
    """The tag a phone sends must be one of this page's renderings: a tag of another page
    (or none) waits for the new page."""
    client, cache, svc, event_id, db = served
    url, other = f"/public/{event_id}/results", f"/public/{event_id}/standings"
    client.get(url)
    elsewhere = client.get(other)
    hold = cache.hold = Hold()
    svc.results.enter_result(1, 3, forfeit="A", event=event_id)
    hold.wait()
    waiting = _asking(cache, client, url, {"If-None-Match": elsewhere.headers["etag"]})
    hold.release()
    answer = waiting()
    assert answer.status_code == 200 and answer.text == fresh(db, url)
    assert cache.stale_served == 0


def test_a_previous_page_older_than_the_bound_is_not_served(served):
    client, cache, svc, event_id, db = served
    url = f"/public/{event_id}/results"
    before = client.get(url)
    hold = cache.hold = Hold()
    svc.results.enter_result(1, 3, forfeit="A", event=event_id)
    hold.wait()
    holding = {"If-None-Match": before.headers["etag"]}
    assert client.get(url, headers=holding).status_code == 304  # within the bound
    cache.clock.t += cache.stale_seconds  # exactly the bound: still kept
    assert client.get(url, headers=holding).status_code == 304

    cache.clock.t += 0.001  # past it: this phone waits for the new page instead
    late = _asking(cache, client, url, holding)  # refused the previous page: it waits
    hold.release()
    answer = late()
    assert answer.status_code == 200 and answer.text == fresh(db, url)
    assert answer.headers["etag"] != before.headers["etag"]
    assert cache.stale_served == 2 and cache.stale_age == cache.stale_seconds


def test_a_failing_background_render_is_logged_and_the_next_reader_renders(served, caplog):
    client, cache, svc, event_id, db = served
    url = f"/public/{event_id}/results"
    before = client.get(url)
    hold = cache.hold = Hold(fail=True)
    svc.results.enter_result(1, 3, forfeit="A", event=event_id)
    hold.wait()
    with caplog.at_level(logging.ERROR, logger="ball.web.page_store"):
        hold.release()
        assert cache.settle()
    assert any("render failed" in r.getMessage() for r in caplog.records)
    cache.hold = None
    renders = cache.renders
    after = client.get(url)  # no previous page after a failure: this reader renders
    assert after.status_code == 200 and after.text == fresh(db, url)
    assert after.text != before.text and cache.renders == renders + 1


def _logged_in(app: FastAPI, client: TestClient, event_id: int) -> None:
    with app.state.sessions.begin() as session:
        security.set_pin(session, event_id, PIN, 0.0)
    login = client.post(f"/desk/{event_id}/login", data={"pin": PIN}, follow_redirects=False)
    assert login.status_code == 303, login.text


def test_the_desk_never_gets_a_previous_page(ball_event):
    """The arbiter's browser (it holds the event's desk cookie) sees its own result on the
    desk and on the public pages while a phone still gets the previous page."""
    db, event_id = ball_event
    app = create_app(db)
    with TestClient(app) as desk, TestClient(app) as phone:
        _logged_in(app, desk, event_id)
        standings, results = f"/public/{event_id}/standings", f"/public/{event_id}/results"
        old_standings = phone.get(standings)
        old_results = phone.get(results)  # asked last: rendered first after a write
        cache: PageCache = app.state.page_cache
        desk_round = f"/desk/{event_id}/rounds/1"
        old_round = desk.get(desk_round)
        assert old_round.status_code == 200
        hold = cache.hold = Hold()

        saved = post(desk, event_id, "/rounds/1/tables/3", {"kind": "forfeit-A", "version": 0})
        assert saved.status_code == 303, saved.text
        hold.wait()
        assert f"/public/{event_id}/results|" in hold.keys[0]  # held; the standings queued

        # the phone: both pages as they were, while their new ones render
        for url, old in ((standings, old_standings), (results, old_results)):
            kept = phone.get(url, headers={"If-None-Match": old.headers["etag"]})
            assert kept.status_code == 304 and kept.headers["etag"] == old.headers["etag"]
        # the desk: its own result, on its own pages and the public standings
        assert desk.get(desk_round).text != old_round.text
        desk_standings = desk.get(standings)
        assert desk_standings.text != old_standings.text
        assert cache.stale_served == 2  # the phone's two answers only
        hold.release()
        assert cache.settle()
        assert phone.get(standings).text == desk_standings.text
    assert desk_standings.text == fresh(db, standings)


def test_no_background_thread_outlives_the_app(ball_event):
    db, event_id = ball_event
    app = create_app(db)

    def rerender_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name.startswith(RERENDER_THREAD)]

    alive_before = set(rerender_threads())
    with TestClient(app) as client:
        client.get(f"/public/{event_id}/standings")
        svc = service_for(app)
        svc.results.enter_result(1, 3, forfeit="A", event=event_id)
        cache: PageCache = app.state.page_cache
        assert cache.settle() and cache.passes == 1
        assert set(rerender_threads()) - alive_before  # the pass ran on the cache's thread
    assert not set(rerender_threads()) - alive_before  # the shutdown joined it
    passes = cache.passes
    svc.entrants.add_player("Galin", rating=1500, event=event_id)  # after the shutdown: no pass
    assert cache.passes == passes and not set(rerender_threads()) - alive_before


@pytest.mark.hypothesis
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS, looks=st.lists(st.booleans(), min_size=6, max_size=6))
def test_once_the_renders_settle_every_page_is_what_a_fresh_server_renders(
    tmp_path_factory, actions, looks
):
    """Writes of the server's process, each followed or not by a phone's look at every page
    (so that some pages render in the background and some wait for their reader): when no
    render is left, each page a phone gets is exactly what a fresh server renders."""
    where = tmp_path_factory.mktemp("settle")
    db = str(where / "settle.sqlite")
    event_id = build(db)
    pages = [f"/public/{event_id}/{p}" for p in ("standings", "results", "pairings")]
    app = create_app(db)
    with TestClient(app) as client:
        for page in pages:
            client.get(page)
        svc = service_for(app)
        for action, look in zip(actions, looks, strict=False):
            if action != "view":
                with contextlib.suppress(TournamentError):  # refused writes change nothing
                    WRITES[action][0](svc, event_id)
            if look:
                for page in pages:
                    assert client.get(page).status_code == 200
        assert app.state.page_cache.settle()
        seen = {page: client.get(page).text for page in pages}
    for page in pages:
        assert seen[page] == fresh(db, page), (actions, looks, page)
