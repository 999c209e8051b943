"""Result entry: decided by ball.games.ball.match.result on the server, corrections, conflicts,
sanctions."""

from __future__ import annotations

import json

from sqlalchemy import select

from ball.tournament import sanction_log
from ball.tournament.models import Entrant, ResultState
from ball.web.core.deps import service_for

from .conftest import csrf_of, post, sheet_form


def check(client, event_id, table, form):
    return post(client, event_id, f"/rounds/1/tables/{table}/check", form).json()


def names(tables, table):
    row = tables[table - 1]
    return row["a"], row["b"]


def test_the_check_endpoint_gives_the_decision_and_its_reason(client, event4):
    event_id, tables = event4
    a, b = names(tables, 1)
    td = check(client, event_id, 1, sheet_form(td1="A", pb=(3, 0, 4, 2)))
    assert td["ok"] and td["winner"] == a and td["reason"] == "touchdowns"
    assert td["text"] == f"{a} wins 1–0 by touchdowns"
    # 1-1: A needed 3 PBATK in its scoring half, B needed 5: attack efficiency for A.
    eff = check(client, event_id, 1, sheet_form(td1="A", td2="B", pb=(3, 1, 5, 2)))
    assert (eff["winner"], eff["reason"]) == (a, "attack-efficiency")
    # 0-0: SD = PBDEF - PBATK; A: (2+6) - (4+1) = 3, B: (4+1) - (2+6) = -3.
    sd = check(client, event_id, 1, sheet_form(pb=(4, 2, 6, 1)))
    assert (sd["winner"], sd["reason"]) == (a, "defensive-superiority")
    draw = check(client, event_id, 1, sheet_form(pb=(2, 2, 3, 3)))
    assert draw["winner"] is None and draw["reason"] == "draw"


def test_dual_entry_and_sheet_faults_are_shown_as_you_type(client, event4):
    event_id, tables = event4
    a, b = names(tables, 1)
    form = sheet_form(pb=(2, 3, 2, 3))
    form["h1_B_def"] = 5  # B's PBDEF must equal A's PBATK (2)
    fault = check(client, event_id, 1, form)
    assert not fault["ok"]
    assert fault["error"] == f"half 1: PB dual-entry mismatch: {a} PBATK 2 != {b} PBDEF 5"
    empty = check(client, event_id, 1, {"kind": "sheet"})
    assert not empty["ok"] and "is empty" in empty["error"]
    zero = check(client, event_id, 1, sheet_form(td1="A", pb=(0, 1, 1, 1)))
    assert "scored the touchdown but recorded 0 PBATK" in zero["error"]
    steal = check(client, event_id, 1, sheet_form(h1_steal0_by="B"))
    assert "needs its choice" in steal["error"]


def test_saving_stores_the_decision_steals_and_sanctions(client, event4, app):
    event_id, tables = event4
    a, b = names(tables, 1)
    form = sheet_form(
        td1="A",
        pb=(3, 0, 4, 2),
        h1_steal0_by="B",
        h1_steal0_choice="reset",
        sanction0_side="B",
        sanction0_step="warning",
        sanction0_reason="slow play",
        version=0,
    )
    saved = post(client, event_id, "/rounds/1/tables/1", form)
    assert saved.status_code == 303, saved.text
    row = service_for(app).rounds.pairings(1, event=event_id)[0]
    assert row["result"]["outcome"] == "A" and row["result"]["kind"] == "sheet"
    assert row["result"]["sheet"]["halves"][0]["td"] == a
    with app.state.sessions() as s:
        state = s.scalars(select(ResultState)).one()
        b_id = s.scalar(select(Entrant.id).where(Entrant.name == b))
        log = sanction_log.history(s, event_id, b_id)
        suggested = sanction_log.suggest(s, event_id, b_id).name
    assert json.loads(state.steals) == [{"half": 1, "by": b, "choice": "reset"}]
    assert [(x.step, x.reason, x.round_number, x.table) for x in log] == [
        ("warning", "slow play", 1, 1)
    ]
    assert suggested == "loss-of-turn"
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert "1–0" in page and "touchdowns" in page


