"""A toolbox app is freed once nothing refers to it, even after serving /docs: an endpoint
that closed over its app was kept by FastAPI's per-endpoint caches, so every app a test
worker built stayed alive to the end (a heap that every full garbage collection walked;
docs/testing.md). Production builds one app per process; the tests build hundreds."""

from __future__ import annotations

import weakref

from fastapi.testclient import TestClient

from ball.web.app import create_app
from freed import is_freed


def test_an_app_that_served_its_pages_is_freed(tmp_path):
    app = create_app(str(tmp_path / "freed.sqlite"))
    with TestClient(app) as client:
        assert client.get("/docs").status_code == 200
        assert client.get("/").status_code == 200
    gone = weakref.ref(app)
    del app, client
    assert is_freed(gone), "something still holds the app"
