"""One id limit on every database: an event, round or entrant number beyond PostgreSQL's
INTEGER is "not found" (404), as on SQLite, not PostgreSQL's "integer out of range" (400)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ball.storage.ids import MAX_ID
from ball.web.app import create_app

FAR = MAX_ID + 1  # one past PostgreSQL's INTEGER, well inside SQLite's


@pytest.mark.parametrize(
    "path",
    [
        f"/desk/{FAR}",
        f"/desk/{FAR}/login",
        f"/public/{FAR}/standings",
        f"/public/{FAR}/results",
        f"/clock/api/clocks/{FAR}",
    ],
)
def test_far_ids_are_not_found_on_postgres(fresh_postgres_url, path):
    api = TestClient(create_app(fresh_postgres_url), raise_server_exceptions=False)
    response = api.get(path, follow_redirects=False)
    assert response.status_code == 404, response.text


def test_far_event_filter_lists_no_clock_on_postgres(fresh_postgres_url):
    api = TestClient(create_app(fresh_postgres_url), raise_server_exceptions=False)
    response = api.get("/clock/api/clocks", params={"event": FAR})
    assert response.status_code == 200 and response.json() == []
