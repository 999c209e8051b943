"""Fixtures of the web tests: an app on a fresh database, a live server, a browser page."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "web.sqlite")


@pytest.fixture
def client(db_path: str) -> TestClient:
    return TestClient(create_app(db_path))


@pytest.fixture
def live_server(db_path: str, serve):
    """The app under uvicorn on a free loopback port; yields its base URL."""
    return serve(create_app(db_path))


@pytest.fixture(params=list(VIEWPORTS))
def page(request, browser):
    context = browser.new_context(viewport=VIEWPORTS[request.param], locale="en-GB")
    pg = context.new_page()
    pg.viewport_name = request.param
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.js_errors = errors
    yield pg
    context.close()


def shoot(page, name: str) -> Path:
    """Save a full-page screenshot under test-artifacts/web/ (named by viewport)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{page.viewport_name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
