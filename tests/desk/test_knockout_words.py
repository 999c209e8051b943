"""A 13-entrant Xiangqi knockout drawn by lots, as the desk and the public see it (issue 36
item 14): the event's header names the system with its details, the bracket shows every
round down to the final (the next with "Winner of T3" for a tie still in play), a tie's
link is named as the rules name it (a game, or a mini-match), and the public display opens
on the bracket. And the round-forms PDF is headed by the event's name, not its id ("2").
"""

from __future__ import annotations

import re
import subprocess

from ball.web.core.deps import service_for

from .conftest import create_event, post

ENTRANTS = 13


def drawn_knockout(client, **extra) -> int:
    event_id = create_event(client, "XQ Cup", "knockout", game="xiangqi", **extra)
    for i in range(1, ENTRANTS + 1):
        assert post(client, event_id, "/entrants", {"name": f"Entrant {i:02d}"}).status_code == 303
    service_for(client.app).knockout.draw_round(seed=7, event=event_id)
    return event_id


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_header_names_the_system_with_its_details(client):
    event_id = drawn_knockout(client)
    html = client.get(f"/desk/{event_id}").text
    line = text_of(re.search(r'<p class="muted" id="event-system">.*?</p>', html, re.S).group(0))
    assert line.startswith(
        "Knockout · 13 entrants · drawn by lots each round · Each tie: one game."
    )


def test_the_bracket_shows_every_round_to_the_final(client):
    event_id = drawn_knockout(client)
    svc = service_for(client.app)
    first = [p for p in svc.desk.round_view(event_id, 1).pairings if p.b is not None]
    assert len(first) == 6  # and a bye: 7 go on, then 4, 2, 1
    # one tie decided: its winner is named in round 2; the others are awaited by table
    svc.results.enter_result(1, first[0].table, forfeit="B", event=event_id)
    for url in (f"/desk/{event_id}/bracket", f"/public/{event_id}/bracket"):
        html = client.get(url).text
        rounds = re.findall(r'class="bracket-round[^"]*" data-round="(\d+)"', html)
        assert rounds == ["1", "2", "3", "4"]
        to_come = html[html.index('data-round="2"') :]
        going = re.findall(r"<li>(.*?)</li>", to_come[: to_come.index("</ul>")])
        assert len(going) == 7
        assert text_of(going[0]) == first[0].a.name
        awaited = [text_of(g) for g in going if "Winner of" in g]
        assert awaited == [f"Winner of T{p.table}" for p in first[1:]]
        assert ">Final<" in html
    desk = client.get(f"/desk/{event_id}/bracket").text
    assert ">Game</a>" in desk and ">Enter the next game</a>" in desk
    assert ">Games</a>" not in desk and "Enter games" not in desk


def test_a_mini_match_is_named_so(client):
    event_id = create_event(
        client, "XQ Minis", "knockout", game="xiangqi", games_per_tie="2", extra_games="2"
    )
    for i in range(1, 5):
        post(client, event_id, "/entrants", {"name": f"M{i}"})
    service_for(client.app).knockout.draw_round(seed=1, event=event_id)
    html = client.get(f"/desk/{event_id}/bracket").text
    assert "mini-match in play" in html
    assert "Each tie: 2 games, then 2 extra games, then a drawing of lots." in text_of(
        client.get(f"/desk/{event_id}").text
    )


def test_the_public_display_opens_on_the_bracket(client):
    event_id = drawn_knockout(client)
    moved = client.get(f"/public/{event_id}", follow_redirects=False)
    assert moved.status_code == 307 and moved.headers["location"] == f"/public/{event_id}/bracket"
    assert f'href="/public/{event_id}/bracket"' in client.get("/public").text
    tabs = re.search(
        r'<nav class="tabs".*?</nav>', client.get(moved.headers["location"]).text, re.S
    )
    assert re.findall(r'href="/public/\d+/(\w+)"', tabs.group(0))[0] == "bracket"
    # a Swiss still opens on its standings
    swiss = create_event(client, "Swiss", "swiss", rounds="3")
    moved = client.get(f"/public/{swiss}", follow_redirects=False)
    assert moved.headers["location"] == f"/public/{swiss}/standings"


def pdf_text(body: bytes, tmp_path) -> str:
    path = tmp_path / "forms.pdf"
    path.write_bytes(body)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_round_forms_pdf_is_headed_by_the_events_name(client, tmp_path):
    create_event(client, "Earlier", "swiss", rounds="3")  # the knockout is event 2
    event_id = drawn_knockout(client)
    assert event_id == 2
    r = client.get(f"/print/forms.pdf?round=1&event={event_id}")
    assert r.status_code == 200
    pages = pdf_text(r.content, tmp_path).split("\f")
    # the cover's first line and each page's running header: the event's name, not its id
    assert pages[0].split()[:2] == ["XQ", "CUP"]
    assert pages[2].lstrip().startswith("XQ Cup")
    assert not any(p.lstrip().startswith("2\n") for p in pages)
