"""Issue 15: the apply route dispatched before FastAPI's routing (`ball.web.apply_route`)
answers exactly as the FastAPI route does.

The oracle is the same app without the direct route: two apps on two fresh databases play
the same actions, and every answer (status, headers, body, with the random game id made
equal) must be the same, for plain requests (answered directly) and for every other
kind (handed on to FastAPI, whose validation errors must stay word for word). The OpenAPI
document is the same with and without the route.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.datastructures import QueryParams

from ball.web import apply_route
from ball.web.app import create_app
from ball.web.apply_route import ApplyRoute, game_id_of, plain_since


def without_direct_route(app):
    app.router.routes[:] = [r for r in app.router.routes if not isinstance(r, ApplyRoute)]
    return app


@pytest.fixture
def pair(tmp_path: Path):
    """(direct, oracle): the app as shipped and the same app without the direct route."""
    direct = TestClient(create_app(str(tmp_path / "direct.sqlite")))
    oracle = TestClient(without_direct_route(create_app(str(tmp_path / "oracle.sqlite"))))
    assert isinstance(direct.app.router.routes[0], ApplyRoute)
    assert not any(isinstance(r, ApplyRoute) for r in oracle.app.router.routes)
    return direct, oracle


@pytest.fixture
def hand_ons(monkeypatch):
    """How many requests the direct route handed on to FastAPI."""
    count = []
    original = ApplyRoute._hand_on

    async def counted(self, *args):
        count.append(1)
        await original(self, *args)

    monkeypatch.setattr(ApplyRoute, "_hand_on", counted)
    return count


def answer(response, game_id: str) -> tuple[int, list[tuple[str, str]], str]:
    """A response with the game's random id written as GAME (the two apps' ids differ)."""
    headers = [(k, v.replace(game_id, "GAME")) for k, v in response.headers.multi_items()]
    body = response.text.replace(game_id, "GAME")
    if "content-length" in dict(headers):  # the id's length is the same, so is the length
        assert int(dict(headers)["content-length"]) == len(response.content)
    return response.status_code, headers, body


def both(pair, games, method, path, **kw):
    """The same request to both apps (`{id}` in `path` is each app's own game)."""
    out = []
    for client, gid in zip(pair, games, strict=True):
        r = client.request(method, path.replace("{id}", gid), **kw)
        out.append(answer(r, gid))
    return out


def new_games(pair) -> list[str]:
    return [c.post("/api/games", json={"mode": "free"}).json()["id"] for c in pair]


def test_plain_actions_answer_as_the_fastapi_route(pair, hand_ons):
    """40 plies of one game with and without `since`, in three languages, by query, cookie
    and Accept-Language: the same answers, none handed on."""
    games = new_games(pair)
    rng = random.Random(5)
    state = pair[0].get(f"/api/games/{games[0]}").json()
    for ply in range(40):
        if state["over"]:
            break
        action = rng.choice([a for a in state["legal"] if a != "end"] or state["legal"])
        query = ["", f"?since={ply}", "?lang=ko&since=0", f"?since={ply + 9}&lang=bg"][ply % 4]
        headers = {"accept-language": "bg"} if ply % 5 == 0 else {}
        mine, theirs = both(
            pair,
            games,
            "POST",
            "/api/games/{id}/actions" + query,
            json={"action": action, "version": ply},
            headers=headers,
        )
        assert mine == theirs
        assert mine[0] == 200, mine[2]
        state = json.loads(mine[2])
    for client in pair:
        client.cookies.set("ball_lang", "ko")
    mine, theirs = both(pair, games, "POST", "/api/games/{id}/actions", json={"action": "end"})
    assert mine == theirs
    assert hand_ons == []


def test_refusals_of_the_service_are_the_same(pair, hand_ons):
    """Illegal action, stale version, unknown game: the service's 4xx, answered directly."""
    games = new_games(pair)
    for body in ({"action": "A1-A2"}, {"action": "end", "version": 7}, {"action": "  "}):
        mine, theirs = both(pair, games, "POST", "/api/games/{id}/actions", json=body)
        assert mine == theirs and mine[0] in (400, 409), mine
    mine, theirs = both(
        pair, ["nope", "nope"], "POST", "/api/games/nope/actions", json={"action": "end"}
    )
    assert mine == theirs and mine[0] == 404
    assert hand_ons == []


ODD = [
    # (query, headers, content): FastAPI's own answers, handed on
    ("", {"content-type": "text/plain"}, b'{"action": "end"}'),
    ("", {"content-type": "application/json; charset=utf-8"}, b'{"action": "end"}'),
    ("", {"content-type": "application/vnd.ball+json"}, b'{"action": "end"}'),
    ("", {}, b'{"action": "end"}'),
    ("", {"content-type": "application/json"}, b""),
    ("", {"content-type": "application/json"}, b'{"action": '),
    ("", {"content-type": "application/json"}, b'["end"]'),
    ("", {"content-type": "application/json"}, b'{"action": ""}'),
    ("", {"content-type": "application/json"}, b'{"action": "' + b"x" * 201 + b'"}'),
    ("", {"content-type": "application/json"}, b'{"action": "end", "version": "x"}'),
    ("", {"content-type": "application/json"}, b'{"action": 5}'),
    ("", {"content-type": "application/json"}, b'{"version": 1}'),
    ("", {"content-type": "application/json"}, b"\xff\xfe"),
    ("?since=-1", {"content-type": "application/json"}, b'{"action": "end"}'),
    ("?since=abc", {"content-type": "application/json"}, b'{"action": "end"}'),
    ("?since=", {"content-type": "application/json"}, b'{"action": "end"}'),
    ("?since=1&since=2", {"content-type": "application/json"}, b'{"action": "end"}'),
    ("?since=+3", {"content-type": "application/json"}, b'{"action": "end"}'),
    ("?%73ince=x", {"content-type": "application/json"}, b'{"action": "end"}'),
    ("?since=1" + "0" * 20, {"content-type": "application/json"}, b'{"action": "end"}'),
]


@pytest.mark.parametrize(("query", "headers", "content"), ODD)
def test_every_other_request_is_fastapis_answer(pair, hand_ons, query, headers, content):
    games = new_games(pair)
    path = "/api/games/{id}/actions" + query
    mine, theirs = both(pair, games, "POST", path, content=content, headers=headers)
    assert mine == theirs
    assert hand_ons == [1]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/{id}/actions"),
        ("PUT", "/api/games/{id}/actions"),
        ("POST", "/api/games/{id}/actions/"),
        ("POST", "/api/games//actions"),
        ("POST", "/api/games/{id}/x/actions"),
    ],
)
def test_other_paths_and_methods_are_not_matched(pair, hand_ons, method, path):
    games = new_games(pair)
    mine, theirs = both(pair, games, method, path, json={"action": "end"})
    assert mine == theirs
    assert hand_ons == []  # never matched, so never handed on


