"""A started server fills what the newest events' public pages share before its first
request (`ball.web.public.display.warm`, run by `page_cache.lifespan`; issue 15, target 2): a server
(re)started while a hall of phones watches must not rank the event on the first phones'
time. Each test checks the effect through the service the pages use (how often it ranks and
reads), and that the pages are exactly those of a server that did not warm up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ball.tournament.service import TournamentService
from ball.web.app import create_app
from ball.web.core.deps import service_for
from ball.web.public import display as public
from built_once import copy_of_built

NAMES = ["Ana", "Boris", "Chavdar", "Dora"]
PAGES = ("standings", "pairings", "results")


def _built(db: str, events: int) -> list[int]:
    """`events` Swiss events of four after round 1, table 2 without a result yet."""
    svc = TournamentService(db)
    made = []
    for n in range(events):
        event_id = svc.events.create_event(name=f"Warm Open {n}", system="swiss", rounds=3)["id"]
        for i, name in enumerate(NAMES):
            svc.entrants.add_player(name, rating=2000 - i, event=event_id)
        svc.rounds.pair_next_round(event=event_id)
        svc.results.enter_result(1, 1, forfeit="B", event=event_id)
        made.append(event_id)
    svc.engine.dispose()
    return made


def built(tmp_path, events: int = 1) -> tuple[str, list[int]]:
    db = str(tmp_path / "warm.sqlite")
    return db, copy_of_built(db, _built, events)


class Counted:
    """Counts the calls of some of an app's service's use cases, by event."""

    def __init__(self, app: FastAPI, names: tuple[str, ...]) -> None:
        self.calls: list[tuple[str, Any]] = []
        svc = service_for(app)
        for name in names:
            # the use-case object of the service that has this use case (`svc.ranking`, ...)
            owner = next(u for u in vars(svc).values() if callable(getattr(u, name, None)))
            setattr(owner, name, self._counting(name, getattr(owner, name)))

    def _counting(self, name: str, use_case: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, kwargs.get("event", args[0] if args else None)))
            return use_case(*args, **kwargs)

        return counted

    def of(self, name: str) -> list[Any]:
        return [event for called, event in self.calls if called == name]


def pages(client: TestClient, event_id: int) -> dict[str, str]:
    return {page: client.get(f"/public/{event_id}/{page}").text for page in PAGES}


def unwarmed(db: str) -> FastAPI:
    app = create_app(db)
    app.state.warm_up = None
    return app


@pytest.fixture
def started() -> Iterator[Callable[[FastAPI], TestClient]]:
    clients: list[TestClient] = []

    def start(app: FastAPI) -> TestClient:
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.__exit__(None, None, None)


def test_the_first_views_after_the_start_use_what_the_start_computed(tmp_path, started):
    db, (event_id,) = built(tmp_path)
    app = create_app(db)
    counted = Counted(app, ("standings", "event_page", "event_head"))
    client = started(app)
    # the start ranked and read the event once each, before any request
    assert counted.calls == [
        ("event_head", event_id),
        ("event_page", event_id),
        ("standings", event_id),
    ]
    shown = pages(client, event_id)
    assert counted.of("standings") == [event_id]  # not ranked again for the page
    assert len(counted.calls) == 3
    # exactly what a server that did not warm up shows
    cold = unwarmed(db)
    cold_counted = Counted(cold, ("standings",))
    assert pages(started(cold), event_id) == shown
    assert cold_counted.of("standings") == [event_id]  # that one ranked on the reader's time
    assert "Ana" in shown["standings"] and "Dora" in shown["pairings"]


def test_a_write_after_the_start_shows_on_the_first_view(tmp_path, started):
    db, (event_id,) = built(tmp_path)
    app = create_app(db)
    counted = Counted(app, ("standings",))
    client = started(app)
    before = unwarmed(db)
    old = pages(started(before), event_id)
    # another process (the CLI) enters table 2's result after the server started
    TournamentService(db).results.enter_result(1, 2, forfeit="A", event=event_id)
    shown = pages(client, event_id)
    assert shown["standings"] != old["standings"]  # the write changes the page...
    assert shown == pages(started(unwarmed(db)), event_id)  # ...and the view shows it
    assert counted.of("standings") == [event_id, event_id]  # ranked anew for the new token


def test_only_the_newest_events_are_warmed(tmp_path, started, monkeypatch):
    db, made = built(tmp_path, events=3)
    monkeypatch.setattr(public, "WARM_EVENTS", 2)
    app = create_app(db)
    counted = Counted(app, ("standings",))
    started(app)
    assert counted.of("standings") == sorted(made, reverse=True)[:2]


def test_an_empty_database_starts_without_reading_any_event(started):
    app = create_app(None)
    counted = Counted(app, ("standings", "event_page", "event_head"))
    client = started(app)
    assert counted.calls == []
    assert client.get("/public").status_code == 200


def test_a_failing_warm_up_is_logged_and_the_server_still_serves(tmp_path, started, caplog):
    db, (event_id,) = built(tmp_path)
    app = create_app(db)

    def broken(_app: FastAPI) -> None:
        raise RuntimeError("disk unplugged")

    app.state.warm_up = broken
    with caplog.at_level(logging.ERROR, logger="ball.web.page_cache"):
        client = started(app)
    assert "warming the public pages' shared data failed" in caplog.text
    assert "disk unplugged" in caplog.text
    assert pages(client, event_id) == pages(started(unwarmed(db)), event_id)
