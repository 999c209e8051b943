"""The Mahjong desk in a user's words (issue 36 item 14): a random seating says how it was
seated, with the draw's number only as a detail; team-mates seated at one table are a
warning (role="alert"), not a plain bullet; "Close the table" is apart from "Take back the
last entry" and asks first, without script (a <details> around the closing button). And
the new-event form's team rankings are named in words."""

from __future__ import annotations

import re

from .conftest import create_event, post
from .test_mahjong_desk import edit, mahjong_event, seat


def test_a_random_seating_in_words_and_team_mates_as_a_warning(client):
    # 16 players, 8 of one team: four tables cannot keep them apart
    event_id = create_event(client, name="MJ Open", game="mahjong", rounds="4", hands="4")
    for i in range(1, 17):
        club = "Big" if i <= 8 else f"Team {i % 4}"
        assert (
            post(client, event_id, "/entrants", {"name": f"P{i}", "club": club}).status_code == 303
        )
    seat(client, event_id, method="random")
    html = client.get(f"/desk/{event_id}/sessions/1").text
    method = re.search(r'<p class="muted" id="method">(.*?)</p>', html).group(1)
    assert method.startswith("Seated by a random draw") and "seed" not in method
    assert re.search(r'<details class="no-print" id="draw-detail">.*Draw number \d+', html, re.S)
    warning = re.search(r'<div class="note" role="alert" id="team-warning">(.*?)</div>', html, re.S)
    assert warning and "Warning: team-mates sit at one table." in warning.group(1)
    clashes = re.findall(r"<li>Session 1: (P\d+) and (P\d+)</li>", warning.group(1))
    assert clashes
    teams = {f"P{i}": "Big" if i <= 8 else i % 4 for i in range(1, 17)}
    assert all(teams[a] == teams[b] for a, b in clashes)


def test_closing_a_table_is_apart_and_asks_first(client):
    event_id = mahjong_event(client)
    seat(client, event_id, method="random")
    url = f"/desk/{event_id}/sessions/1/tables/1"
    edit(client, event_id, url, "hand", {"outcome": "self_drawn", "winner": "E", "fan": "8"})
    html = client.get(url).text
    log = html[html.index('<section class="panel" id="log">') :]
    log = log[: log.index("</section>")]
    close = html[html.index('<section class="panel" id="close">') :]
    assert 'id="undo"' in log and 'id="undo"' not in close
    # the closing button sits inside a closed <details>: one more step, no script needed
    step = re.search(
        r'<details class="confirm-step" id="close-confirm">(.*?)</details>', close, re.S
    )
    assert step and 'id="close-table"' in step.group(1)
    assert "Check the scores first" in step.group(1)
    assert re.search(r'<details class="confirm-step" id="close-confirm" open', close) is None


def test_team_rankings_are_named_in_words(client):
    html = client.get("/desk").text
    select = re.search(r'<select name="team_ranking">(.*?)</select>', html, re.S).group(1)
    options = re.findall(r'<option value="([\d.]+)">([^<]+)</option>', select)
    assert [v for v, _ in options] == ["15.3", "15.4", "15.5"]
    for value, words in options:
        assert words != value and value in words and len(words.split()) >= 4
