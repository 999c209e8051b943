"""The public display's page cache and ETags (issue 15, target 2).

A page is kept per event, page, query and language under the event's revision token
(`ball.tournament.revisions`), which every write renews in its own transaction. Each
write below goes through a *second* service on the same file, as the CLI in another
process would: the server's cache can only learn of it from the database. Each test first
checks that the write changes the page (so it can fail), then that the server's next view
is exactly what a fresh server renders, and carries a new ETag.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ball.tournament.errors import TournamentError
from ball.tournament.models import Event
from ball.tournament.service import TournamentService
from ball.web.app import create_app
from built_once import copy_of_built

NAMES = ["Ana", "Boris", "Chavdar", "Dora", "Emil", "Fani"]
XIANGQI_CHAIN = ["sanctions", "buchholz", "sonneborn-berger"]


def sheet(rng: random.Random) -> dict:
    """A legal score sheet (coach A ATK in the first half, PB on both coaches)."""
    halves = []
    for atk in ("A", "B"):
        a_atk, b_atk = rng.randint(0, 9), rng.randint(0, 9)
        halves.append(
            {
                "atk_first": atk,
                "td": None,
                "pb": {"A": {"atk": a_atk, "def": b_atk}, "B": {"atk": b_atk, "def": a_atk}},
            }
        )
    return {"coaches": ["A", "B"], "halves": halves, "forfeit": None}


def build(db: str, game: str = "ball") -> int:
    """A Swiss of six after round 1, table 3 still without a result. A Xiangqi event ranks
    the sanctioned last among equals (its chain starts with `sanctions`, 18.4), so a
    sanction shows on its standings. Built once per test process, copied per test."""
    return copy_of_built(db, _built, game)


def _built(db: str, game: str) -> int:
    svc = TournamentService(db)
    chain = XIANGQI_CHAIN if game == "xiangqi" else None
    created = svc.events.create_event(
        name=f"Cache Open {game}", system="swiss", rounds=3, game_name=game, tiebreaks=chain
    )
    event_id = created["id"]
    for i, name in enumerate(NAMES):
        svc.entrants.add_player(name, rating=2000 - i, event=event_id)
    svc.rounds.pair_next_round(event=event_id)
    svc.results.enter_result(1, 1, forfeit="B", event=event_id)
    if game == "ball":
        svc.results.enter_result(1, 2, sheet=sheet(random.Random(2)), event=event_id)
    else:
        svc.results.enter_result(1, 2, double_forfeit=True, event=event_id)
    svc.engine.dispose()
    return event_id


@pytest.fixture
def event(tmp_path) -> tuple[str, int]:
    db = str(tmp_path / "public.sqlite")
    return db, build(db)


def fresh(db: str, url: str, **kwargs: Any) -> str:
    """The page as a server that never saw it renders it."""
    with TestClient(create_app(db)) as client:
        return client.get(url, **kwargs).text


def edit_event_name(svc: TournamentService, event_id: int) -> None:
    # No use case edits an event yet; any that does writes its row as this does.
    with svc.store.sessions.begin() as s:
        s.scalars(select(Event).where(Event.id == event_id)).one().name = "Cache Open 2026"


# (write, the page that shows it): every kind of write issue 15 names, and the desk's.
WRITES: dict[str, tuple[Callable[[TournamentService, int], Any], str]] = {
    "result": (lambda svc, e: svc.results.enter_result(1, 3, forfeit="A", event=e), "results"),
    "correction": (
        lambda svc, e: svc.results.correct_result(1, 1, forfeit="A", reason="misread", event=e),
        "results",
    ),
    "pairing": (
        lambda svc, e: (svc.results.enter_result(
            1, 3, forfeit="A", event=e
        ), svc.rounds.pair_next_round(event=e)),
        "pairings",
    ),
    "swap": (
        lambda svc, e: svc.rounds.set_pairing(
            1, [("Ana", "Boris"), ("Chavdar", "Dora"), ("Emil", "Fani")], event=e
        ),
        "pairings",
    ),
    # No public page shows a withdrawal by itself (it shows in the pairing that follows):
    # the page's tag must still change, as the event did.
    "withdrawal": (lambda svc, e: svc.entrants.withdraw("Dora", event=e), "standings"),
    "late entry": (
        lambda svc, e: svc.entrants.add_player("Galin", rating=1500, event=e), "standings"
    ),
    "sanction": (
        lambda svc, e: svc.arbiter.give_sanction("warning", "late back", player="Ana", event=e),
        "standings",
    ),
    "signal": (lambda svc, e: svc.arbiter.give_signal(1, 1, event=e), "pairings"),
    "event edit": (edit_event_name, "standings"),
}


def event_for(db: str, kind: str) -> int:
    """The event a write of `kind` is made on (also used by test_public_render_after_write)."""
    if kind == "swap":  # the arbiter re-pairs a round only while it has no result
        build(db)
        TournamentService(db).events.create_event(name="Unplayed", system="swiss", rounds=3)
        return _unplayed(db, paired=True)
    return build(db, "xiangqi" if kind == "sanction" else "ball")


@pytest.mark.parametrize("kind", list(WRITES))
def test_every_kind_of_write_invalidates_the_cached_page(tmp_path, kind):
    write, page = WRITES[kind]
    db = str(tmp_path / "public.sqlite")
    event_id = event_for(db, kind)
    url = f"/public/{event_id}/{page}"
    with TestClient(create_app(db)) as client:
        before = client.get(url)
        assert before.status_code == 200
        cache = client.app.state.page_cache
        renders = cache.renders
        assert client.get(url).text == before.text  # a second view: from the cache
        assert cache.renders == renders

        other = TournamentService(db)  # another writer on the file (the CLI's way)
        write(other, event_id)
        other.engine.dispose()

        after = client.get(url)
        assert after.status_code == 200
        if kind != "withdrawal":
            assert after.text != before.text, f"the {kind} does not show on the {page} page"
        assert after.text == fresh(db, url)
        assert after.headers["etag"] != before.headers["etag"]
        assert cache.renders == renders + 1


def _unplayed(db: str, *, paired: bool) -> int:
    """The second event's entrants; its round 1 paired, without a result, if `paired`."""
    svc = TournamentService(db)
    event_id = 2
    for i, name in enumerate(NAMES):
        svc.entrants.add_player(name, rating=2000 - i, event=event_id)
    if paired:
        svc.rounds.pair_next_round(event=event_id)
    svc.engine.dispose()
    return event_id


