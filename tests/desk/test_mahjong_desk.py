"""The desk's Mahjong pages (issue 18): a Mahjong event created at the desk, sessions
seated (random, template CSV, by ranking, balanced) with the seating check shown, and a
table's score sheet entered hand by hand — hands (fan or tiles, 8-fan minimum), rulings of
seed 003 (false win WC 6, dead hands LS 3-4 / WC 5, time TL 1-2, the waiver TL 6, the
80-point line TL 7), the sum-to-zero check, the 409 of two saves at once, closing a table
(table points 4/2/1/0, ties sharing) and a correction with its reason."""

from __future__ import annotations

import re

import pytest

from ball.web.core.deps import service_for

from .conftest import CSRF, PIN, create_event, csrf_of, desk_event, post

NAMES = [f"P{i}" for i in range(1, 17)]


def mahjong_event(client, players=NAMES, sessions="4", hands="4") -> int:
    event_id = create_event(client, name="MJ Open", game="mahjong", rounds=sessions, hands=hands)
    for i, name in enumerate(players):
        r = post(client, event_id, "/entrants", {"name": name, "club": f"Team {i % 4}"})
        assert r.status_code == 303, r.text
    return event_id


def seat(client, event_id: int, **form) -> str:
    r = post(client, event_id, "/sessions", form)
    assert r.status_code == 303, r.text
    return r.headers["location"]


def loaded_form(client, url: str) -> tuple[str, str]:
    """The sheet page's CSRF token and version, from one read of it: what a browser posts
    back is the form it loaded (reading the page once for each was a second render of it
    before every edit)."""
    page = client.get(url)
    assert page.status_code == 200, page.text
    token = CSRF.search(page.text)
    assert token, f"no CSRF field on {url}"
    return token.group(1), re.search(r'name="version" value="(-?\d+)"', page.text).group(1)


