"""The desk's result form for a Xiangqi event (issue 16): the arbiter's result document
(result, reason, fouls), decided by the Xiangqi plug-in (seed 4.1, 4.2, 4.1.8), not BALL's
half sheet; the public standings follow the 15.1 chain."""

from __future__ import annotations

from ball.web.core.deps import service_for

from .conftest import post

# Every test starts from `xiangqi4` (tests/desk/conftest.py): a Xiangqi round robin built
# through the desk's forms once per test process, each test on its own copy.


def form(result="1-0", reason="checkmate", fa=0, fb=0, **extra):
    return {"kind": "sheet", "version": "0", "xq_result": result, "xq_reason": reason,
            "xq_fouls_A": str(fa), "xq_fouls_B": str(fb), **extra}  # fmt: skip


def test_the_form_shows_xiangqi_fields_not_the_half_sheet(client, xiangqi4):
    event_id, tables = xiangqi4
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1")
    assert page.status_code == 200
    assert 'name="xq_reason"' in page.text and 'name="xq_fouls_A"' in page.text
    assert "h1_A_atk" not in page.text and "PBATK" not in page.text
    assert f"Red: <strong>{tables[0]['a']}</strong>" in page.text
    # The Xiangqi ladder (18.1, 18.2), not BALL's.
    assert 'value="disqualification"' in page.text and "loss-of-turn" not in page.text


def test_the_check_decides_by_the_plugin_and_names_the_fault(client, xiangqi4):
    event_id, tables = xiangqi4
    red = tables[0]["a"]
    ok = post(client, event_id, "/rounds/1/tables/1/check", form()).json()
    assert ok["ok"] and ok["winner"] == red and ok["text"] == f"{red} wins (checkmate, 4.1.1)"
    # 4.1.8: three fouls lose the game; a winner with three is refused, naming the rule.
    bad = post(client, event_id, "/rounds/1/tables/1/check", form(fa=3)).json()
    assert not bad["ok"] and "cannot win or draw (4.1.8)" in bad["error"]
    fouls = post(client, event_id, "/rounds/1/tables/1/check", form(fb="x")).json()
    assert not fouls["ok"] and "xq_fouls_B: 'x' is not a whole number" in fouls["error"]


def test_saving_stores_the_document_and_a_bad_one_changes_nothing(client, xiangqi4):
    event_id, tables = xiangqi4
    svc = service_for(client.app)
    refused = post(client, event_id, "/rounds/1/tables/1", form("1/2-1/2", "checkmate"))
    assert refused.status_code == 400 and "ends the game in a win" in refused.text
    assert "result" not in svc.rounds.pairings(1, event=event_id)[0]
    saved = post(client, event_id, "/rounds/1/tables/1",
                 form("0-1", "three-fouls", fa=3, fb=1, xq_moves="33", action="save"))  # fmt: skip
    assert saved.status_code == 303, saved.text
    stored = svc.rounds.pairings(1, event=event_id)[0]["result"]
    assert stored["outcome"] == "B"
    # The corrections form comes back filled with the stored document.
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert 'value="0-1" checked' in page and 'value="three-fouls" selected' in page
    assert 'name="xq_moves" type="number" min="0" step="1" inputmode="numeric" value="33"' in page
    # The round page shows the Xiangqi result (no touchdowns).
    round_page = client.get(f"/desk/{event_id}/rounds/1").text
    assert "0–1" in round_page or "0-1" in round_page


def test_a_sanction_at_the_desk_ranks_last_among_equals_18_4(client, xiangqi4):
    event_id, tables = xiangqi4
    for t in range(1, len(tables) + 1):
        assert post(client, event_id, f"/rounds/1/tables/{t}",
                    form("1/2-1/2", "agreement", action="save")).status_code == 303  # fmt: skip
    svc = service_for(client.app)
    first = next(e for e in svc.events.event_info(event=event_id)["entrants"] if e["number"] == 1)
    answer = post(client, event_id, "/sanctions",
                  {"entrant": "1", "step": "warning", "reason": "talking"})  # fmt: skip
    assert answer.status_code == 303, answer.text
    table = svc.ranking.standings(event=event_id)["standings"]
    assert table[-1]["name"] == first["name"] and table[-1]["tiebreaks"]["sanctions"] == 1


def test_a_forfeit_shows_plus_minus_on_the_round_and_public_pages_21_4(client, xiangqi4):
    event_id, tables = xiangqi4
    red = tables[0]["a"]
    saved = post(client, event_id, "/rounds/1/tables/1",
                 {"kind": "forfeit-A", "version": "0", "action": "save"})  # fmt: skip
    assert saved.status_code == 303, saved.text
    for path in (f"/desk/{event_id}/rounds/1", f"/public/{event_id}/pairings?round=1"):
        page = client.get(path).text
        assert f"<strong>- / +</strong> Forfeit by {red}" in page, path
        assert "(0–2)" not in page
