"""Issue 30 item 15, the failures schemathesis found, each checked directly: a 405 lists every
method of the path in `Allow`; a path only another route's parameter swallows answers 405,
not 422; schema-valid values named in the document are accepted."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [("OPTIONS", "/api/games", "GET, POST"), ("DELETE", "/api/xiangqi/games", "GET, POST"),
     ("OPTIONS", "/clock/api/clocks", "GET, POST"), ("PUT", "/desk/1/login", "GET, POST"),
     ("GET", "/desk/events", "POST"), ("PATCH", "/api/games/abc/actions", "POST")],
)  # fmt: skip
def test_a_405_lists_every_method_of_the_path(client, method, path, allow):
    answer = client.request(method, path)
    assert answer.status_code == 405
    assert answer.headers["allow"] == allow
    assert answer.headers["content-type"] == "application/json"
    assert allow in answer.json()["detail"]


def test_a_bad_path_parameter_of_the_only_route_is_still_a_422(client):
    answer = client.get("/desk/x/login")
    assert answer.status_code == 422 and "event_id" in answer.json()["detail"]
    # a wider pattern (/api/games/{game_id}/{x} style) is no other resource: .../{table}/close
    # with a bad table is not a 405 of .../{table}/{what}
    answer = client.post("/desk/1/sessions/1/tables/x/close")
    assert answer.status_code in (401, 404, 422)
    assert client.get("/no/such/page").status_code == 404


def test_documented_values_are_accepted(client):
    game = client.post("/api/games", json={}).json()["id"]
    everything = client.get(f"/api/games/{game}/legal").json()["actions"]
    answer = client.get(f"/api/games/{game}/legal", params={"piece": ""})
    assert answer.status_code == 200 and answer.json()["actions"] == everything
    schema = client.get("/openapi.json").json()
    params = {p["name"]: p["schema"] for p in schema["paths"]["/print/forms"]["get"]["parameters"]}
    assert params["lang"]["enum"] == ["en", "ko", "bg"]
    assert params["paper"]["enum"] == ["a4", "letter"]
    for lang in params["lang"]["enum"]:
        assert client.get("/print/regulation", params={"lang": lang}).status_code == 200
    assert client.get("/print/forms", params={"lang": "xx"}).status_code == 400  # not listed
    xiangqi = schema["paths"]["/api/xiangqi/games/{game_id}"]["get"]["parameters"]
    assert {p["name"]: p["schema"] for p in xiangqi}["notation"]["enum"] == [
        "iccs", "wxf", "chinese"]  # fmt: skip
