"""Fixtures of the web tests: an app on a fresh database, a live server, a browser page."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORTS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "web.sqlite")


@pytest.fixture
def client(db_path: str) -> TestClient:
    return TestClient(create_app(db_path))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server(db_path: str):
    """The app under uvicorn on a free loopback port; yields its base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(create_app(db_path), host="127.0.0.1", port=port, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("Debian's chromium is not installed (bash scripts/setup.sh installs it)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        yield b
        b.close()


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
