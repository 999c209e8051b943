"""`ball serve --ray ADDRESS` (issue 34): the computer's searches run as tasks on a Ray
cluster (a local head started by the fixture of tests/sim/test_ray_backend.py, reached by
address as a cluster is), with the same replies as the server's own search processes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ball.cli import app as cli
from ball.games.ball.ai import turn
from ball.games.ball.engine import Game
from ball.play import search_work, searches
from ball.web.app import create_app
from sim.test_ray_backend import ray_address  # noqa: F401 - the module's Ray head

pytestmark = [pytest.mark.slow, pytest.mark.process]


def test_the_computer_searches_on_ray_with_the_same_reply(ray_address, tmp_path, monkeypatch):  # noqa: F811
    ray = pytest.importorskip("ray")
    monkeypatch.setenv(search_work.RAY_ENV, ray_address)

    def not_here(*args, **kwargs):
        raise AssertionError("searched in the server's own pool, not on Ray")

    monkeypatch.setattr(searches.pool, "run", not_here)
    monkeypatch.setattr(searches.pool, "check", lambda client: None)
    client = TestClient(create_app(str(tmp_path / "ray.sqlite")))
    body = {"mode": "computer", "computer_side": "N", "computer_level": "greedy"}
    try:
        state = client.post("/api/games", json=body)
        assert state.status_code == 201, state.text
    finally:
        ray.shutdown()
    expected = turn.ball_turn(Game.new().to_json(), "greedy", 0, "N")
    assert [e["action"] for e in state.json()["log"]] == expected


def test_serve_refuses_a_ray_address_it_cannot_use():
    result = CliRunner().invoke(cli, ["serve", "--db", "x.sqlite", "--ray", " "])
    assert result.exit_code == 2 and "--ray" in result.output
