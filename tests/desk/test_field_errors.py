"""Refused desk forms come back as typed, the fault beside its field (issue 36 item 12):
the mapping of the services' messages (`ball.web.field_errors`) and the pages over HTTP,
with the status codes they had."""

from __future__ import annotations

import re

import pytest

from ball.web import field_errors
from ball.web.field_errors import Fault, locate

from .conftest import PIN, create_event, post

SIDES = {"Ann": "A", "Bo": "B"}


def same(text: str) -> str:
    return text


@pytest.mark.parametrize(
    ("message", "rules", "fault"),
    [
        (
            "half 2: PBDEF of Bo is empty",
            field_errors.BALL_SHEET_RULES,
            Fault("Half 2: enter the PBDEF of Bo.", "h2_B_def"),
        ),
        (
            "half 1: Ann scored the touchdown but recorded 0 PBATK",
            field_errors.BALL_SHEET_RULES,
            Fault("Half 1: Ann scored the touchdown, so their PBATK cannot be 0.", "h1_A_atk"),
        ),
        (
            "sanction 2: every sanction needs a reason",
            field_errors.BALL_SHEET_RULES,
            Fault("Sanction 2: give the reason.", "sanction1_reason"),
        ),
        (
            'illegal result: "article" 9.9 does not match "reason"',
            field_errors.XIANGQI_RULES,
            Fault('"article" 9.9 does not match "reason"', "xq_article"),
        ),
        (
            "hands[2].fan: 6 is under the minimum of 8; not a win",
            field_errors.MAHJONG_HAND_RULES,
            Fault("Hand 3: 6 fan is under the 8-fan minimum.", "fan"),
        ),
        (
            "pin: the two PINs differ",
            field_errors.NEW_EVENT_RULES,
            Fault("The two PINs differ.", "pin2"),
        ),
        # not about a field: the message as it is, at the top
        ("signal 2 of round 1: too early by 42 s", field_errors.BALL_SHEET_RULES, None),
        # a name that is no coach of the table: no field to mark
        ("half 1: PBATK of Cy is empty", field_errors.BALL_SHEET_RULES, None),
    ],
)
def test_a_message_is_located_and_put_in_words(message, rules, fault):
    found = locate(message, rules, same, SIDES)
    assert found == (fault or Fault(message))


def test_a_refused_new_event_keeps_what_was_typed_but_the_pins(client):
    form = {"name": "Spring Cup", "system": "swiss", "place": "Sofia", "pin": PIN, "pin2": "x"}
    r = client.post("/desk/events", data=form)
    assert r.status_code == 400
    assert re.search(r'id="desk-error">The two PINs differ\.<', r.text)
    assert 'name="pin2" type="password" required minlength="4" maxlength="64" ' in r.text
    assert 'aria-describedby="err-pin2"' in r.text
    assert 'value="Spring Cup"' in r.text and 'value="Sofia"' in r.text
    assert '<option value="swiss" selected>' in r.text
    assert PIN not in r.text  # a PIN is never sent back


def test_a_refused_entrant_is_shown_beside_the_name_on_the_event_page(client):
    event_id = create_event(client)
    assert post(client, event_id, "/entrants", {"name": "Ann"}).status_code == 303
    r = post(client, event_id, "/entrants", {"name": "Ann", "club": "Levski"})
    assert r.status_code == 400
    assert "Ann is already registered in this event." in r.text
    assert 'aria-describedby="err-name"' in r.text and 'value="Levski"' in r.text
    assert 'id="entrants"' in r.text  # the event page itself, not a "Not done" page


def test_a_pairing_refused_says_why_at_the_top_of_the_pair_form(client):
    event_id = create_event(client)
    assert post(client, event_id, "/entrants", {"name": "Ann"}).status_code == 303
    r = post(client, event_id, "/rounds")
    assert r.status_code == 400
    found = re.search(r'id="desk-error">([^<]*)<', r.text)
    assert found and "at least two active entrants" in found.group(1)
    assert 'id="pair-form"' in r.text
