"""`ball serve --host` prints the players' URL; the demo event; public pages' edge cases."""

from __future__ import annotations

import uvicorn
from typer.testing import CliRunner

from ball.cli import app as cli_app
from ball.web.core.headers import lan_urls

from .conftest import create_event


def test_lan_urls():
    assert lan_urls("127.0.0.1", 8000) == []
    assert lan_urls("192.168.1.5", 8123) == ["http://192.168.1.5:8123/public"]
    for url in lan_urls("0.0.0.0", 8123):
        assert url.startswith("http://") and url.endswith(":8123/public")
        assert "//127." not in url


def test_serve_prints_the_players_url_only_beyond_loopback(tmp_path, monkeypatch):
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # no socket is opened
    runner = CliRunner()
    db = str(tmp_path / "t.sqlite")
    wide = runner.invoke(cli_app, ["serve", "--db", db, "--host", "10.1.2.3", "--port", "8765"])
    assert wide.exit_code == 0, wide.output
    assert "Players and spectators: http://10.1.2.3:8765/public" in wide.output
    local = runner.invoke(cli_app, ["serve", "--db", db, "--port", "8765"])
    assert local.exit_code == 0 and "Players and spectators" not in local.output


def test_demo_event_is_seeded_once_and_opens_with_its_pin(tmp_path):
    import warnings

    from ball.web.app import create_app
    from ball.web.desk.demo import DEMO_EVENT, DEMO_PIN

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    db = str(tmp_path / "demo.sqlite")
    create_app(db, demo=True)
    app = create_app(db, demo=True)  # a second start adds nothing
    with TestClient(app) as c:
        home = c.get("/public").text
        assert home.count(DEMO_EVENT) == 1
        assert c.post("/desk/1/login", data={"pin": DEMO_PIN}).status_code == 200
        page = c.get("/desk/1/rounds/2").text
        assert "Given at" in page  # signal 1 of round 2
        assert "ended" in page  # one table finished its first half
        standings = c.get("/public/1/standings").text
        assert "Ana Petrova" in standings


def test_public_pages_of_a_fresh_event_and_unknown_things(client, other_client):
    event_id = create_event(client)
    assert "No round is paired yet." in other_client.get(f"/public/{event_id}/pairings").text
    assert "No entrant yet." in other_client.get(f"/public/{event_id}/standings").text
    assert other_client.get("/public/99/standings").status_code == 404
    assert other_client.get(f"/public/{event_id}/pairings?round=4").status_code == 404
    assert (
        other_client.get(f"/public/{event_id}/standings?refresh=0").text.count(
            'http-equiv="refresh"'
        )
        == 0
    )
    assert 'content="5"' in other_client.get(f"/public/{event_id}/standings?refresh=1").text
    assert other_client.get(f"/public/{event_id}", follow_redirects=False).status_code == 307
