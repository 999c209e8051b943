"""Issue 11 item 3 on the desk: no second event under a taken name, and every link the web
emits for an event names it by id."""

from __future__ import annotations

import re

from .conftest import PIN, create_event


def test_the_desk_refuses_an_event_named_like_an_existing_one(client, other_client):
    create_event(client, name="Spring Cup")
    response = other_client.post(
        "/desk/events",
        data={"name": "  SPRING   cup", "system": "swiss", "pin": PIN, "pin2": PIN},
        follow_redirects=False,
    )
    assert response.status_code == 400
    assert "already exists (id 1)" in response.text
    assert client.get("/desk").text.count("/desk/2") == 0


def test_links_to_an_events_printouts_use_its_id(client, event4):
    event_id, _tables = event4
    page = client.get(f"/desk/{event_id}/rounds/1").text
    links = re.findall(r'href="(/print/[^"]+event=[^"]*)"', page)
    assert len(links) == 2 and all(link.endswith(f"event={event_id}") for link in links), links
    printed = client.get(links[0].replace("&amp;", "&"))
    assert printed.status_code == 200 and "Ann" in printed.text


def test_the_demo_seeder_accepts_its_name_already_taken(app, client):
    from ball.web.desk.demo import seed_demo_event

    taken = create_event(client, name="ball demo OPEN")
    assert seed_demo_event(app.state.sessions) == taken
