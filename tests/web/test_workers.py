"""Issue 34: each worker's app comes from the environment `ball serve --workers N` sets
(`ball.web.workers.app_from_env`, also any ASGI server's `--factory`); SQLite refuses more
than one process. The processes themselves: tests/storage/test_postgres_workers.py."""

from __future__ import annotations

import json
import warnings

import pytest

from ball.web.workers import app_from_env, refusal

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient


def test_refusal_names_the_one_thing_wrong():
    assert refusal("postgresql+psycopg://u@/db", 4) is None
    assert refusal("sqlite:///x.sqlite", 1) is None
    why = refusal("sqlite:///x.sqlite", 2)
    assert why is not None and why.startswith("--workers 2 needs PostgreSQL")
    assert refusal("postgresql+psycopg://u@/db", 0) == "--workers 0: give at least 1"


def test_a_worker_refuses_sqlite_when_it_is_one_of_several(tmp_path, monkeypatch):
    monkeypatch.setenv("BALL_DB", str(tmp_path / "w.sqlite"))
    monkeypatch.setenv("BALL_WORKERS", "2")
    with pytest.raises(SystemExit, match="needs PostgreSQL"):
        app_from_env()
    assert not (tmp_path / "w.sqlite").exists()


def test_a_worker_builds_the_app_the_command_described(tmp_path, monkeypatch):
    monkeypatch.setenv("BALL_DB", str(tmp_path / "w.sqlite"))
    monkeypatch.setenv("BALL_WORKERS", "1")
    monkeypatch.setenv("BALL_SERVE_HOSTS", json.dumps(["ball.example"]))
    monkeypatch.setenv("BALL_REQUEST_BURST", "77")
    app = app_from_env()
    assert app.state.limits.request_burst == 77 and app.state.limits.workers == 1
    with TestClient(app, base_url="http://ball.example") as client:
        assert client.get("/public").status_code == 200
    with TestClient(app) as client:  # "testserver" is not among the names given
        assert client.get("/public").status_code == 400
