"""'Create the table clocks of this round' in one action (issue 13): one BALL clock per table,
seats and names as the pairing says, coach A attacking first (D-U1), no second clock when
pressed again, and only for the event's arbiter."""

from __future__ import annotations

from ball.tournament.signals import clock_round_label

from .conftest import post


def clocks_of(client, label: str, event_id: int) -> list[dict]:
    listed = client.get("/clock/api/clocks", params={"round": label, "event": event_id}).json()
    return [c for c in listed if c["event_id"] == event_id]


def test_one_action_makes_every_table_clock_in_pairing_order(client, event4):
    event_id, tables = event4
    made = post(client, event_id, "/rounds/1/clocks")
    assert made.status_code == 303
    label = clock_round_label("Open", 1)
    assert made.headers["location"].startswith("/clock/desk?round=")
    clocks = clocks_of(client, label, event_id)
    by_table = {c["table"]: c for c in clocks}
    assert sorted(by_table) == sorted(str(t["table"]) for t in tables)
    for t in tables:
        clock = by_table[str(t["table"])]
        assert [p["name"] for p in clock["state"]["players"]] == [t["a"], t["b"]]
        device = {"X-Table-Key": clock["device_key"]}  # the desk's list hands out the keys
        started = client.post(
            f"/clock/api/clocks/{clock['id']}/events", json={"kind": "start"}, headers=device
        )
        state = started.json()["state"]
        # coach A attacks first; the DEF coach B makes the first turn (spec 3, D-U1)
        assert state["attack"] == t["a"]
        assert state["players"][state["mover"]]["name"] == t["b"]
    # pressing again makes no second clock for a table
    assert post(client, event_id, "/rounds/1/clocks").status_code == 303
    assert len(clocks_of(client, label, event_id)) == len(tables)


def test_the_round_page_offers_it(client, event4):
    event_id, _tables = event4
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert f'action="/desk/{event_id}/rounds/1/clocks"' in page


def test_only_the_arbiter_may_make_them(client, other_client, event4):
    event_id, _tables = event4
    refused = other_client.post(f"/desk/{event_id}/rounds/1/clocks", follow_redirects=False)
    assert refused.status_code in (303, 401, 403)
    assert clocks_of(client, clock_round_label("Open", 1), event_id) == []


def test_an_unknown_round_is_a_404(client, event4):
    event_id, _tables = event4
    assert post(client, event_id, "/rounds/9/clocks").status_code == 404