def test_a_body_in_chunks_is_read_whole(pair):
    """A body that arrives in several messages is joined as Starlette joins it."""
    games = new_games(pair)

    def chunks():
        yield b'{"act'
        yield b'ion": "end", "ver'
        yield b'sion": 0}'

    out = []
    for client, gid in zip(pair, games, strict=True):
        r = client.post(
            f"/api/games/{gid}/actions",
            content=chunks(),
            headers={"content-type": "application/json"},
        )
        out.append(answer(r, gid))
    assert out[0] == out[1] and out[0][0] == 200


def test_the_openapi_document_is_the_same(tmp_path: Path):
    shipped = create_app(str(tmp_path / "a.sqlite")).openapi()
    oracle = without_direct_route(create_app(str(tmp_path / "b.sqlite"))).openapi()
    assert json.dumps(shipped, sort_keys=True) == json.dumps(oracle, sort_keys=True)
    assert "/api/games/{game_id}/actions" in shipped["paths"]


@pytest.mark.hypothesis
@given(st.text(alphabet="/ab%.-_~é", max_size=12))
def test_game_id_is_what_starlettes_path_pattern_matches(middle):
    path = "/api/games/" + middle + "/actions"
    starlette = re.fullmatch(r"/api/games/(?P<game_id>[^/]+)/actions", path)
    assert game_id_of(path) == (starlette["game_id"] if starlette else None)


@pytest.mark.hypothesis
@given(
    st.lists(
        st.sampled_from(
            [
                "since=",
                "since=3",
                "since=007",
                "since=-2",
                "x=1",
                "since=a",
                "%73ince=4",
                "since=4%30",
                "lang=ko",
                "since=+1",
                "since= 2",
                "since=99999999999999999999",
                "",
            ]
        ),
        max_size=4,
    )
)
def test_a_plain_since_is_the_value_fastapi_reads(parts):
    query = "&".join(parts).encode()
    plain, since = plain_since(query)
    values = QueryParams(query).getlist("since")
    if not values:
        assert (plain, since) == (True, None)
    elif plain:
        assert len(values) == 1 and since == int(values[0]) and since >= 0
    else:
        assert since is None


@pytest.mark.hypothesis
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    query=st.sampled_from(["", "?since=0", "?since=2", "?since=x", "?lang=ko", "?since=1&since=1"]),
    ctype=st.sampled_from(["application/json", "Application/JSON", "text/json", None]),
    action=st.sampled_from(["end", "E1-E2", "", 3, None, "x" * 201]),
    version=st.sampled_from([None, 0, 1, "0", "v", 2.0]),
)
def test_any_mix_answers_as_the_fastapi_route(pair, query, ctype, action, version):
    games = new_games(pair)
    body = {"action": action} if action is not None else {}
    if version is not None:
        body["version"] = version
    headers = {"content-type": ctype} if ctype else {}
    path = "/api/games/{id}/actions" + query
    mine, theirs = both(pair, games, "POST", path, content=json.dumps(body), headers=headers)
    assert mine == theirs


def test_the_route_is_first_in_the_app():
    app = create_app()
    assert isinstance(app.router.routes[0], ApplyRoute)
    assert repr(app.router.routes[0]) == (
        f"ApplyRoute(path={apply_route.PATH_FORMAT!r}, methods=['POST'])"
    )


def test_urls_are_still_found_by_route_name():
    """The direct route has no name: the app's reverse look-up passes over it."""
    app = create_app()
    assert app.url_path_for("apply_action", game_id="g1") == "/api/games/g1/actions"
    assert app.url_path_for("get_game", game_id="g1") == "/api/games/g1"
