"""The desk's quick result (issue 36 item 11): the same sheet, decided by the same code.

The quick form gives who scored in each half and each coach's PBATK per half (the ball
clock's figures once; dual entry makes the rest). With every figure it builds the very
sheet the full form builds; without PB it stores them as not recorded (`"pb": null`),
which decides only a match the touchdowns decide, and the event's PB tie-breaks make the
PB required.
"""

from __future__ import annotations

import itertools
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from ball.games import GAMES
from ball.games.ball.desk_form import quick_sheet_from_form, sheet_from_form
from ball.games.ball.match.result import SheetError, decide
from ball.games.errors import TournamentError
from ball.tournament.errors import IllegalSheet
from ball.tournament.models import Event
from ball.web.core.deps import service_for
from ball.web.desk.forms import read_result

from .conftest import post, sheet_form

A, B = "Ann", "Bo"
BALL = GAMES["ball"]
TDS = ("", "A", "B")


def quick_form(td1="", td2="", pb=None, **extra) -> dict:
    """Quick-form fields; pb = (A's PBATK in half 1, B's in half 1, B's in half 2, A's in
    half 2) as `sheet_form` takes them, or None for no PB."""
    form = {"entry": "quick", "kind": "sheet", "version": 0, "h1_td": td1, "h2_td": td2, **extra}
    if pb is not None:
        a1, b1, b2, a2 = pb
        form |= {"h1_A_atk": a1, "h1_B_atk": b1, "h2_B_atk": b2, "h2_A_atk": a2}
    return form


def as_text(form: dict) -> dict:
    return {k: str(v) for k, v in form.items()}


def quick_read(form: dict, required: bool) -> dict:
    """The quick form as the desk reads it (`entry=quick`: BALL's `read_quick`)."""
    return read_result(BALL.desk_form, form, A, B, figures_required=required)


def full_decided(td1, td2, pb):
    return BALL.decide(sheet_from_form(as_text(sheet_form(td1, td2, pb)), A, B))


@settings(max_examples=300, deadline=None)
@given(
    td1=st.sampled_from(TDS),
    td2=st.sampled_from(TDS),
    pb=st.tuples(*[st.integers(0, 40)] * 4),
    required=st.booleans(),
)
def test_with_every_figure_the_quick_sheet_is_the_full_sheet(td1, td2, pb, required):
    full = as_text(sheet_form(td1, td2, pb))
    quick = as_text(quick_form(td1, td2, pb))
    try:
        expected = BALL.decide(sheet_from_form(full, A, B))
    except IllegalSheet as exc:  # e.g. a touchdown with 0 PBATK: refused alike
        with pytest.raises(IllegalSheet) as refused:
            BALL.decide(quick_read(quick, required))
        assert refused.value.fault == exc.fault
        return
    assert quick_read(quick, required) == sheet_from_form(full, A, B)
    assert BALL.decide(quick_read(quick, required)) == expected


@pytest.mark.parametrize(("td1", "td2"), list(itertools.product(TDS, TDS)))
def test_without_pb_the_touchdowns_decide_alike_or_the_form_asks_for_pb(td1, td2):
    quick = quick_sheet_from_form(as_text(quick_form(td1, td2)), A, B, pb_required=False)
    assert [h["pb"] for h in quick["halves"]] == [None, None]  # unknown stays unknown
    level = [td1, td2].count("A") == [td1, td2].count("B")
    if level:
        with pytest.raises(SheetError, match="touchdowns are level"):
            decide(quick)
        return
    full = full_decided(td1, td2, (3, 4, 5, 6))
    decided = BALL.decide(quick)
    assert decided.outcome == full.outcome
    for key in ("winner", "reason", "td"):
        assert decided.decision[key] == full.decision[key]
    assert decided.decision["sd"] == {A: None, B: None}
    # PB figures unknown, touchdowns known: td-difference counts, the PB tie-breaks skip it.
    for side in ("A", "B"):
        figures = decided.figures[side]
        assert figures["td_for"] == full.figures[side]["td_for"]
        assert figures["pbatk"] is figures["pbdef"] is None


def test_the_pb_tiebreaks_skip_a_result_without_pb():
    known = BALL.decide(sheet_from_form(as_text(sheet_form("A", "", (3, 4, 5, 6))), A, B))
    unknown = BALL.decide(quick_sheet_from_form(as_text(quick_form("A")), A, B, pb_required=False))
    total_sd = BALL.tiebreaks["total-sd"].compute
    per_td = BALL.tiebreaks["pbatk-per-td"].compute
    a_known, a_unknown = known.figures["A"], unknown.figures["A"]
    assert total_sd([a_known, a_unknown]) == total_sd([a_known])
    assert per_td([a_known, a_unknown]) == per_td([a_known]) == 3.0
    assert per_td([a_unknown]) is None  # ranks last, as "no touchdown scored over the board"


