"""Printed forms read the event through the web app's own engine (issue 11, item 2).

Opening the server's live SQLite file a second time and closing it dropped the process's
POSIX locks, and the next process to open the file deleted the live WAL. The print pages now
use `app.state.sessions`: an app on an in-memory database (which no second connection can
ever see) prints its round, and a print request creates no engine of its own.
"""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.web.app import create_app
from ball.web.core.deps import service_for


def _paired_event(app) -> int:
    svc = service_for(app)
    event_id = svc.events.create_event(name="Memory Cup", system="round-robin")["id"]
    for name in ("Ann", "Bo"):
        svc.entrants.add_player(name, event=event_id)
    svc.rounds.pair_next_round(event=event_id)
    return event_id


def test_the_forms_of_a_round_come_from_the_apps_own_database():
    app = create_app()  # in memory: only the app's own engine can see this event
    _paired_event(app)
    with TestClient(app) as client:
        page = client.get("/print/forms", params={"round": 1})
    assert page.status_code == 200, page.text[:300]
    assert "Memory Cup" in page.text and "Ann" in page.text and "Bo" in page.text


def test_a_print_request_opens_no_second_engine(tmp_path, monkeypatch):
    app = create_app(str(tmp_path / "live.sqlite"))
    event_id = _paired_event(app)
    opened: list[str] = []
    import sqlalchemy

    real = sqlalchemy.create_engine

    def spy(url, *args, **kwargs):
        opened.append(str(url))
        return real(url, *args, **kwargs)

    for module in ("sqlalchemy", "ball.storage"):
        monkeypatch.setattr(f"{module}.create_engine", spy)
    with TestClient(app) as client:
        for params in ({"round": 1}, {"round": 1, "event": str(event_id)}, {"round": 9}):
            assert client.get("/print/forms", params=params).status_code in (200, 404)
    assert opened == []


@pytest.mark.parametrize("path", ["/print/forms", "/print/forms.pdf"])
def test_a_server_without_sessions_says_so(path):
    from fastapi import FastAPI

    from ball.web.print.pages import router

    web = FastAPI()
    web.include_router(router)
    response = TestClient(web).get(path, params={"round": 1})
    assert response.status_code == 404 and "no event database" in response.json()["detail"]