def edit(client, event_id: int, table_url: str, what: str, form: dict, expect: int = 303):
    token, loaded = loaded_form(client, table_url)
    r = client.post(f"{table_url}/{what}", data={"csrf": token, "version": loaded, **form},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == expect, r.text
    return r


def seat_mahjong(client) -> int:
    event_id = mahjong_event(client)
    assert seat(client, event_id, method="random") == f"/desk/{event_id}/sessions/1"
    return event_id


# Built through the forms once per test process and copied (tests/desk/conftest.py).
BUILT_EVENTS = {"seated": seat_mahjong}


@pytest.fixture
def seated(request, client):
    return desk_event(request, client, seat_mahjong)


def seats_of(app, event_id: int, table: int, session: int = 1) -> dict[str, str]:
    tables = service_for(app).sessions.session_tables(session, event=event_id)["tables"]
    return tables[table - 1]["seats"]



BIG_THREE = {  # Big Three Dragons 88, Half Flush 6, Melded Kong 1: 95 fan (docs/mahjong.md)
    "tiles": "W2 W3 W6 W6", "melds": "GANG J1, PENG J2, PENG J3", "win_tile": "W4",
}


def stored_version(app, event_id: int, table: int) -> int:
    return service_for(app).mahjong_desk.mahjong_table(event_id, 1, table)["version"]


def test_a_mahjong_event_is_created_and_seated_at_the_desk(client, app):
    event_id = mahjong_event(client)
    page = client.get(f"/desk/{event_id}")
    assert 'id="seat-session"' in page.text and 'value="random"' in page.text
    assert 'id="pair-next"' not in page.text  # sessions, not rounds of two-player games
    # standings by table points live on the sessions' pages: no link to the two-player
    # standings page (its tie-break chain has no meaning for tables of four)
    assert f'href="/desk/{event_id}/standings"' not in page.text
    assert seat(client, event_id, method="random") == f"/desk/{event_id}/sessions/1"
    session = client.get(f"/desk/{event_id}/sessions/1").text
    assert session.count('class="open"') == 4  # four tables of four, none closed
    assert "Repeat meetings over sessions 1–1: 0 (the least possible: 0)" in session
    assert "Team-mates at one table" in session
    # the next session waits for every sheet of this one
    r = post(client, event_id, "/sessions", {"method": "balanced"})
    assert r.status_code == 400 and "still has tables without a sheet: 1, 2, 3, 4" in r.text


def test_the_first_session_from_a_template_csv(client, app):
    event_id = mahjong_event(client, sessions="2")
    rows = "\n".join(f"1,{t},{4 * t - 3},{4 * t - 2},{4 * t - 1},{4 * t}" for t in range(1, 5))
    bad = post(client, event_id, "/sessions", {"method": "template", "csv": "session,table\n1"})
    assert bad.status_code == 400 and "seating" in bad.text
    assert service_for(app).desk.event_page(event_id).rounds_ == []  # nothing seated
    seat(client, event_id, method="template", csv="session,table,E,S,W,N\n" + rows)
    assert seats_of(app, event_id, 2) == {"E": "P5", "S": "P6", "W": "P7", "N": "P8"}


def test_hands_by_fan_and_by_tiles_with_running_totals(client, app, seated):
    url = f"/desk/{seated}/sessions/1/tables/1"
    edit(client, seated, url, "hand", {"outcome": "discard", "winner": "E", "discarder": "S",
                                       "fan": "8"})  # fmt: skip
    edit(client, seated, url, "hand", {"outcome": "discard", "winner": "W", "discarder": "E",
                                       **BIG_THREE})  # fmt: skip
    edit(client, seated, url, "hand", {"outcome": "self_drawn", "winner": "N", "fan": "10"})
    edit(client, seated, url, "hand", {"outcome": "draw"})
    page = client.get(url).text
    totals = [re.findall(r'class="total" data-label="[ESWN]">(-?\d+)<', row)
              for row in re.findall(r'<tr class="hand".*?</tr>', page, re.S)]  # fmt: skip
    # MCR: discarder pays 8 + fan, the others 8; self-drawn each pays 8 + fan
    assert totals == [["32", "-16", "-8", "-8"], ["-71", "-24", "111", "-16"],
                      ["-89", "-42", "93", "38"], ["-89", "-42", "93", "38"]]  # fmt: skip
    assert "W wins on E&#39;s discard, 95 fan" in page
    assert "Sum of the hands: 0 ✓" in page


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"outcome": "discard", "winner": "E", "discarder": "S", "fan": "7"},
         "Hand 1: 7 fan is under the 8-fan minimum."),  # beside the fan, counted from 1
        ({"outcome": "discard", "winner": "E", "discarder": "S", "tiles": "W1 W2 W3 W4 W5 W6 "
          "W7 W8 W9 T1 T2 T3 B1", "win_tile": "B9"}, "Hand 1: the tiles"),
        ({"outcome": "discard", "winner": "E", "discarder": "E", "fan": "8"}, "discarder"),
        ({"outcome": "discard", "winner": "X", "discarder": "S", "fan": "8"},
         "winner: a seat is E, S, W or N"),
        ({"outcome": "won", "winner": "E", "fan": "8"}, "outcome"),
        ({"outcome": "self_drawn", "winner": "E", "fan": "-3"}, "fan: a whole number"),
        ({"outcome": "self_drawn", "winner": "E", "tiles": "W1", "melds": "PENG", "win_tile":
          "W1"}, "melds:"),
    ],
)  # fmt: skip
def test_a_refused_hand_names_the_field_and_stores_nothing(client, app, seated, form, message):
    url = f"/desk/{seated}/sessions/1/tables/1"
    r = edit(client, seated, url, "hand", form, expect=400)
    assert message in r.text.replace("&#39;", "'")
    assert 'id="save-error"' in r.text
    assert 'aria-invalid="true"' in r.text  # the field it is about, marked (issue 36 item 12)
    assert stored_version(app, seated, 1) == 0


