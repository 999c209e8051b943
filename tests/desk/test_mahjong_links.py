"""The players of a Mahjong table enter its session by their seats' links (issue 35 §1,
`ball.games.mahjong.tournament.seat_links`, `ball.games.mahjong.web.entry`): over HTTP
against the app on a real SQLite file — one seat enters, another confirms, the desk
approves; a dispute; the desk's sheet wins; dead links; a token of one table refused on
another; a stranger throttled; auto-accept; bad hands refused."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from ball.tournament.models import LogEntry
from ball.web.core.deps import service_for

from .conftest import desk_event, post
from .test_mahjong_desk import seat_mahjong

# E wins on S's discard (8 fan), W self-drawn (10), a draw, N on E's discard (12), MCR:
# E 32-18-20 = -6, S -16-18-8 = -42, W -8+54-8 = 38, N -8-18+36 = 10.
HANDS = {
    "h1_outcome": "discard", "h1_winner": "E", "h1_discarder": "S", "h1_fan": "8",
    "h2_outcome": "self_drawn", "h2_winner": "W", "h2_fan": "10",
    "h3_outcome": "draw",
    "h4_outcome": "discard", "h4_winner": "N", "h4_discarder": "E", "h4_fan": "12",
}  # fmt: skip
SCORES = [-6, -42, 38, 10]
TOTALS = {"t_E": "-6", "t_S": "-42", "t_W": "+38", "t_N": "10"}
OTHER = {**HANDS, "h4_fan": "13"}  # another result of the same table


@pytest.fixture
def seated(request, client):
    return desk_event(request, client, seat_mahjong)


def _tokens(client, event_id: int, number: int = 1) -> dict[int, dict[str, str]]:
    return service_for(client.app).seat_links.seat_link_tokens(event_id, number)


def _log(client, event_id: int) -> list[tuple[str, str]]:
    with client.app.state.sessions() as s:
        rows = s.scalars(
            select(LogEntry).where(LogEntry.event_id == event_id).order_by(LogEntry.id)
        )
        return [(r.kind, r.detail) for r in rows]


def _table(client, event_id: int, table: int) -> dict:
    return service_for(client.app).mahjong_desk.mahjong_session(event_id, 1)["tables"][table - 1]


def test_one_seat_enters_another_confirms_and_the_desk_approves(client, seated):
    links = _tokens(client, seated)[1]
    assert set(links) == {"E", "S", "W", "N"} and len(set(links.values())) == 4
    seats = _table(client, seated, 1)["seats"]
    page = client.get(f"/t/{links['E']}")
    assert page.status_code == 200 and all(name in page.text for name in seats.values())
    sent = client.post(f"/t/{links['E']}", data={**HANDS, **TOTALS}, follow_redirects=False)
    assert sent.status_code == 303, sent.text
    other = client.get(f"/t/{links['S']}")
    assert 'id="confirm"' in other.text and 'data-state="entered"' in other.text
    assert "-42" in other.text  # the scores the entry gives, shown to confirm
    assert client.get(f"/t/{links['E']}").text.count('id="confirm"') == 0  # not its own
    answered = client.post(f"/t/{links['S']}/answer", data={"agree": "yes"},
                           follow_redirects=False)  # fmt: skip
    assert answered.status_code == 303
    assert not _table(client, seated, 1)["closed"]  # confirmed: waits for the desk
    desk = client.get(f"/desk/{seated}/sessions/1")
    assert 'id="entry-1" data-state="confirmed"' in desk.text
    approved = post(client, seated, "/sessions/1/entries/1/approve")
    assert approved.status_code == 303, approved.text
    row = _table(client, seated, 1)
    assert row["closed"] and row["scores"] == SCORES
    # the desk's sheet page shows the stored hands (the desk's own close stored them)
    assert service_for(
        client.app
    ).mahjong_desk.mahjong_table(seated, 1, 1)["scored"].scores == tuple(SCORES)
    # dead once the sheet is in: every seat's link refuses
    again = client.post(f"/t/{links['W']}", data=OTHER, follow_redirects=False)
    assert again.status_code == 409 and 'id="closed"' in again.text
    assert _table(client, seated, 1)["scores"] == SCORES
    log = _log(client, seated)
    assert [k for k, _ in log[-3:]] == ["qr-entry", "qr-confirm", "result"]
    assert log[-3][1] == "E via QR: E -6, S -42, W +38, N +10"
    assert log[-2][1] == "S via QR confirms E's entry"
    assert log[-1][1] == "entered by E via QR, confirmed by S via QR, approved by the desk"


def test_entering_the_same_hands_confirms_other_hands_dispute(client, seated):
    links = _tokens(client, seated)[2]
    client.post(f"/t/{links['N']}", data=HANDS)
    client.post(f"/t/{links['W']}", data=HANDS)  # the same hands: a confirmation
    assert service_for(client.app).seat_links.seat_entries(seated, 1)[2].state == "confirmed"
    links = _tokens(client, seated)[3]
    client.post(f"/t/{links['E']}", data=HANDS)
    sent = client.post(f"/t/{links['S']}", data=OTHER, follow_redirects=False)
    assert sent.status_code == 303
    entry = service_for(client.app).seat_links.seat_entries(seated, 1)[3]
    assert (entry.state, entry.side, entry.answered_by) == ("disputed", "E", "S")
    assert _log(client, seated)[-1][0] == "qr-dispute"
    assert "S via QR disputes E's entry, entering:" in _log(client, seated)[-1][1]
    desk = client.get(f"/desk/{seated}/sessions/1")
    assert 'id="entry-3" data-state="disputed"' in desk.text
    # after a dispute any seat may enter again
    assert client.post(f"/t/{links['W']}", data=HANDS, follow_redirects=False).status_code == 303
    assert service_for(client.app).seat_links.seat_entries(seated, 1)[3].side == "W"


def test_the_desks_sheet_wins_and_kills_the_links(client, seated):
    svc = service_for(client.app)
    links = _tokens(client, seated)[1]
    client.post(f"/t/{links['E']}", data=HANDS)
    client.post(f"/t/{links['S']}/answer", data={"agree": "no"})
    hand = {"winner": "W", "discarder": "N", "fan": 8}
    version = svc.mahjong_desk.edit_mahjong_table(seated, 1, 1, "hand", hand, expected_version=0)
    # the desk's own close
    svc.mahjong_desk.close_mahjong_table(seated, 1, 1, expected_version=version)
    assert _table(client, seated, 1)["scores"] == [-8, -8, 32, -16]
    entry = svc.seat_links.seat_entries(seated, 1)[1]
    assert (entry.state, entry.answered_by) == ("replaced", "desk")
    assert _log(client, seated)[-1] == (
        "result", "entered by the desk over the players' entry (disputed by E via QR)"
    )
    for wind in "ESWN":
        assert client.post(f"/t/{links[wind]}", data=HANDS).status_code == 409
        assert client.post(f"/t/{links[wind]}/answer", data={"agree": "yes"}).status_code == 409
    assert _table(client, seated, 1)["scores"] == [-8, -8, 32, -16]
    # an approval has nothing left to store
    assert post(client, seated, "/sessions/1/entries/1/approve").status_code == 409


def test_auto_accept_stores_a_confirmed_entry_at_once(client, seated):
    service_for(client.app).table_links.set_accepts_confirmed(seated, True)
    links = _tokens(client, seated)[4]
    client.post(f"/t/{links['S']}", data=HANDS)
    client.post(f"/t/{links['N']}/answer", data={"agree": "yes"})
    assert _table(client, seated, 4)["scores"] == SCORES
    assert _log(client, seated)[-1][1] == (
        "entered by S via QR, confirmed by N via QR, accepted by itself"
    )
    # a table whose sheet the desk is entering hand by hand waits for the desk instead
    svc = service_for(client.app)
    svc.mahjong_desk.edit_mahjong_table(seated, 1, 3, "hand", {"draw": True}, expected_version=0)
    links = _tokens(client, seated)[3]
    client.post(f"/t/{links['E']}", data=HANDS)
    client.post(f"/t/{links['W']}/answer", data={"agree": "yes"})
    assert svc.seat_links.seat_entries(seated, 1)[3].state == "confirmed"
    assert not _table(client, seated, 3)["closed"]
    assert svc.mahjong_desk.mahjong_table(seated, 1, 3)["doc"]["hands"] == [{"draw": True}]


def test_bad_hands_are_refused_and_nothing_is_stored(client, seated):
    links = _tokens(client, seated)[1]
    cases = [
        # under the 8-fan minimum (the desk's own check)
        ({**HANDS, "h1_fan": "6"}, "hand 1.fan: 6 is under the minimum of 8"),
        ({**HANDS, **TOTALS, "t_E": "-7"}, "totals"),  # the table's totals disagree
        ({**HANDS, "h3_outcome": ""}, "hand 3"),  # a gap before a later hand
        ({**HANDS, "h2_winner": "X"}, "hand 2: winner"),
        ({}, "hands"),
    ]
    for form, words in cases:
        sent = client.post(f"/t/{links['E']}", data=form)
        assert sent.status_code == 400 and words in sent.text, (form, sent.text[-400:])
    assert service_for(client.app).seat_links.seat_entries(seated, 1) == {}
    assert client.post(f"/t/{links['S']}/answer", data={"agree": "yes"}).status_code == 409


def test_a_token_opens_its_own_seat_and_table_only(client, seated):
    tokens = _tokens(client, seated)
    head, mac = tokens[1]["E"][:-23], tokens[1]["E"][-22:]  # the MAC is 22 characters
    assert head.endswith("-1e")
    # table 1's MAC on table 2, or on another seat of table 1: no table has that link
    for moved in (head[:-2] + "2e", head[:-1] + "s"):
        assert client.get(f"/t/{moved}-{mac}").status_code == 404
    assert client.get(f"/t/{tokens[2]['E']}").status_code == 200


def test_a_strangers_guesses_are_throttled(client, seated):
    good = _tokens(client, seated)[1]["W"]
    forged = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    for _ in range(5):
        assert client.get(f"/t/{forged}").status_code == 404
    locked = client.get(f"/t/{forged}")
    assert locked.status_code == 429 and "Retry-After" in locked.headers
    assert client.get(f"/t/{good}").status_code == 429  # a locked address learns nothing


def test_a_cross_site_post_is_refused(client, seated):
    token = _tokens(client, seated)[1]["E"]
    refused = client.post(f"/t/{token}", data=HANDS, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403
    assert service_for(client.app).seat_links.seat_entries(seated, 1) == {}


def test_a_session_links_die_when_the_next_session_is_seated(client, seated):
    svc = service_for(client.app)
    old = _tokens(client, seated)[1]["E"]
    for table in (1, 2, 3, 4):  # the arbiter's sheets close the session
        seats = _table(client, seated, table)["seats"]
        svc.sessions.enter_session_sheet({
            "table": table, "seats": seats, "hands": [{"draw": True}]
        },
                                round_number=1, event=seated)  # fmt: skip
    assert svc.seat_links.open_seat_link(old).closed == "result-in"
    svc.sessions.seat_session(method="ranking", event=seated)
    assert svc.seat_links.open_seat_link(old).closed == "round-closed"
    refused = client.post(f"/t/{old}", data=HANDS)
    assert refused.status_code == 409 and 'id="closed"' in refused.text
    fresh = _tokens(client, seated, 2)[1]
    assert fresh["E"] != old and client.get(f"/t/{fresh['E']}").status_code == 200
