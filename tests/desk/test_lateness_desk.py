"""Lateness on the desk's result form (seed 004 articles 21-22; issue 17): per side minutes
late or "did not come", ruled by the core with the event's default time, shown in the check
and recorded and logged on saving; bad input refused with a message and nothing stored."""

from __future__ import annotations

import pytest

from ball.web.core.deps import service_for

from .conftest import create_event, desk_event, post, sheet_form

DEFAULT_TIME = 15  # minutes (21.1), set on the new-event form


def seat_late(client) -> int:
    """Through the desk's forms: a 4-entrant round robin with a 15-minute default time,
    round 1 paired."""
    event_id = create_event(client, name="Late", default_time=str(DEFAULT_TIME))
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    return event_id


# Built through the forms once per test process and copied for each test (tests/desk/
# conftest.py): every test here starts from the same paired round and its own copy.
BUILT_EVENTS = {"late_event": seat_late}


@pytest.fixture
def late_event(request, client):
    """`seat_late`'s event; returns (event id, round-1 tables)."""
    event_id = desk_event(request, client, seat_late)
    return event_id, service_for(client.app).rounds.pairings(1, event=event_id)


def check(client, event_id, table, form):
    return post(client, event_id, f"/rounds/1/tables/{table}/check", form).json()


def save(client, event_id, table, form):
    return post(client, event_id, f"/rounds/1/tables/{table}", {"version": 0, **form})


def stored(client, event_id, table):
    return service_for(client.app).desk.table(event_id, 1, table).result


def lateness_log(client, event_id):
    return [x for x in service_for(client.app).arbiter.log(event=event_id) if x.kind == "lateness"]


def test_late_within_the_default_time_the_sheet_is_still_needed(client, late_event):
    event_id, tables = late_event
    a = tables[0].a
    form = {"late_A": str(DEFAULT_TIME)}  # exactly at the default time is within it (E-19)
    empty = check(client, event_id, 1, {"kind": "sheet", **form})
    assert not empty["ok"]  # 21.1, 21.2: the game is played, so its sheet is needed
    checked = check(client, event_id, 1, {**sheet_form(td1="A", pb=(3, 0, 4, 2)), **form})
    assert checked["ok"] and "21.1, 21.2" in checked["late_text"] and a in checked["text"]
    response = save(client, event_id, 1, {**sheet_form(td1="A", pb=(3, 0, 4, 2)), **form})
    assert response.status_code == 303
    assert stored(client, event_id, 1)["kind"] != "forfeit"
    [line] = lateness_log(client, event_id)
    assert line.table == 1 and "15 min late" in line.detail and "21.1" in line.detail


@pytest.mark.parametrize("late", [{"late_B": "16"}, {"absent_B": "1"}])
def test_past_the_default_time_that_side_loses_by_forfeit(client, late_event, late):
    event_id, tables = late_event
    b = tables[0].b
    checked = check(client, event_id, 1, {"kind": "sheet", **late})
    assert checked["ok"] and b in checked["text"] and "21.1, 22.1" in checked["text"]
    assert save(client, event_id, 1, {"kind": "sheet", **late}).status_code == 303
    result = stored(client, event_id, 1)
    assert result["kind"] == "forfeit" and result["forfeit_by"] == "B"
    [line] = lateness_log(client, event_id)
    assert "22.1" in line.detail


def test_one_within_one_past_the_later_loses(client, late_event):
    event_id, _ = late_event
    form = {"kind": "sheet", "late_A": "5", "late_B": "40"}  # 21.3 with 21.1
    checked = check(client, event_id, 2, form)
    assert checked["ok"] and "21.3" in checked["text"]
    assert save(client, event_id, 2, form).status_code == 303
    assert stored(client, event_id, 2)["forfeit_by"] == "B"


def test_both_within_the_default_time_play_on(client, late_event):
    event_id, _ = late_event
    form = {**sheet_form(pb=(4, 2, 6, 1)), "late_A": "3", "late_B": "9"}
    checked = check(client, event_id, 2, form)
    assert checked["ok"] and "(21.3)" in checked["late_text"]
    assert save(client, event_id, 2, form).status_code == 303
    assert stored(client, event_id, 2)["kind"] not in ("forfeit", "double-forfeit")


def test_both_past_the_default_time_is_a_double_forfeit(client, late_event):
    event_id, _ = late_event
    form = {"kind": "sheet", "absent_A": "1", "late_B": "30"}
    checked = check(client, event_id, 1, form)
    assert checked["ok"] and "21.3, 22.1" in checked["text"]
    assert save(client, event_id, 1, form).status_code == 303
    assert stored(client, event_id, 1)["kind"] == "double-forfeit"
    assert len(lateness_log(client, event_id)) == 1


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "sheet", "late_A": "-5"}, "late_A: must be at least 0"),
        ({"kind": "sheet", "late_B": "ten"}, "late_B"),
        ({"kind": "sheet", "late_A": "5", "absent_A": "1"}, "not both"),
        ({"kind": "sheet", "late_A": "2000"}, "late_A: must be at most"),
        # both past the default time and a sheet: a double forfeit has no sheet (21.3)
        ({**sheet_form(td1="A"), "absent_A": "1", "absent_B": "1"}, "give no sheet"),
        ({**sheet_form(td1="A"), "late_B": "20"}, "give no sheet"),
        ({"kind": "forfeit-A", "late_B": "20"}, "lateness decides the forfeit"),
    ],
)
def test_bad_lateness_is_refused_with_a_message_and_nothing_stored(
    client, late_event, form, message
):
    event_id, _ = late_event
    checked = check(client, event_id, 1, form)
    assert not checked["ok"] and message in checked["error"]
    response = save(client, event_id, 1, form)
    assert response.status_code == 400
    assert message in response.text.replace("&#39;", "'")
    assert stored(client, event_id, 1) is None
    assert lateness_log(client, event_id) == []


def test_the_result_form_offers_lateness_and_shows_the_ruling_before_saving(client, late_event):
    event_id, tables = late_event
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    for field in ("late_A", "late_B", "absent_A", "absent_B"):
        assert f'name="{field}"' in page
    shown = save(client, event_id, 1, {"kind": "sheet", "late_A": "25", "action": "check"})
    assert shown.status_code == 200  # the check shows the ruling; nothing is saved
    assert f"{tables[0].a} past the default time loses by forfeit (21.1, 22.1)" in shown.text
    assert stored(client, event_id, 1) is None
    korean = client.get(f"/desk/{event_id}/rounds/1/tables/1", params={"lang": "ko"}).text
    assert f"{tables[0].a} 지각 (분)" in korean
