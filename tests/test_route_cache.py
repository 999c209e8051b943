"""The suite's shared FastAPI route analysis (tests/conftest.py, docs/testing.md): each route's
dependant and response field are built once per session, yet every app still answers with its
own dependency overrides and its own responses, and a FastAPI without the internals falls back
to building routes per app."""

from __future__ import annotations

import types

from fastapi import APIRouter, Depends, FastAPI, routing
from fastapi.testclient import TestClient
from pydantic import BaseModel

from ball.web.app import create_app
from conftest import (
    DEPENDANT_BUILDER,
    MODEL_FIELD_BUILDER,
    shared_dependant_builds,
    shared_model_fields,
)


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


class _Score(BaseModel):
    points: int


def _counting_fields() -> tuple[types.SimpleNamespace, list[str]]:
    """A stand-in for fastapi.routing whose `create_model_field` is the real one, counting."""
    real = getattr(routing, MODEL_FIELD_BUILDER)
    real = getattr(real, "original", real)
    calls: list[str] = []

    def create_model_field(name, type_, default=None, field_info=None, alias=None,
                           mode="validation"):
        calls.append(name)
        return real(name=name, type_=type_, mode=mode) if default is None and \
            field_info is None and alias is None else \
            real(name, type_, default, field_info, alias, mode)

    return types.SimpleNamespace(**{MODEL_FIELD_BUILDER: create_model_field}), calls


def test_a_response_model_shared_by_two_apps_is_built_once(monkeypatch):
    module, calls = _counting_fields()
    monkeypatch.setattr(routing, MODEL_FIELD_BUILDER, shared_model_fields(module))
    router = APIRouter()

    @router.get("/score")
    def score(points: int) -> _Score:
        return _Score(points=points)

    first, second = FastAPI(), FastAPI()
    first.include_router(router)
    second.include_router(router)
    for app, points in ((first, 3), (second, 5)):
        assert TestClient(app).get("/score", params={"points": points}).json() == {
            "points": points}
    # The router's own route, then each app's effective route: one field for all three.
    assert calls == ["Response_score_score_get"]


def test_response_fields_of_other_names_types_or_arguments_are_built_apart():
    module, calls = _counting_fields()
    cached = shared_model_fields(module)
    assert cached is not None
    one = cached(name="a", type_=_Score, mode="serialization")
    assert cached(name="a", type_=_Score, mode="serialization") is one
    assert cached(name="a", type_=_Score, mode="validation") is not one
    assert cached(name="b", type_=_Score, mode="serialization") is not one
    assert cached(name="a", type_=int, mode="serialization") is not one
    cached("a", _Score)  # positional arguments: passed through, never kept
    cached(name="a", type_=_Score, alias="z")
    assert calls == ["a", "a", "b", "a", "a", "a"]


def test_a_fastapi_without_create_model_field_builds_fields_as_in_production():
    assert shared_model_fields(types.SimpleNamespace()) is None

    def reshaped(name, type_, mode):  # fewer parameters: not ours to wrap
        raise AssertionError("never called")

    assert shared_model_fields(types.SimpleNamespace(**{MODEL_FIELD_BUILDER: reshaped})) is None