def test_rulings_false_win_dead_hand_time_waiver_and_the_80_point_line(client, app, seated):
    url = f"/desk/{seated}/sessions/1/tables/2"
    # WC 6, 8: a false win, -30 shared +10 to each other (the championship's amounts)
    edit(client, seated, url, "penalty", {"kind": "false-win", "seat": "N", "tiles": "3",
                                          "at": "10:42"})  # fmt: skip
    edit(client, seated, url, "hand", {"outcome": "discard", "winner": "E", "discarder": "S",
                                       "fan": "8"})  # fmt: skip
    # LS 4: a long hand is dead; it cannot win the hand (refused, nothing stored)
    edit(client, seated, url, "penalty", {"kind": "long-hand", "seat": "W"})
    before = stored_version(app, seated, 2)
    r = edit(client, seated, url, "hand", {"outcome": "self_drawn", "winner": "W", "fan": "8"},
             expect=400)  # fmt: skip
    assert "Hand 2: W&#39;s hand is dead; it cannot win" in r.text  # counted from one
    assert stored_version(app, seated, 2) == before
    # TL 2: 20 s over the turn limit is two started 15 s: 10 points
    edit(client, seated, url, "time", {"seat": "S", "limit": "turn", "over_seconds": "20"})
    edit(client, seated, url, "hand", {"outcome": "draw"})
    # TL 1 + TL 7: 240 s over the hand budget, 80 points: pending the arbiter's confirmation
    edit(client, seated, url, "time", {"seat": "E", "limit": "hand", "over_seconds": "240"})
    page = client.get(url).text
    assert 'id="confirm-unwilling-E"' in page
    edit(client, seated, url, "penalty", {"kind": "unwilling", "seat": "E"})
    assert 'id="confirm-unwilling-E"' not in client.get(url).text
    # TL 6: the referee waives the 80 points with good reason
    edit(client, seated, url, "waive", {"index": "1", "reason": "clock fault"})
    r = edit(client, seated, url, "waive", {"index": "1", "reason": "again"}, expect=400)
    assert "already waived" in r.text
    edit(client, seated, url, "hand", {"outcome": "draw"})
    sheet = service_for(app).mahjong_desk.mahjong_table(seated, 1, 2)
    log = sheet["scored"].log
    assert [(e["hand"], e["article"], e["ruling"]) for e in log] == [
        (1, "WC 6", "false_win"), (2, "LS 4", "dead_hand"), (2, "TL 2", "turn_overrun"),
        (3, "TL 1", "hand_overrun"), (3, "TL 7", "unwilling_to_continue"), (3, "TL 6", "waiver"),
    ]  # fmt: skip
    assert log[0]["at"] == 10 * 3600 + 42 * 60 and log[0]["penalty_tiles"] == 3
    assert sheet["scored"].penalty_points == (10, 10 - 10, 10, -30)
    assert sheet["scored"].scores == (32 + 10, -16 + 0, -8 + 10, -8 - 30)


