"""The fourth game registered for a test (its one registry line), and the web app of an
event database in the test's folder, the CLI's `ball` run in this process on the same file."""

from __future__ import annotations

import warnings

import pytest
from typer.testing import CliRunner

from ball import games
from ball.cli import build_app
from ball.web.app import create_app

from .game import TicTacToe

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

T0 = 1_800_000_000.0


@pytest.fixture
def fourth_game():
    registered = games.register(TicTacToe())  # the one line that adds a game
    yield registered
    games.unregister(registered.name)


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "fourth.sqlite")


@pytest.fixture
def client(fourth_game, db):
    application = create_app(db)
    application.state.clock_time = lambda: T0
    with TestClient(application) as c:
        yield c


def ball(*args: str):
    """`ball ARGS` in this process, the app built from the registry as it is now (it holds
    the fourth game only while a test registered it)."""
    return CliRunner().invoke(build_app(), list(args))