def test_a_second_arbiter_saving_the_same_table_gets_a_conflict(client, other_client, event4, app):
    from .conftest import PIN

    event_id, tables = event4
    other_client.post(f"/desk/{event_id}/login", data={"pin": PIN})
    token1 = csrf_of(client, f"/desk/{event_id}")
    token2 = csrf_of(other_client, f"/desk/{event_id}")
    # Both open the form at version 0.
    assert 'name="version" value="0"' in client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert (
        'name="version" value="0"' in other_client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    )
    first = client.post(
        f"/desk/{event_id}/rounds/1/tables/1",
        data={**sheet_form(td1="A", pb=(3, 0, 4, 2)), "version": 0, "csrf": token1},
        follow_redirects=False,
    )
    assert first.status_code == 303
    second = other_client.post(
        f"/desk/{event_id}/rounds/1/tables/1",
        data={**sheet_form(td2="B", pb=(3, 0, 4, 2)), "version": 0, "csrf": token2},
        follow_redirects=False,
    )
    assert second.status_code == 409
    assert "Another arbiter saved this table" in second.text
    row = service_for(app).rounds.pairings(1, event=event_id)[0]
    assert row["result"]["outcome"] == "A"  # nothing overwritten
    assert service_for(app).results.corrections(event=event_id) == []


def test_a_correction_needs_a_reason_which_is_kept(client, event4, app):
    event_id, tables = event4
    post(client, event_id, "/rounds/1/tables/1", sheet_form(td1="A", pb=(3, 0, 4, 2), version=0))
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1").text
    assert 'name="version" value="1"' in page and 'name="h1_A_atk"' in page
    assert 'value="3"' in page  # the stored sheet fills the form
    no_reason = post(
        client, event_id, "/rounds/1/tables/1", sheet_form(td2="B", pb=(3, 0, 4, 2), version=1)
    )
    assert no_reason.status_code == 400 and "A correction needs a reason" in no_reason.text
    fixed = post(
        client,
        event_id,
        "/rounds/1/tables/1",
        sheet_form(td2="B", pb=(3, 0, 4, 2), version=1, reason="touchdown was in half 2"),
    )
    assert fixed.status_code == 303
    corrections = service_for(app).results.corrections(event=event_id)
    assert [c["reason"] for c in corrections] == ["touchdown was in half 2"]
    assert corrections[0]["before"]["outcome"] == "A"
    assert corrections[0]["after"]["outcome"] == "B"


def test_forfeits_and_double_forfeits(client, event4, app):
    event_id, tables = event4
    assert (
        post(
            client, event_id, "/rounds/1/tables/1", {"kind": "forfeit-A", "version": 0}
        ).status_code
        == 303
    )
    assert (
        post(
            client, event_id, "/rounds/1/tables/2", {"kind": "double-forfeit", "version": 0}
        ).status_code
        == 303
    )
    rows = service_for(app).rounds.pairings(1, event=event_id)
    assert rows[0]["result"]["kind"] == "forfeit" and rows[0]["result"]["forfeit_by"] == "A"
    assert rows[1]["result"]["kind"] == "double-forfeit"
    a, b = names(tables, 1)
    page = client.get(f"/public/{event_id}/results").text
    assert f"forfeit by {a} (0–2)" in page and "double forfeit" in page


def test_loss_of_match_must_come_with_the_forfeit(client, event4):
    event_id, tables = event4
    a, _ = names(tables, 1)
    form = sheet_form(
        td1="A",
        pb=(3, 0, 4, 2),
        sanction0_side="A",
        sanction0_step="loss-of-match",
        sanction0_reason="abandoned",
        version=0,
    )
    refused = post(client, event_id, "/rounds/1/tables/1", form)
    assert refused.status_code == 400
    assert f"loss-of-match for {a}: enter the result as a forfeit by {a}" in refused.text
    form["kind"] = "forfeit-A"
    assert post(client, event_id, "/rounds/1/tables/1", form).status_code == 303


