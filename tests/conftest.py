"""Fixtures shared by every test folder: Debian's Chromium and live app servers."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest

# Flags for Chromium in this sandbox: no sandboxing as root, no GPU, and none of the
# background connections that a closed network refuses.
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (one per test worker)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    if executable is None:
        message = "Debian's chromium is not installed (bash scripts/setup.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI runs the set-up: a missing browser is a broken install
        pytest.skip(message)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        yield b
        b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def serve() -> Iterator[Callable[..., str]]:
    """`serve(app)` runs an ASGI app under uvicorn on a free loopback port and returns its
    base URL; every server started is stopped when the test ends."""
    import uvicorn

    running: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(app, timeout: float = 30.0) -> str:
        port = _free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        running.append((server, thread))
        deadline = time.monotonic() + timeout
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)