def test_half_a_pair_of_pb_is_refused_naming_the_empty_one():
    form = as_text(quick_form("A")) | {"h1_A_atk": "3"}
    with pytest.raises(TournamentError, match=f"half 1: PBATK of {B} is empty"):
        quick_sheet_from_form(form, A, B, pb_required=False)


# ------------------------------------------------------------------- through the desk


def stored_sheet(client, event_id, table):
    pairing = service_for(client.app).desk.table(event_id, 1, table)
    return pairing.sheet, pairing.result


def no_pb_tiebreaks(app, event_id):
    with app.state.sessions() as s, s.begin():
        chain = ["direct-encounter", "sonneborn-berger", "wins", "td-difference"]
        s.execute(update(Event).where(Event.id == event_id).values(tiebreaks=json.dumps(chain)))


def test_the_quick_form_says_the_event_reads_pb_and_asks_for_it(client, event4):
    event_id, _tables = event4
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1/quick").text
    assert 'id="pb-why"' in page and "Total SD" in page and "PBATK per TD" in page
    assert f'href="/desk/{event_id}/rounds/1/tables/1"' in page  # the full sheet, one click
    refused = post(client, event_id, "/rounds/1/tables/1", quick_form("A") | {"action": "save"})
    assert refused.status_code == 400
    assert 'aria-invalid="true" aria-describedby="err-h1_A_atk"' in refused.text
    assert stored_sheet(client, event_id, 1) == (None, None)
    saved = post(client, event_id, "/rounds/1/tables/1", quick_form("A", "", (3, 4, 5, 6)))
    assert saved.status_code == 303
    sheet, result = stored_sheet(client, event_id, 1)
    a, b = sheet["coaches"]
    assert sheet == sheet_from_form(as_text(sheet_form("A", "", (3, 4, 5, 6))), a, b)
    assert result["decision"]["reason"] == "touchdowns"


def test_without_pb_tiebreaks_a_touchdown_win_needs_no_pb(client, app, event4):
    event_id, _tables = event4
    no_pb_tiebreaks(app, event_id)
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1/quick").text
    assert "leave them empty" in page and " required" not in page.split('id="quick-pb"')[1]
    saved = post(client, event_id, "/rounds/1/tables/1", quick_form("", "B"))
    assert saved.status_code == 303
    sheet, result = stored_sheet(client, event_id, 1)
    assert [h["pb"] for h in sheet["halves"]] == [None, None]
    assert result["decision"]["reason"] == "touchdowns"
    # level touchdowns: the PB decide, and the form says so beside the PB
    level = post(client, event_id, "/rounds/1/tables/2", quick_form("A", "B"))
    assert level.status_code == 400
    assert "The touchdowns are level (1-1), so the PB decide" in level.text
    assert 'aria-describedby="err-h1_A_atk"' in level.text
    assert 'name="h1_td" value="A" checked' in level.text  # what was typed is kept
    # the standings and the correction form read a result without PB
    assert client.get(f"/desk/{event_id}/standings").status_code == 200
    assert client.get(f"/public/{event_id}/standings").status_code == 200
    assert client.get(f"/desk/{event_id}/rounds/1/tables/1").status_code == 200
    assert client.get(f"/print/forms?round=1&event={event_id}").status_code == 200


def test_the_check_gives_the_decision_of_the_quick_form(client, event4):
    event_id, tables = event4
    a = tables[0]["a"]
    checked = post(client, event_id, "/rounds/1/tables/1/check", quick_form("A", "", (3, 4, 5, 6)))
    assert checked.json()["text"] == f"{a} wins 1–0 by touchdowns"
    fault = post(client, event_id, "/rounds/1/tables/1/check", quick_form("A")).json()
    assert not fault["ok"] and fault["field"] == "h1_A_atk"


def test_pair_next_round_appears_on_the_round_page_once_the_round_is_complete(client, event4):
    event_id, _tables = event4
    round_page = f"/desk/{event_id}/rounds/1"
    page = client.get(round_page).text
    assert 'id="pair-next"' not in page
    assert page.count("/quick") == 2  # one quick result link per table without result
    post(client, event_id, "/rounds/1/tables/1", quick_form("A", "", (3, 4, 5, 6)))
    assert 'id="pair-next"' not in client.get(round_page).text
    post(client, event_id, "/rounds/1/tables/2", quick_form("", "B", (3, 4, 5, 6)))
    page = client.get(round_page).text
    assert re.search(r'id="pair-next">[^<]*Pair round 2', page)
    assert post(client, event_id, "/rounds", {}).headers["location"].endswith("/rounds/2")
    assert 'id="pair-next"' not in client.get(round_page).text  # round 1 is no longer the latest
