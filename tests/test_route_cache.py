"""The suite's shared FastAPI route analysis (tests/conftest.py, docs/testing.md): each route's
dependant is built once per session, yet every app still answers with its own dependency
overrides, and a FastAPI without the internal falls back to building routes per app."""

from __future__ import annotations

import types

from fastapi import APIRouter, Depends, FastAPI, routing
from fastapi.testclient import TestClient

from ball.web.app import create_app
from conftest import DEPENDANT_BUILDER, shared_dependant_builds


def _greeting() -> str:
    return "real"


def _router() -> APIRouter:
    router = APIRouter()

    @router.get("/hello")
    def hello(word: str, greeting: str = Depends(_greeting)) -> dict[str, str]:
        return {"greeting": greeting, "word": word}

    return router


def _counting_module() -> tuple[types.SimpleNamespace, list[str]]:
    """A stand-in for fastapi.routing whose builder is the real one, counting its calls."""
    real = getattr(routing, DEPENDANT_BUILDER)
    real = getattr(real, "original", real)  # under the suite's own cache: the real builder
    calls: list[str] = []

    def build(*, path, call, dependencies):
        calls.append(path)
        return real(path=path, call=call, dependencies=dependencies)

    return types.SimpleNamespace(**{DEPENDANT_BUILDER: build}), calls


def test_a_route_shared_by_two_apps_is_analysed_once(monkeypatch):
    module, calls = _counting_module()
    cached = shared_dependant_builds(module)
    assert cached is not None
    monkeypatch.setattr(routing, DEPENDANT_BUILDER, cached)
    router = _router()
    first, second = FastAPI(), FastAPI()
    first.include_router(router)
    second.include_router(router)
    for app in (first, second):
        answer = TestClient(app).get("/hello", params={"word": "ball"})
        assert answer.json() == {"greeting": "real", "word": "ball"}
    # The router's own route, then each app's effective route: one build for all three.
    assert calls == ["/hello"]


def test_each_app_keeps_its_own_dependency_overrides(monkeypatch):
    module, calls = _counting_module()
    monkeypatch.setattr(routing, DEPENDANT_BUILDER, shared_dependant_builds(module))
    router = _router()
    overridden, plain = FastAPI(), FastAPI()
    overridden.include_router(router)
    plain.include_router(router)
    overridden.dependency_overrides[_greeting] = lambda: "override"
    assert TestClient(overridden).get("/hello?word=a").json()["greeting"] == "override"
    assert TestClient(plain).get("/hello?word=a").json()["greeting"] == "real"
    # A shared analysis still validates each app's requests: a missing parameter is refused.
    assert TestClient(plain).get("/hello").status_code == 422
    assert calls == ["/hello"]


def test_different_dependencies_are_analysed_apart():
    module, calls = _counting_module()
    cached = shared_dependant_builds(module)
    assert cached is not None

    def endpoint() -> None:
        return None

    cached(path="/x", call=endpoint, dependencies=[])
    cached(path="/x", call=endpoint, dependencies=[Depends(_greeting)])
    cached(path="/y", call=endpoint, dependencies=[])
    cached(path="/x", call=endpoint, dependencies=[])
    assert calls == ["/x", "/x", "/y"]


def test_a_fastapi_without_the_internal_builds_routes_as_in_production():
    assert shared_dependant_builds(types.SimpleNamespace()) is None

    def reshaped(path, call, dependencies, scope):  # positional and one more: not ours to wrap
        raise AssertionError("never called")

    assert shared_dependant_builds(types.SimpleNamespace(**{DEPENDANT_BUILDER: reshaped})) is None


def test_the_toolbox_apps_answer_alike_with_the_shared_analysis(tmp_path):
    # Two fresh toolbox apps on their own databases: the second reuses the first's routes.
    for name in ("one", "two"):
        client = TestClient(create_app(str(tmp_path / f"{name}.sqlite")))
        assert client.get("/").status_code == 200
        assert client.get("/api/xiangqi/nothing-here").status_code == 404
