"""The live-server fixture itself: `ball serve` as its own process survives a SIGKILL with
every acknowledged write (the property the security and crash tests build on)."""

from __future__ import annotations

import json
import urllib.request


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        assert resp.status in (200, 201)
        return json.load(resp)


def test_an_acknowledged_game_survives_sigkill(server_process):
    server = server_process()
    game = _post(server.url + "/api/games", {})
    server.kill()
    server.start()
    with urllib.request.urlopen(f"{server.url}/api/games/{game['id']}", timeout=30) as resp:
        assert json.load(resp)["id"] == game["id"]
