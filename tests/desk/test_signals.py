"""Common start signals (spec 15): signal 2 only after the last first half + the gap."""

from __future__ import annotations

import re

import pytest

from ball.games import GAMES, GameBase
from ball.games.ball.engine import load_ruleset
from ball.tournament import signals
from ball.tournament.errors import TournamentError

from .conftest import post

GAP = load_ruleset().time["second_half_signal_gap_minutes"] * 60


def control(client, event_id, number=1):
    response = client.get(f"/desk/{event_id}/rounds/{number}/control.json")
    assert response.status_code == 200
    return response.json()


def three_minutes() -> float:
    return 3.0


def test_the_gap_is_the_one_the_events_game_sets(monkeypatch):
    assert signals.gap_seconds("ball") == GAP  # BALL's ruleset's parameter
    assert signals.gap_seconds("xiangqi") == signals.gap_seconds() == 600  # sets none
    rules = {"name": "rested", "signal_gap": f"{__name__}:three_minutes"}
    monkeypatch.setitem(GAMES, "rested", type("Rested", (GameBase,), rules)())
    assert signals.gap_seconds("rested") == 180


def test_signal_2_needs_signal_1_then_every_first_half_then_the_gap(client, event4, clock):
    event_id, tables = event4
    assert control(client, event_id)["still_playing"] == []
    early = post(client, event_id, "/rounds/1/signals/2")
    assert early.status_code == 409 and "signal 1 has not been given" in early.text

    assert post(client, event_id, "/rounds/1/signals/1").status_code == 303
    state = control(client, event_id)
    assert state["signal1"] == clock.t
    assert state["still_playing"] == [1, 2]
    assert state["earliest_signal2"] is None

    clock.advance(20 * 60)
    assert post(client, event_id, "/rounds/1/tables/2/half-end").status_code == 303
    refused = post(client, event_id, "/rounds/1/signals/2")
    assert refused.status_code == 409 and "table(s) 1 still play" in refused.text

    clock.advance(3 * 60)
    last_end = clock.t
    assert post(client, event_id, "/rounds/1/tables/1/half-end").status_code == 303
    state = control(client, event_id)
    assert state["still_playing"] == []
    assert state["earliest_signal2"] == last_end + GAP
    assert state["seconds_to_signal2"] == GAP

    clock.advance(GAP - 1)
    assert control(client, event_id)["seconds_to_signal2"] == 1
    too_early = post(client, event_id, "/rounds/1/signals/2")
    assert too_early.status_code == 409 and "too early by 1 s" in too_early.text

    clock.advance(1)
    assert post(client, event_id, "/rounds/1/signals/2").status_code == 303
    state = control(client, event_id)
    assert state["signal2"] == last_end + GAP
    again = post(client, event_id, "/rounds/1/signals/2")
    assert again.status_code == 409 and "already given" in again.text


def test_a_forfeited_table_does_not_hold_up_signal_2(client, event4, clock):
    event_id, _ = event4
    assert (
        post(
            client, event_id, "/rounds/1/tables/2", {"kind": "forfeit-B", "version": 0}
        ).status_code
        == 303
    )
    post(client, event_id, "/rounds/1/signals/1")
    assert control(client, event_id)["still_playing"] == [1]


def test_half_end_rules(client, event4, clock):
    event_id, _ = event4
    before = post(client, event_id, "/rounds/1/tables/1/half-end")
    assert before.status_code == 400 and "give signal 1" in before.text
    post(client, event_id, "/rounds/1/signals/1")
    future = post(client, event_id, "/rounds/1/tables/1/half-end", {"at": "23:59:59"})
    bad = post(client, event_id, "/rounds/1/tables/1/half-end", {"at": "25:00"})
    assert bad.status_code == 400 and "End time: HH:MM or HH:MM:SS" in bad.text
    nobody = post(client, event_id, "/rounds/1/tables/9/half-end")
    assert nobody.status_code == 400 and "table 9" in nobody.text
    # A time before signal 1 (or in the future) is refused, whatever the local day is.
    assert future.status_code == 400
    clock.advance(60)
    ok = post(client, event_id, "/rounds/1/tables/1/half-end", {"source": "table"})
    assert ok.status_code == 303
    table = control(client, event_id)["tables"][0]
    assert table["source"] == "table" and table["first_half_end"] == clock.t


def test_signals_are_stored_and_survive_a_new_app(client, event4, clock, tmp_path):
    event_id, _ = event4
    post(client, event_id, "/rounds/1/signals/1")
    from ball.web.app import create_app

    again = create_app(str(tmp_path / "desk.sqlite"))
    with again.state.sessions() as s:
        state = signals.round_control(s, event_id, 1, clock.t, GAP)
    assert state.signal1 == clock.t


def test_service_level_refusals(app, client, event4, clock):
    event_id, _ = event4
    with app.state.sessions() as s:
        with pytest.raises(TournamentError, match="not a signal"):
            signals.give_signal(s, event_id, 1, 3, clock.t, GAP)
        with pytest.raises(TournamentError, match="has not been paired"):
            signals.round_control(s, event_id, 5, clock.t, GAP)
        with pytest.raises(TournamentError, match="source"):
            signals.record_half_end(s, event_id, 1, 1, clock.t, "phone")