def test_sanction_page_suggests_the_next_step_and_needs_a_reason(client, event4, app):
    event_id, _ = event4
    with app.state.sessions() as s:
        ann = s.scalar(select(Entrant.id).where(Entrant.name == "Ann"))
    no_reason = post(
        client, event_id, "/sanctions", {"entrant": ann, "step": "warning", "reason": " "}
    )
    assert no_reason.status_code == 400 and 'id="err-reason">Give the reason.<' in no_reason.text
    bad = post(
        client, event_id, "/sanctions", {"entrant": ann, "step": "yellow-card", "reason": "x"}
    )
    assert bad.status_code == 400 and 'id="err-step">Choose a step of the ladder.<' in bad.text
    steps = []
    for reason in ("late", "phone", "argued", "walked away", "again"):
        with app.state.sessions() as s:
            step = sanction_log.suggest(s, event_id, ann).name
        steps.append(step)
        ok = post(client, event_id, "/sanctions", {"entrant": ann, "step": step, "reason": reason})
        assert ok.status_code == 303
    assert steps == [
        "warning",
        "loss-of-turn",
        "loss-of-possession",
        "loss-of-match",
        "loss-of-match",
    ]
    page = client.get(f"/desk/{event_id}/sanctions").text
    assert "walked away" in page
    log = service_for(app).arbiter.log(event=event_id)
    assert sum(1 for x in log if x["kind"] == "sanction" and x["name"] == "Ann") == 5


def test_a_bye_takes_no_result(client, app):
    from .conftest import create_event

    event_id = create_event(client)
    for name in ("A1", "B2", "C3"):
        post(client, event_id, "/entrants", {"name": name})
    post(client, event_id, "/rounds")
    rows = service_for(app).rounds.pairings(1, event=event_id)
    bye = next(r["table"] for r in rows if r["b"] is None)
    assert client.get(f"/desk/{event_id}/rounds/1/tables/{bye}").status_code == 404


def test_simultaneous_saves_one_wins_the_others_get_409(client, event4, app):
    import threading
    import warnings

    from .conftest import PIN

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    event_id, _ = event4
    arbiters = []
    for _ in range(5):
        c = TestClient(app)
        c.post(f"/desk/{event_id}/login", data={"pin": PIN})
        arbiters.append((c, csrf_of(c, f"/desk/{event_id}")))
    barrier = threading.Barrier(len(arbiters))
    codes: list[tuple[str, int]] = []

    def save(c, token, td):
        barrier.wait()
        response = c.post(
            f"/desk/{event_id}/rounds/1/tables/1",
            data={**sheet_form(pb=(3, 0, 4, 2), **{td: "A"}), "version": 0, "csrf": token},
            follow_redirects=False,
        )
        codes.append((td, response.status_code))

    threads = [
        threading.Thread(target=save, args=(c, t, "td1" if i % 2 else "td2"))
        for i, (c, t) in enumerate(arbiters)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c, _ in arbiters:
        c.close()
    # One save wins; the saves of the very same form are answered with it (303, nothing
    # written twice), every other form gets 409.
    stored = service_for(app).rounds.pairings(1, event=event_id)[0]["result"]["sheet"]
    won = "td1" if stored["halves"][0]["td"] else "td2"
    assert sorted(code for td, code in codes if td == won) == [303] * (2 if won == "td1" else 3)
    assert {code for td, code in codes if td != won} == {409}
    assert service_for(app).results.corrections(event=event_id) == []
    with app.state.sessions() as s:
        assert s.scalars(select(ResultState)).one().version == 1


def test_malformed_form_fields_are_4xx_with_the_field_named(client, event4):
    from html import unescape

    event_id, _ = event4
    bad_version = post(client, event_id, "/rounds/1/tables/1", sheet_form(version="two"))
    assert bad_version.status_code == 400 and "version: 'two' is not a whole number" in unescape(
        bad_version.text
    )
    bad_pb = post(client, event_id, "/rounds/1/tables/1", sheet_form(version=0, h1_A_atk="x"))
    assert bad_pb.status_code == 400 and "'x' is not a whole number" in unescape(bad_pb.text)
    bad_kind = post(client, event_id, "/rounds/1/tables/1", {"kind": "walkover", "version": 0})
    assert bad_kind.status_code == 400 and "kind: 'walkover' is not a kind of result" in unescape(
        bad_kind.text
    )
    assert post(client, event_id, "/rounds/1/signals/3").status_code == 409
    assert post(client, event_id, "/rounds/9/signals/1").status_code == 404
    assert post(client, event_id, "/rounds/1/tables/7").status_code == 404
    bad_table = post(
        client, event_id, "/sanctions", {"entrant": "x", "step": "warning", "reason": "r"}
    )
    assert bad_table.status_code == 400 and "entrant: 'x' is not a whole number" in unescape(
        bad_table.text
    )
