"""A groups event on the arbiter desk (seed 004, 11.3; issue 17): created with its options
through the new-event form, run through the group stage and into the final from the desk,
its group tables on the desk the very tables of the public groups page."""

from __future__ import annotations

import re

from ball.web.core.deps import service_for

from .conftest import create_event, post


def tables(html: str) -> dict[str, list[list[str]]]:
    """Each table's body rows as cell texts (tags stripped), by table id."""
    out = {}
    for tid, body in re.findall(r'<table[^>]*id="([^"]+)"[^>]*>(.*?)</table>', html, re.S):
        if "<tbody>" not in body:
            continue
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>")[1], re.S)
        out[tid] = [
            [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in rows
        ]
    return out


def group_tables(html: str) -> dict[str, list[list[str]]]:
    return {k: v for k, v in tables(html).items() if k.startswith(("group-table-", "final-"))}


def play_round(client, event_id: int, number: int) -> None:
    """Pair the round from the desk, then the higher-rated entrant wins each table (the
    lower P-number; a forfeit by the other side, 6.5)."""
    assert post(client, event_id, "/rounds").status_code == 303
    for t in service_for(client.app).rounds.pairings(number, event=event_id):
        if t.b is None:
            continue
        loser = "B" if int(t.a[1:]) < int(t.b[1:]) else "A"
        path = f"/rounds/{number}/tables/{t.table}"
        form = {"kind": f"forfeit-{loser}", "version": 0}
        assert post(client, event_id, path, form).status_code == 303


def test_groups_event_created_and_run_to_the_final_through_the_desk(client):
    event_id = create_event(
        client,
        name="Cup",
        system="groups",
        groups="2",
        qualifiers="2",
        final="knockout",
        group_cycles="1",
        default_time="30",
    )
    ev = service_for(client.app).desk.event_page(event_id)
    assert ev.system == "groups"
    for i in range(8):
        data = {"name": f"P{i + 1}", "rating": str(2000 - i)}
        assert post(client, event_id, "/entrants", data).status_code == 303
    # 2 groups of 4, single round robin: 3 rounds; the 4th pairing is the final's first.
    for number in (1, 2, 3):
        play_round(client, event_id, number)
    desk = group_tables(client.get(f"/desk/{event_id}").text)
    assert set(desk) == {"group-table-A", "group-table-B"}
    # snake seeding by rating: A = P1, P4, P5, P8, ranked by their points (3, 2, 1, 0)
    assert [row[1] for row in desk["group-table-A"]] == ["P1", "P4", "P5", "P8"]
    assert [row[2] for row in desk["group-table-A"]] == ["3", "2", "1", "0"]
    play_round(client, event_id, 4)  # the desk's *Pair round 4* pairs the knockout final
    desk = group_tables(client.get(f"/desk/{event_id}").text)
    # the seats of the final taken: the top two of each group are marked as going on
    assert [row[1] for row in desk["group-table-A"]] == ["P1 ✓", "P4 ✓", "P5", "P8"]
    assert [row[1] for row in desk["group-table-B"]] == ["P2 ✓", "P3 ✓", "P6", "P7"]
    final_pairs = service_for(client.app).rounds.pairings(4, event=event_id)
    assert {frozenset((t.a, t.b)) for t in final_pairs} == {
        frozenset(("P1", "P3")),
        frozenset(("P2", "P4")),
    }  # 11.3: group winners meet the other group's runner-up
    desk_page = client.get(f"/desk/{event_id}").text
    public_page = client.get(f"/public/{event_id}/groups").text
    assert "final-table" in group_tables(desk_page)
    assert group_tables(desk_page) == group_tables(public_page)
    # the round page shows the same tables
    assert group_tables(client.get(f"/desk/{event_id}/rounds/4").text) == group_tables(public_page)


def test_desk_tables_equal_the_public_page_midway(client):
    event_id = create_event(client, name="Mid", system="groups", groups="2", final="round-robin")
    for i in range(6):
        post(client, event_id, "/entrants", {"name": f"P{i + 1}", "rating": str(1900 - i)})
    play_round(client, event_id, 1)
    desk = group_tables(client.get(f"/desk/{event_id}").text)
    assert len(desk) == 2 and all(len(rows) == 3 for rows in desk.values())
    assert desk == group_tables(client.get(f"/public/{event_id}/groups").text)


def test_group_options_refused_with_a_message_and_no_event_stored(client):
    before = len(service_for(client.app).desk.event_list())
    bad = [
        ({"system": "groups"}, "groups"),  # a groups event without its number of groups
        ({"system": "groups", "groups": "1"}, "--groups"),  # 11.3: at least two groups
        ({"system": "groups", "groups": "2", "final": "swiss"}, "final"),
        ({"system": "groups", "groups": "2", "qualifiers": "0"}, "qualifiers"),
        ({"system": "groups", "groups": "2", "carry": "1"}, "--carry"),
        ({"system": "swiss", "groups": "2"}, "groups"),
        ({"system": "groups", "groups": "2", "default_time": "-5"}, "default_time"),
    ]
    for fields, word in bad:
        data = {"name": "Bad", "pin": "2468", "pin2": "2468", **fields}
        response = client.post("/desk/events", data=data, follow_redirects=False)
        assert response.status_code == 400, fields
        assert word in response.text, (fields, response.text[-400:])
    assert len(service_for(client.app).desk.event_list()) == before


def test_non_groups_event_page_has_no_group_tables(event4, client):
    event_id, _ = event4
    assert 'id="group-tables"' not in client.get(f"/desk/{event_id}").text
