"""Garbage in every field of every desk form gets a 4xx (or a redirect), never a 5xx, and
the public pages survive odd query strings."""

from __future__ import annotations

import pytest

from .conftest import post

WEIRD = ["", "x", "-1", "0", "99999999999999999999", "1e5", "\x00", "A" * 5000, "<b>", "1.5"]
ROUTES = [
    "/entrants",
    "/entrants/import",
    "/entrants/1/withdraw",
    "/rounds",
    "/rounds/1/swap",
    "/rounds/1/signals/1",
    "/rounds/1/tables/1/half-end",
    "/rounds/1/tables/1/check",
    "/rounds/1/tables/1",
    "/sanctions",
    "/rounds/1/half-ends/from-clocks",
    "/login",
]
FIELDS = [
    "name",
    "system",
    "rounds",
    "pin",
    "pin2",
    "rating",
    "federation",
    "csv",
    "x",
    "y",
    "confirm",
    "at",
    "source",
    "kind",
    "version",
    "h1_A_atk",
    "h1_A_def",
    "h1_B_atk",
    "h1_B_def",
    "h1_td",
    "h2_td",
    "h1_steal0_by",
    "h1_steal0_choice",
    "sanction0_side",
    "sanction0_step",
    "sanction0_reason",
    "entrant",
    "step",
    "reason",
    "round",
    "table",
    "next",
]


@pytest.mark.parametrize("route", ROUTES)
def test_no_server_error_from_garbage(route, client, event4):
    event_id, _ = event4
    for value in WEIRD:
        response = post(client, event_id, route, {f: value for f in FIELDS})
        assert response.status_code < 500, (route, value[:20], response.text[:300])
    created = client.post("/desk/events", data={f: value for f in FIELDS}, follow_redirects=False)
    assert created.status_code < 500


@pytest.mark.parametrize(
    "path",
    [
        "/public/{e}/pairings?round=x",
        "/public/{e}/pairings?round=-1",
        "/public/{e}/standings?refresh=abc",
        "/public/{e}/results?refresh=-5",
        "/desk/{e}/rounds/0",
        "/desk/x",
        "/desk/99999999999999999999",
        "/public/99999999999999999999/standings",
        "/desk/{e}/rounds/99999999999999999999",
        "/desk/{e}/login?next=http://evil.example/",
    ],
)
def test_no_server_error_from_odd_urls(path, other_client, event4):
    event_id, _ = event4
    response = other_client.get(path.format(e=event_id), follow_redirects=False)
    assert response.status_code < 500