def test_two_saves_at_once_the_second_is_409_and_nothing_is_overwritten(client, app, seated):
    url = f"/desk/{seated}/sessions/1/tables/3"
    token, loaded = loaded_form(client, url)
    first = {"csrf": token, "version": loaded, "outcome": "discard", "winner": "E",
             "discarder": "S", "fan": "8"}  # fmt: skip
    second = {**first, "winner": "N", "fan": "12"}
    assert client.post(f"{url}/hand", data=first, follow_redirects=False).status_code == 303
    r = client.post(f"{url}/hand", data=second, follow_redirects=False)
    assert r.status_code == 409 and "Nothing was overwritten" in r.text
    doc = service_for(app).mahjong_desk.mahjong_table(seated, 1, 3)["doc"]
    assert doc["hands"] == [{"winner": "E", "discarder": "S", "fan": 8}]
    r = client.post(f"{url}/close", data={"csrf": token, "version": loaded},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 409


def test_close_a_table_tie_shares_points_then_a_correction_needs_a_reason(client, app, seated):
    url = f"/desk/{seated}/sessions/1/tables/4"
    r = edit(client, seated, url, "close", {}, expect=400)
    assert "no hand has been entered" in r.text
    # E self-drawn 8 fan: E +48, each other -16: three tied second share 2+1+0 = 1 each
    edit(client, seated, url, "hand", {"outcome": "self_drawn", "winner": "E", "fan": "8"})
    edit(client, seated, url, "penalty", {"kind": "short-hand", "seat": "S"})  # hand in play
    r = edit(client, seated, url, "close", {}, expect=400)
    assert "penalties[0].hand: the sheet has 1 hands" in r.text
    edit(client, seated, url, "undo", {})
    edit(client, seated, url, "close", {})
    tables = service_for(app).sessions.session_tables(1, event=seated)["tables"]
    assert tables[3]["scores"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    assert tables[3]["table_points"] == {"E": "4", "S": "1", "W": "1", "N": "1"}
    standings = service_for(app).sessions.session_standings(event=seated)["standings"]
    assert standings[0]["name"] == seats_of(app, seated, 4)["E"]
    assert 'id="closed-note"' in client.get(url).text
    # a closed table: the same sheet again is no correction; a changed one needs a reason
    r = edit(client, seated, url, "close", {"reason": "x"}, expect=400)
    assert "unchanged" in r.text
    edit(client, seated, url, "hand", {"outcome": "discard", "winner": "W", "discarder": "E",
                                       "fan": "8"})  # fmt: skip
    assert tables == service_for(app).sessions.session_tables(1, event=seated)["tables"]  # locked
    r = edit(client, seated, url, "close", {"reason": "  "}, expect=400)
    assert "a correction needs a reason" in r.text
    edit(client, seated, url, "close", {"reason": "hand 2 was left off the sheet"})
    after = service_for(app).sessions.session_tables(1, event=seated)["tables"][3]
    assert after["scores"] == {"E": 48 - 16, "S": -16 - 8, "W": -16 + 32, "N": -16 - 8}
    assert after["table_points"] == {"E": "4", "S": "1/2", "W": "2", "N": "1/2"}


def test_pages_that_do_not_exist_are_404_and_a_desk_session_is_needed(client, app, seated):
    assert client.get(f"/desk/{seated}/sessions/2").status_code == 404
    assert client.get(f"/desk/{seated}/sessions/1/tables/5").status_code == 404
    url = f"/desk/{seated}/sessions/1/tables/1"
    assert edit(client, seated, url, "nonsense", {}, expect=404)
    ball = create_event(client, name="Ball Cup")
    assert client.get(f"/desk/{ball}/sessions/1").status_code == 404
    client.cookies.clear()
    r = client.post(f"{url}/hand", data={"outcome": "draw", "version": "0"},
                    headers={"Origin": "http://testserver"}, follow_redirects=False)  # fmt: skip
    assert r.status_code == 401
    assert PIN  # the event's PIN opens the desk again (conftest)


def test_once_every_hand_is_in_rulings_go_to_the_last_hand(client, app, seated):
    # the event has 4 hands a session; a time penalty after the last hand is that hand's
    url = f"/desk/{seated}/sessions/1/tables/1"
    for _ in range(4):
        edit(client, seated, url, "hand", {"outcome": "draw"})
    page = client.get(url).text
    assert 'id="hand-form"' not in page and "All 4 hands of the session are entered." in page
    edit(client, seated, url, "time", {"seat": "W", "limit": "hand", "over_seconds": "1"})
    r = edit(client, seated, url, "hand", {"outcome": "draw"}, expect=400)
    assert "hands: 5 hands, the session has at most 4" in r.text
    sheet = service_for(app).mahjong_desk.mahjong_table(seated, 1, 1)
    assert sheet["doc"]["time_penalties"][0]["hand"] == 4
    edit(client, seated, url, "undo", {})  # the ruling goes first, then the hands
    assert service_for(app).mahjong_desk.mahjong_table(seated, 1, 1)["doc"]["time_penalties"] == []
    edit(client, seated, url, "time", {"seat": "W", "limit": "hand", "over_seconds": "1"})
    edit(client, seated, url, "close", {})
    tables = service_for(app).sessions.session_tables(1, event=seated)["tables"]
    assert tables[0]["scores"] == {"E": 0, "S": 0, "W": -5, "N": 0}  # TL 1: 5 points
    assert tables[0]["table_points"] == {"E": "7/3", "S": "7/3", "W": "0", "N": "7/3"}


def test_time_penalties_come_from_the_tables_bound_mahjong_clock(client, app, seated, clock):
    # TL 1, 2 and M-09: the clock charges 5 points per started 15 s; the sheet takes what it
    # charged, once, from the clock bound to this event for this table only.
    from ball.clocks.store import ClockStore

    url = f"/desk/{seated}/sessions/1/tables/2"
    r = edit(client, seated, url, "from-clock", {}, expect=400)
    assert "no table clock of this event for table 2 under the round label" in r.text
    assert "&#39;MJ Open R1&#39;" in r.text
    seats = seats_of(app, seated, 2)
    store = ClockStore(app.state.sessions, clock)
    names = [seats[w] for w in "ESWN"]
    store.create("9", "mahjong-wmc", "1357", players=names, round="MJ Open R1", event_id=seated)
    store.create("2", "mahjong-wmc", "1357", players=names, round="MJ Open R1")  # unbound
    view = store.create("Table 2", "mahjong-wmc", "1357", players=names, round="MJ Open R1",
                        event_id=seated)  # fmt: skip
    key = store.key_of(view.id)[1]  # the table's device, with the desk's key
    store.record(view.id, "start", {"first": names[0]}, key=key)
    clock.advance(40)  # E: 25 s over the 15 s turn: two started 15 s, 10 points
    store.record(view.id, "press", {}, key=key)
    clock.advance(5)
    edit(client, seated, url, "from-clock", {})
    edit(client, seated, url, "from-clock", {})  # taken once
    sheet = service_for(app).mahjong_desk.mahjong_table(seated, 1, 2)
    charged = store.view(view.id).clock.snapshot()["players"][0]["total_penalty_points"]
    assert charged == 10
    assert sheet["scored"].penalty_points == (-charged, 0, 0, 0)
    assert [(e["article"], e["seat"]) for e in sheet["scored"].log] == [("TL 2", 0)] * 2


WRONG_CALLS = [  # seed 003 WC 1-5, 7 and LS 3: the form, the article, the penalty tiles
    ({"kind": "corrected-exposure", "tiles": "2"}, "WC 1", 2),
    ({"kind": "changed-call"}, "WC 2", 0),
    ({"kind": "cancelled-call"}, "WC 3", 2),
    ({"kind": "cancelled-kong"}, "WC 4", 0),
    ({"kind": "late-exposure", "after_replacement": "on"}, "WC 5", 0),
    ({"kind": "withdrawn-win", "tiles": "2"}, "WC 7", 2),
    ({"kind": "short-hand"}, "LS 3", 0),
]


def test_every_wrong_call_ruling_is_a_log_line(client, app, seated):
    url = f"/desk/{seated}/sessions/1/tables/3"
    for form, article, tiles in WRONG_CALLS:
        edit(client, seated, url, "penalty", {"seat": "S", "at": "9:05", **form})
        (entry,) = service_for(app).mahjong_desk.mahjong_table(seated, 1, 3)["scored"].log
        assert (entry["article"], entry["seat"], entry["penalty_tiles"]) == (article, 1, tiles)
        assert entry["at"] == 9 * 3600 + 5 * 60 and entry["hand"] == 1
        assert article in client.get(url).text
        edit(client, seated, url, "undo", {})  # taken back: the next one is alone on the log


def test_five_simultaneous_saves_one_hand_stored_the_others_409(client, app, seated):
    # Five judges' phones save hand 1 at once from the same version: one change is stored;
    # the very same form again is answered like it (a re-sent form, stored once), every
    # other form is 409 with nothing overwritten.
    import threading

    from fastapi.testclient import TestClient

    url = f"/desk/{seated}/sessions/1/tables/1"
    judges = []
    for _ in range(5):
        c = TestClient(app)
        c.post(f"/desk/{seated}/login", data={"pin": PIN})
        judges.append((c, csrf_of(c, url)))
    barrier = threading.Barrier(len(judges))
    codes: list[tuple[str, int]] = []
    errors: list[str] = []

    def save(c, token, winner):
        barrier.wait()
        form = {"csrf": token, "version": "0", "outcome": "self_drawn", "winner": winner,
                "fan": "8"}  # fmt: skip
        r = c.post(f"{url}/hand", data=form, follow_redirects=False)
        codes.append((winner, r.status_code))
        if r.status_code == 400:
            errors.append(re.search(r'id="save-error">([^<]*)<', r.text).group(1))

    threads = [threading.Thread(target=save, args=(c, t, "E" if i % 2 else "N"))
               for i, (c, t) in enumerate(judges)]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c, _ in judges:
        c.close()
    sheet = service_for(app).mahjong_desk.mahjong_table(seated, 1, 1)
    (hand,) = sheet["doc"]["hands"]
    won = hand["winner"]
    assert sorted(code for w, code in codes if w == won) == [303] * (2 if won == "E" else 3)
    assert {code for w, code in codes if w != won} == {409}, errors
    assert sheet["version"] == 1
