"""Refused desk forms come back as typed, the fault beside its field (issue 36 item 12):
the mapping of the services' messages (`ball.web.desk.field_errors`) and the pages over HTTP,
with the status codes they had."""

from __future__ import annotations

import re

import pytest

from ball.games.ball.web.field_rules import RULES as BALL_RULES
from ball.games.mahjong.web import field_rules as mahjong_rules
from ball.games.xiangqi.web import field_rules as xiangqi_rules
from ball.web.desk import field_errors
from ball.web.desk.field_errors import Fault, locate

from .conftest import PIN, create_event, post, sheet_form

SIDES = {"Ann": "A", "Bo": "B"}


def same(text: str) -> str:
    return text


@pytest.mark.parametrize(
    ("message", "rules", "fault"),
    [
        (
            "half 2: PBDEF of Bo is empty",
            BALL_RULES,
            Fault("Half 2: enter the PBDEF of Bo.", "h2_B_def"),
        ),
        (
            "half 1: Ann scored the touchdown but recorded 0 PBATK",
            BALL_RULES,
            Fault("Half 1: Ann scored the touchdown, so their PBATK cannot be 0.", "h1_A_atk"),
        ),
        (
            "sanction 2: every sanction needs a reason",
            BALL_RULES,
            Fault("Sanction 2: give the reason.", "sanction1_reason"),
        ),
        (
            'illegal result: "article" 9.9 does not match "reason"',
            xiangqi_rules.RULES,
            Fault('"article" 9.9 does not match "reason"', "xq_article"),
        ),
        (
            "hands[2].fan: 6 is under the minimum of 8; not a win",
            mahjong_rules.HAND_RULES,
            Fault("Hand 3: 6 fan is under the 8-fan minimum.", "fan"),
        ),
        (
            "pin: the two PINs differ",
            field_errors.NEW_EVENT_RULES,
            Fault("The two PINs differ.", "pin2"),
        ),
        # not about a field: the message as it is, at the top
        ("signal 2 of round 1: too early by 42 s", BALL_RULES, None),
        # a name that is no coach of the table: no field to mark
        ("half 1: PBATK of Cy is empty", BALL_RULES, None),
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


def beside(page: str, field: str) -> str:
    """The words shown beside the form field `field`, which points at them."""
    assert f'aria-invalid="true" aria-describedby="err-{field}"' in page
    found = re.search(rf'<span class="field-error" id="err-{field}">([^<]*)<', page)
    assert found, f"no fault beside {field}"
    return found.group(1)


@pytest.fixture
def sanctions(event4, client):
    event_id, tables = event4
    page = client.get(f"/desk/{event_id}/sanctions").text
    entrant = re.search(r'name="entrant" value="(\d+)"', page).group(1)
    step = re.search(r'<option value="([^"]+)" selected>', page).group(1)
    return client, event_id, entrant, step


def test_a_sanction_table_without_its_round_is_said_beside_the_round(sanctions):
    client, event_id, entrant, step = sanctions
    form = {"entrant": entrant, "step": step, "round": "", "table": "2", "reason": "phone rang"}
    r = post(client, event_id, "/sanctions", form)
    assert r.status_code == 400
    assert beside(r.text, "round") == "A table needs its round."
    assert (
        'value="phone rang"' in r.text
        and 'name="table" type="number" min="1" size="3" value="2"' in r.text
    )
    assert 'id="entrant-' in r.text  # the sanctions page itself, not a "Not done" page


def test_a_sanction_without_a_reason_is_said_beside_the_reason(sanctions):
    client, event_id, entrant, step = sanctions
    form = {"entrant": entrant, "step": step, "round": "1", "table": "", "reason": " "}
    r = post(client, event_id, "/sanctions", form)
    assert r.status_code == 400
    assert beside(r.text, "reason") == "Give the reason."
    assert r.text.count('aria-invalid="true"') == 1  # only the refused entrant's form


def test_a_withdrawal_not_confirmed_is_said_beside_the_box_keeping_the_reason(event4, client):
    event_id, _ = event4
    page = client.get(f"/desk/{event_id}").text
    entrant = re.search(r"/entrants/(\d+)/withdraw", page).group(1)
    r = post(client, event_id, f"/entrants/{entrant}/withdraw", {"reason": "ill"})
    assert r.status_code == 400
    assert beside(r.text, "confirm") == "Tick the box to confirm the withdrawal."
    assert 'name="reason" maxlength="300" value="ill"' in r.text
    assert re.search(
        rf"<details open><summary>[^<]*</summary>\s*<form [^>]*/entrants/{entrant}/", r.text
    )


def test_a_swap_of_one_entrant_with_itself_is_said_beside_the_second(event4, client):
    event_id, tables = event4
    who = tables[0].a
    r = post(client, event_id, "/rounds/1/swap", {"x": who, "y": who, "reason": "typo"})
    assert r.status_code == 400
    assert beside(r.text, "y") == "Choose two different entrants."
    assert 'value="typo"' in r.text and '<details class="no-print" id="swap" open>' in r.text


def test_a_swap_of_someone_not_paired_is_said_beside_that_entrant(event4, client):
    event_id, tables = event4
    r = post(client, event_id, "/rounds/1/swap", {"x": "Nobody", "y": tables[0].a})
    assert r.status_code == 400
    assert beside(r.text, "x") == "Nobody is not paired in round 1."


def ball_tie(client) -> int:
    event_id = create_event(client, "BALL KO", "knockout", games_per_tie="2", extra_games="0")
    for name in ("Ann", "Bo"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    form = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": "1B"}
    assert post(client, event_id, "/draw", form).status_code == 303
    return event_id


def test_a_refused_tie_game_is_said_beside_its_field_keeping_the_sheet(client):
    event_id = ball_tie(client)
    faulty = sheet_form(td1="A") | {"game": "1", "h1_A_def": "", "h2_B_atk": "7"}
    r = post(client, event_id, "/rounds/1/ties/1/games", faulty)
    assert r.status_code == 400
    assert beside(r.text, "h1_A_def") == "Half 1: enter the PBDEF of Ann."
    assert 'name="h2_B_atk"' in r.text and 'value="7"' in r.text
    assert '<option value="A" selected>Ann</option>' in r.text  # the touchdown as chosen
    assert 'id="game-form"' in r.text


def edit(client, table_url: str, what: str, form: dict, expect: int = 303):
    from .test_mahjong_desk import edit as edit_sheet

    return edit_sheet(client, 0, table_url, what, form, expect)


@pytest.fixture
def mahjong_table(request, client) -> str:
    from .conftest import desk_event
    from .test_mahjong_desk import seat_mahjong

    return f"/desk/{desk_event(request, client, seat_mahjong)}/sessions/1/tables/1"


def test_a_refused_mahjong_ruling_is_said_beside_its_field(client, mahjong_table):
    form = {"kind": "false-win", "seat": "W", "tiles": "99", "article": "WC 6"}
    r = edit(client, mahjong_table, "penalty", form, expect=400)
    assert beside(r.text, "ruling_tiles") == "a whole number from 0 to 14"
    assert 'value="99"' in r.text and 'value="WC 6"' in r.text
    assert (
        '<option value="false-win" selected>' in r.text and '<option value="W" selected>' in r.text
    )
    assert 'name="tiles" value=""' in r.text  # the hand form's tiles are not the ruling's


def test_a_refused_time_penalty_is_said_beside_the_seconds(client, mahjong_table):
    form = {"seat": "N", "limit": "hand", "over_seconds": "0", "at": "10:05"}
    r = edit(client, mahjong_table, "time", form, expect=400)
    assert beside(r.text, "time_over_seconds") == "the seconds over the limit, 1 or more"
    assert '<option value="hand" selected>' in r.text and 'value="10:05"' in r.text


def test_a_refused_waiver_is_said_beside_the_penalty_chosen(client, mahjong_table):
    edit(client, mahjong_table, "time", {"seat": "N", "limit": "turn", "over_seconds": "20"})
    r = edit(client, mahjong_table, "waive", {"index": "x", "reason": "clock fault"}, expect=400)
    assert beside(r.text, "waive_index") == "a whole number from 0 to 10000"
    assert 'value="clock fault"' in r.text and '<details id="waive" open>' in r.text


def test_a_team_short_of_players_is_said_beside_the_players(client):
    event_id = create_event(client, "Teams", "round-robin", game="xiangqi", teams="2")
    r = post(client, event_id, "/teams", {"name": "Reds", "players": "a1=2000"})
    assert r.status_code == 400
    assert beside(r.text, "players") == "A team needs at least 2 players, one per board (1 listed)."
    assert 'value="Reds"' in r.text and ">a1=2000</textarea>" in r.text


def test_a_half_end_time_refused_is_said_beside_that_tables_time(event4, client):
    event_id, _ = event4
    assert post(client, event_id, "/rounds/1/signals/1").status_code == 303
    r = post(client, event_id, "/rounds/1/tables/2/half-end", {"at": "25:99"})
    assert r.status_code == 400
    assert beside(r.text, "at") == "End time: HH:MM or HH:MM:SS, or empty for now."
    assert 'value="25:99"' in r.text and r.text.count('aria-invalid="true"') == 1


def test_a_signal_given_too_early_is_said_at_the_top_of_the_round_control(event4, client):
    event_id, _ = event4
    r = post(client, event_id, "/rounds/1/signals/2")
    assert r.status_code == 409
    found = re.search(r'id="desk-error">([^<]+)<', r.text)
    assert found and 'id="control"' in r.text
    assert r.text.index('id="control"') < r.text.index('id="desk-error"')


def test_a_card_left_out_of_the_draw_is_said_beside_that_entrants_card(client):
    event_id = create_event(client, "KO", "knockout", game="xiangqi", games_per_tie="1")
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    form = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": ""}
    form |= {"name_3": "Cy", "card_3": "1B", "name_4": "Di", "card_4": "2R"}
    r = post(client, event_id, "/draw", form)
    assert r.status_code == 400
    assert beside(r.text, "card_2") == "The card drawn by Bo: a number and R or B, or K."
    assert 'name="card_3" maxlength="8"' in r.text and 'value="1B"' in r.text