def test_the_round_page_shows_tables_playing_and_the_countdown(client, event4, clock):
    event_id, tables = event4
    post(client, event_id, "/rounds/1/signals/1")
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert "Waiting for tables still playing: 1, 2" in page
    clock.advance(1200)
    post(client, event_id, "/rounds/1/tables/1/half-end")
    post(client, event_id, "/rounds/1/tables/2/half-end")
    clock.advance(90)
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert "Signal 2 allowed in 8:30" in page
    assert 'id="signal-2" disabled' in page


def test_half_ends_can_come_from_the_table_clocks(client, app, event4, clock):
    from ball.clocks.store import ClockStore

    event_id, tables = event4
    store = ClockStore(app.state.sessions, clock)
    one = store.create(
        "Table 1",
        "ball-standard",
        "1357",
        players=[tables[0]["a"], tables[0]["b"]],
        round="Open R1",
        event_id=event_id,
    )
    two = store.create(
        "2",
        "ball-standard",
        "1357",
        players=[tables[1]["a"], tables[1]["b"]],
        round="Open R1",
        event_id=event_id,
    )
    store.create("1", "ball-standard", "1357", round="Other R1")  # another event's clock
    post(client, event_id, "/rounds/1/signals/1")
    for view in (one, two):
        key = store.key_of(view.id)[1]  # the table's device, with the desk's key
        store.record(view.id, "start", {"first": view.clock.players[0].name}, key=key)
    clock.advance(700)
    store.record(one.id, "end_period", {"reason": "touchdown"}, pin="1357")
    ended = clock.t
    clock.advance(30)
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert "Open R1" in page and 'id="from-clocks"' in page
    assert post(client, event_id, "/rounds/1/half-ends/from-clocks").status_code == 303
    state = control(client, event_id)
    assert state["still_playing"] == [2]  # table 2's clock is still in its first half
    assert state["tables"][0]["first_half_end"] == ended
    assert state["tables"][0]["source"] == "table"


def test_a_clock_made_without_the_desk_session_cannot_end_a_first_half(
    client, other_client, event4, clock
):
    """Issue 11 item 4: a visitor makes a PIN clock labelled like the round, ends its first
    period at once; the desk must not take that as table 1's first-half end."""
    event_id, tables = event4
    body = {"table": "1", "control": "ball-standard", "pin": "9999", "round": "Open R1"}
    made = other_client.post("/clock/api/clocks", json=body)
    assert made.status_code == 201
    forged = made.json()["id"]
    first = made.json()["state"]["players"][0]["name"]
    events = f"/clock/api/clocks/{forged}/events"
    assert other_client.post(events, json={"kind": "start", "data": {"first": first}}).is_success
    post(client, event_id, "/rounds/1/signals/1")
    clock.advance(60)
    end = {"kind": "end_period", "data": {"reason": "touchdown"}, "pin": "9999"}
    assert other_client.post(events, json=end).is_success
    assert post(client, event_id, "/rounds/1/half-ends/from-clocks").status_code == 303
    state = control(client, event_id)
    assert state["tables"][0]["first_half_end"] is None
    assert sorted(state["still_playing"]) == [1, 2]


def test_the_public_pairings_tell_players_when_the_second_halves_start(
    client, other_client, event4, clock
):
    from ball.web.core.timefmt import hms

    event_id, _ = event4
    url = f"/public/{event_id}/pairings"
    assert 'id="round-state"' not in other_client.get(url).text
    post(client, event_id, "/rounds/1/signals/1")
    assert "still playing: table 1, 2." in other_client.get(url).text
    clock.advance(1200)
    post(client, event_id, "/rounds/1/tables/1/half-end")
    post(client, event_id, "/rounds/1/tables/2/half-end")
    text = other_client.get(url).text
    assert f"Second halves start at {hms(clock.t + GAP)} at the earliest." in text
    clock.advance(GAP)
    post(client, event_id, "/rounds/1/signals/2")
    assert f"Second halves started at {hms(clock.t)}." in other_client.get(url).text


def test_the_result_check_needs_the_desk_session(client, other_client, event4):
    event_id, _ = event4
    response = other_client.post(f"/desk/{event_id}/rounds/1/tables/1/check", data={})
    assert response.status_code == 401


def test_the_clock_form_opened_from_a_round_binds_clocks_to_the_event(
    client, other_client, event4, clock
):
    event_id, tables = event4
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert f'href="/clock?event={event_id}&amp;round=Open%20R1"' in page
    form = client.get("/clock", params={"event": event_id, "round": "Open R1"}).text
    assert f'data-event="{event_id}"' in form and 'value="Open R1"' in form
    token = re.search(r'data-csrf="([^"]+)"', form).group(1)
    body = {"table": "1", "control": "ball-standard", "round": "Open R1", "event_id": event_id}
    made = client.post("/clock/api/clocks", json=body, headers={"X-CSRF-Token": token})
    assert made.status_code == 201 and made.json()["event_id"] == event_id
    # A visitor gets the plain form, and cannot bind a clock to the event.
    assert "data-event" not in other_client.get("/clock", params={"event": event_id}).text
    assert other_client.post("/clock/api/clocks", json=body).status_code == 401
