"""Loose ends of issue 13 that the server decides: favicon, a bare /replay, PE only where the
rules have it (§2/§11), "1 diagram", translated clock titles and tie-break descriptions."""

from __future__ import annotations

import re

import pytest

from ball.clocks import builtin_controls
from ball.games import GAMES, game
from ball.tournament.standings import known_tiebreaks
from ball.web.clocks.text import control_title
from ball.web.public.display import tiebreak_words


def test_favicon_is_served_and_linked(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in icon.content
    page = client.get("/rulebook").text
    assert '<link rel="icon" href="/static/favicon.svg"' in page
    assert client.get("/static/favicon.svg").status_code == 200


def test_bare_replay_says_what_to_do(client):
    bare = client.get("/replay", params={"lang": "en"}).text
    assert 'id="replay-empty"' in bare
    assert re.search(r'<div id="replay" class="sim" data-game=""\s+hidden>', bare)
    game_id = client.post("/api/games", json={"mode": "free"}).json()["id"]
    with_game = client.get("/replay", params={"game": game_id}).text
    assert 'id="replay-empty"' not in with_game
    assert f'data-game="{game_id}">' in with_game


@pytest.mark.parametrize(
    ("ruleset", "uses_pe"), [("standard", False), ("pe", True), ("cards", True)]
)
def test_game_state_says_whether_pe_counts(client, ruleset, uses_pe):
    state = client.post("/api/games", json={"mode": "free", "ruleset": ruleset}).json()
    assert state["uses_pe"] is uses_pe


def test_one_diagram_is_singular(client):
    index = client.get("/rulebook", params={"lang": "en"}).text
    counts = re.findall(r'<span class="count">([^<]+)</span>', index)
    assert counts, "the rulebook index shows diagram counts"
    for count in counts:
        n = int(count.split()[0])
        assert count == ("1 diagram" if n == 1 else f"{n} diagrams")


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_every_shipped_control_title_is_translated(lang):
    for control in builtin_controls().values():
        shown = control_title(lang, control.title)
        assert shown != control.title, control.name
        # the figures survive translation (BALL's come from the ruleset's [time] table)
        assert sorted(re.findall(r"\d+", shown)) == sorted(re.findall(r"\d+", control.title))


def test_an_organisers_control_title_is_kept():
    assert control_title("ko", "Club night: 25 min each") == "Club night: 25 min each"


def test_tiebreak_descriptions_cover_every_game_and_say_the_same():
    for name in GAMES:
        for key, text in known_tiebreaks(game(name)).items():
            assert tiebreak_words(key, game(name))[1] == text, (name, key)