def test_a_write_to_one_event_keeps_the_other_events_pages(event):
    db, event_id = event
    other_event = TournamentService(db).events.create_event(name="Other", system="swiss")["id"]
    with TestClient(create_app(db)) as client:
        url = f"/public/{event_id}/standings"
        etag = client.get(url).headers["etag"]
        TournamentService(db).entrants.add_player("Zora", event=other_event)
        again = client.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304


def test_304_with_the_right_etag_only(event):
    db, event_id = event
    url = f"/public/{event_id}/results"
    with TestClient(create_app(db)) as client:
        first = client.get(url)
        etag = first.headers["etag"]
        assert first.headers["cache-control"] == "no-cache"
        same = client.get(url, headers={"If-None-Match": etag})
        assert same.status_code == 304 and same.content == b""
        assert same.headers["etag"] == etag
        assert client.get(url, headers={"If-None-Match": f"W/{etag}"}).status_code == 304
        listed = client.get(url, headers={"If-None-Match": f'"nope", {etag}'})
        assert listed.status_code == 304
        wrong = client.get(url, headers={"If-None-Match": '"0123"'})
        assert wrong.status_code == 200 and wrong.text == first.text
        # another page of the same event has its own tag
        assert client.get(f"/public/{event_id}/pairings").headers["etag"] != etag
        TournamentService(db).results.enter_result(1, 3, forfeit="A", event=event_id)
        changed = client.get(url, headers={"If-None-Match": etag})
        assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_an_etag_from_another_server_run_is_not_trusted(event):
    db, event_id = event
    url = f"/public/{event_id}/standings"
    with TestClient(create_app(db)) as client:
        etag = client.get(url).headers["etag"]
    import ball.web.page_cache as page_cache

    old, page_cache.BOOT = page_cache.BOOT, "another-run"
    try:
        with TestClient(create_app(db)) as client:
            assert client.get(url, headers={"If-None-Match": etag}).status_code == 200
    finally:
        page_cache.BOOT = old


def test_each_language_is_its_own_entry(event):
    db, event_id = event
    url = f"/public/{event_id}/standings"
    with TestClient(create_app(db)) as client:
        en = client.get(url, headers={"Accept-Language": "en"})
        cache = client.app.state.page_cache
        bg = client.get(url, headers={"Accept-Language": "bg"})
        assert en.text != bg.text
        assert en.headers["etag"] != bg.headers["etag"]
        assert "Accept-Language" in en.headers["vary"]
        assert cache.renders == 2
        assert client.get(url, headers={"Accept-Language": "bg"}).text == bg.text
        assert client.get(url, headers={"Accept-Language": "en"}).text == en.text
        assert cache.renders == 2
        assert bg.text == fresh(db, url, headers={"Accept-Language": "bg"})
        # the English tag does not answer a Bulgarian view
        asked = client.get(
            url, headers={"Accept-Language": "bg", "If-None-Match": en.headers["etag"]}
        )
        assert asked.status_code == 200 and asked.text == bg.text


def test_queries_are_their_own_entries_and_errors_are_not_kept(event):
    db, event_id = event
    with TestClient(create_app(db)) as client:
        one = client.get(f"/public/{event_id}/pairings?refresh=0")
        cache = client.app.state.page_cache
        two = client.get(f"/public/{event_id}/pairings?refresh=60")
        assert one.text != two.text and len(cache) == 2
        missing = client.get(f"/public/{event_id}/pairings?round=9")
        assert missing.status_code == 404 and "etag" not in missing.headers
        assert client.get("/public/999/standings").status_code == 404
        assert client.get("/public/99999999999999999999/standings").status_code == 404
        assert len(cache) == 2


ACTIONS = st.lists(
    st.sampled_from(["result", "correction", "sanction", "late entry", "signal", "view"]),
    min_size=1,
    max_size=6,
)


@pytest.mark.hypothesis
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_a_cached_view_is_always_what_a_fresh_server_renders(tmp_path_factory, actions):
    db, event_id = _small_event(tmp_path_factory.mktemp("prop"))
    pages = [f"/public/{event_id}/{p}" for p in ("standings", "results", "pairings")]
    with TestClient(create_app(db)) as client:
        for page in pages:
            client.get(page)
        svc = TournamentService(db)
        for i, action in enumerate(actions):
            if action != "view":
                # refused writes (the same late entry twice) change nothing
                with contextlib.suppress(TournamentError):
                    WRITES[action][0](svc, event_id)
            for page in pages:
                assert client.get(page).text == fresh(db, page), (i, action, page)
        svc.engine.dispose()


def _small_event(where) -> tuple[str, int]:
    db = str(where / "prop.sqlite")
    return db, build(db)
