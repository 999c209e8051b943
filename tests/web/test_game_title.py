"""A game's title is a name: one line, since the .bgn export writes it as the Event tag
(issue 11, item 8). A title with a line break was stored and its export was a 500."""

from __future__ import annotations

import sqlite3

import pytest

from ball.games.ball.match import record as bgn


@pytest.mark.parametrize("bad", ['Cup\n[Site "forged"]', "Cup\r1", "Cup\x00", "Cup\u2028B"])
def test_a_title_with_a_control_character_is_refused(client, bad):
    before = client.get("/api/games").json()
    refused = client.post("/api/games", json={"title": bad})
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("title: one line")
    assert client.get("/api/games").json() == before


def test_a_title_stored_before_the_check_exports_on_one_line(client, db_path):
    made = client.post("/api/games", json={"title": "Cup"})
    assert made.status_code == 201
    game_id = made.json()["id"]
    con = sqlite3.connect(db_path)
    with con:
        con.execute("update web_games set title = ?", ('Cup\n[Site "forged"]',))
    con.close()
    exported = client.get(f"/api/games/{game_id}/record")
    assert exported.status_code == 200
    tags = bgn.parse(exported.text).tags
    assert tags["Event"] == 'Cup [Site "forged"]' and tags["Site"] == "BALL Toolbox"
