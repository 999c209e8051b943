"""One id type (`ball.storage.ids`): a number beyond `MAX_ID` names nothing, so every route
that takes an id answers "no such X" (404), or an empty list for a filter, never a 500 from
a driver overflow (SQLite binds at most 2**63-1) and never a different answer per database."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.storage.ids import MAX_ID
from ball.web.app import create_app

FAR = [0, MAX_ID + 1, 2**63 - 1, 2**63, 2**64 + 5]

NOT_FOUND = [
    "/desk/{id}",
    "/desk/{id}/login",
    "/desk/{id}/sanctions",
    "/desk/{id}/rounds/1",
    "/public/{id}/standings",
    "/public/{id}/pairings",
    "/public/{id}/results",
    "/public/{id}/groups",
    "/clock/api/clocks/{id}",
    "/clock/api/clocks/{id}/history",
    "/clock/{id}",
]


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    app = create_app(str(tmp_path_factory.mktemp("ids") / "ids.sqlite"), demo=True)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("template", NOT_FOUND)
@pytest.mark.parametrize("far", FAR)
def test_an_id_out_of_range_is_not_found(api, template, far):
    response = api.get(template.format(id=far), follow_redirects=False)
    assert response.status_code == 404, (response.status_code, response.text[:200])


@pytest.mark.parametrize("far", FAR)
def test_a_clock_filter_on_an_event_out_of_range_lists_nothing(api, far):
    response = api.get("/clock/api/clocks", params={"event": far})
    assert response.status_code == 200, response.text
    assert response.json() == []


def test_the_connection_survives_a_far_event_filter(api):
    """The keep-alive connection of the same client keeps working afterwards."""
    assert api.get("/clock/api/clocks?event=9223372036854775808").status_code == 200
    assert api.get("/clock/api/clocks", params={"round": "demo"}).json() != []
