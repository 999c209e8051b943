"""Players enter their table's result by its link (issue 35 §1, `ball.web.desk.table_entry`,
`ball.tournament.table_links`): over HTTP against the app on a real SQLite file."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.web.core.deps import service_for

from .conftest import post, seat_event4

PB = {"h1_A_atk": "3", "h1_B_atk": "2", "h2_A_atk": "1", "h2_B_atk": "4"}
QUICK_1_0 = {"h1_td": "A", "h2_td": "", **PB}  # A scored in half 1: A wins 1-0
QUICK_0_1 = {"h1_td": "", "h2_td": "B", **PB}


def _tokens(client, event_id: int, number: int = 1) -> dict[int, dict[str, str]]:
    return service_for(client.app).table_links.table_link_tokens(event_id, number)


def _log(client, event_id: int) -> list[tuple[str, str]]:
    from sqlalchemy import select

    from ball.tournament.models import LogEntry

    with client.app.state.sessions() as s:
        rows = s.scalars(
            select(LogEntry).where(LogEntry.event_id == event_id).order_by(LogEntry.id)
        )
        return [(r.kind, r.detail) for r in rows]


def _stored(client, event_id: int, number: int, table: int):
    return service_for(client.app).desk.table(event_id, number, table).result


def test_one_side_enters_the_other_confirms_and_the_desk_approves(client):
    event_id = seat_event4(client)
    links = _tokens(client, event_id)[1]
    page = client.get(f"/t/{links['A']}")
    assert page.status_code == 200 and "Ann" in page.text and "Cy" in page.text or "Di" in page.text
    sent = client.post(f"/t/{links['A']}", data=QUICK_1_0, follow_redirects=False)
    assert sent.status_code == 303, sent.text
    other = client.get(f"/t/{links['B']}")
    assert 'id="confirm"' in other.text and "wins" in other.text
    assert _stored(client, event_id, 1, 1) is None  # entered, not stored
    answered = client.post(f"/t/{links['B']}/answer", data={"agree": "yes"}, follow_redirects=False)
    assert answered.status_code == 303
    assert _stored(client, event_id, 1, 1) is None  # confirmed: waits for the desk
    desk = client.get(f"/desk/{event_id}/rounds/1")
    assert 'data-state="confirmed"' in desk.text
    approved = post(client, event_id, "/rounds/1/tables/1/approve")
    assert approved.status_code == 303, approved.text
    result = _stored(client, event_id, 1, 1)
    assert result is not None and result["outcome"] == "A"
    # dead once the result is in: both links refuse further entries
    again = client.post(f"/t/{links['A']}", data=QUICK_0_1, follow_redirects=False)
    assert again.status_code == 409
    assert _stored(client, event_id, 1, 1)["outcome"] == "A"
    kinds = [k for k, _ in _log(client, event_id)]
    assert kinds[-3:] == ["qr-entry", "qr-confirm", "result"]
    assert "approved by the desk" in _log(client, event_id)[-1][1]


def test_a_different_entry_disputes_and_the_desk_entry_wins(client):
    event_id = seat_event4(client)
    links = _tokens(client, event_id)[2]
    client.post(f"/t/{links['A']}", data=QUICK_1_0)
    client.post(f"/t/{links['B']}", data=QUICK_0_1)
    assert service_for(client.app).table_links.player_entries(event_id, 1)[2].state == "disputed"
    desk = client.get(f"/desk/{event_id}/rounds/1")
    assert 'data-state="disputed"' in desk.text
    form = client.get(f"/desk/{event_id}/rounds/1/tables/2").text  # filled from A's entry
    assert 'id="players-entry" data-state="disputed"' in form
    assert re.search(r'name="h1_td" value="A"[^>]*checked', form)
    assert re.search(r'name="h1_A_atk"[^>]*value="3"', form)
    from .conftest import sheet_form

    saved = post(client, event_id, "/rounds/1/tables/2", {**sheet_form(td2="B"), "version": "0"})
    assert saved.status_code == 303, saved.text
    assert service_for(client.app).table_links.player_entries(event_id, 1)[2].state == "replaced"
    assert "entered by the desk over the players' entry" in _log(client, event_id)[-1][1]


def test_auto_accept_stores_a_confirmed_result_in_the_same_step(client):
    event_id = seat_event4(client)
    assert post(client, event_id, "/table-links", {"auto": "on", "round": "1"}).status_code == 303
    links = _tokens(client, event_id)[1]
    client.post(f"/t/{links['B']}", data=QUICK_0_1)
    client.post(f"/t/{links['A']}", data=QUICK_0_1)  # the same result: confirms
    result = _stored(client, event_id, 1, 1)
    assert result is not None and result["outcome"] == "B"
    assert "accepted by itself" in _log(client, event_id)[-1][1]


def test_a_bad_sheet_is_refused_beside_its_field_and_nothing_is_stored(client):
    event_id = seat_event4(client)
    links = _tokens(client, event_id)[1]
    sent = client.post(f"/t/{links['A']}", data={**QUICK_1_0, "h1_A_atk": "-3"})
    assert sent.status_code == 400
    assert service_for(client.app).table_links.player_entries(event_id, 1) == {}


def test_a_guessed_token_is_refused_and_throttled(client):
    event_id = seat_event4(client)
    good = _tokens(client, event_id)[1]["A"]
    forged = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    for _ in range(5):
        assert client.get(f"/t/{forged}").status_code == 404
    locked = client.get(f"/t/{forged}")
    assert locked.status_code == 429 and "Retry-After" in locked.headers
    assert client.get(f"/t/{good}").status_code == 429  # a locked address learns nothing


def test_a_token_opens_its_table_only_and_dies_with_its_round(client):
    event_id = seat_event4(client)
    tokens = _tokens(client, event_id)
    assert tokens[1]["A"] != tokens[2]["A"] != tokens[1]["B"]
    assert re.fullmatch(r"\d+-1-1a-[A-Za-z0-9_-]{22}", tokens[1]["A"])
    from .conftest import sheet_form

    for table in (1, 2):
        post(client, event_id, f"/rounds/1/tables/{table}", {**sheet_form(td1="A"), "version": "0"})
    assert post(client, event_id, "/rounds").status_code == 303
    old = client.get(f"/t/{tokens[1]['A']}")
    assert old.status_code == 409 and "round is closed" in old.text
    # another table's token with this one's MAC is nobody's
    mixed = tokens[2]["A"].rsplit("-", 1)[0] + "-" + tokens[1]["A"].rsplit("-", 1)[1]
    assert client.get(f"/t/{mixed}").status_code == 404


def test_cross_site_posts_are_refused(client):
    event_id = seat_event4(client)
    token = _tokens(client, event_id)[1]["A"]
    refused = client.post(f"/t/{token}", data=QUICK_1_0, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403
    assert service_for(client.app).table_links.player_entries(event_id, 1) == {}


def test_a_xiangqi_table_takes_the_result_with_its_reason(client):
    from .conftest import create_event

    event_id = create_event(client, name="Xq Open", game="xiangqi")
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    links = _tokens(client, event_id)[1]
    page = client.get(f"/t/{links['A']}")
    assert 'name="xq_reason"' in page.text and 'value="arbiter"' not in page.text
    refused = client.post(f"/t/{links['A']}", data={"xq_result": "1-0", "xq_reason": "forfeit"})
    assert refused.status_code == 400
    played = {"xq_result": "1-0", "xq_reason": "checkmate", "xq_moves": "41"}
    assert client.post(f"/t/{links['A']}", data=played, follow_redirects=False).status_code == 303
    mismatch = {**played, "xq_result": "0-1"}
    assert client.post(f"/t/{links['B']}", data=mismatch, follow_redirects=False).status_code == 303
    assert service_for(client.app).table_links.player_entries(event_id, 1)[1].state == "disputed"
    assert client.post(f"/t/{links['A']}", data=played, follow_redirects=False).status_code == 303
    assert client.post(f"/t/{links['B']}", data=played, follow_redirects=False).status_code == 303
    assert service_for(client.app).table_links.player_entries(event_id, 1)[1].state == "confirmed"
    assert post(client, event_id, "/rounds/1/tables/1/approve").status_code == 303
    stored = service_for(client.app).desk.table(event_id, 1, 1)
    assert stored.result["outcome"] == "A" and stored.sheet["reason"] == "checkmate"


FIELD_VALUES = ["", "A", "B", "0", "3", "-1", "²", "1e3", "9" * 40, "\x00", "x" * 300]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    form=st.fixed_dictionaries(
        {},
        optional={
            name: st.one_of(st.sampled_from(FIELD_VALUES), st.text(max_size=40))
            for name in (
                "h1_td",
                "h2_td",
                "h1_A_atk",
                "h1_B_atk",
                "h2_A_atk",
                "h2_B_atk",
                "kind",
                "entry",
                "stranger",
                "agree",
            )
        },  # fmt: skip
    ),
    side=st.sampled_from(["A", "B"]),
    answer=st.booleans(),
)
def test_any_form_a_player_sends_is_answered_below_500(client, form, side, answer):
    """Hypothesis-made bodies to both of a table's link forms: never a 5xx, and what is
    stored is always a sheet the game decides (the desk's rules)."""
    event_id = _fuzz_event(client)
    token = _tokens(client, event_id)[1][side]
    path = f"/t/{token}/answer" if answer else f"/t/{token}"
    sent = client.post(path, data=form, follow_redirects=False)
    assert sent.status_code < 500, sent.text[:300]
    entry = service_for(client.app).table_links.player_entries(event_id, 1).get(1)
    if entry is not None:
        from ball.games.ball.match.result import decide

        decide(entry.document["sheet"])  # a stored entry is a legal sheet


def _fuzz_event(client) -> int:
    known = client.__dict__.get("_fuzz_event")
    if known is None:
        known = client.__dict__["_fuzz_event"] = seat_event4(client)
    return known


def test_approving_a_table_beyond_the_id_range_is_not_found(client):
    event_id = seat_event4(client)
    for number, table in ((2**64, 1), (1, 2**64), (0, 1)):
        assert post(client, event_id, f"/rounds/{number}/tables/{table}/approve").status_code == 404
    assert post(client, event_id, "/rounds/1/tables/1/approve").status_code == 409  # waiting
