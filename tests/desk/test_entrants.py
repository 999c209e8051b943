"""Entrants (form, CSV, withdrawal, late entry) and pairing overrides through the desk."""

from __future__ import annotations

import pytest

from ball.tournament.errors import TournamentError
from ball.web.core.deps import service_for
from ball.web.desk.forms import parse_entrants_csv

from .conftest import create_event, post


def entrants(app, event_id):
    return {e["name"]: e for e in service_for(app).events.event_info(event_id)["entrants"]}


def test_csv_import_pasted_and_uploaded(client, app):
    event_id = create_event(client)
    text = "name,club,federation,rating\nAnn,Sofia,bul,1800\n\nBo,,KOR,\n"
    assert post(client, event_id, "/entrants/import", {"csv": text}).status_code == 303
    upload = ("players.csv", "\ufeffName,Rating\nCy,1500\n".encode(), "text/csv")
    token_post = post(client, event_id, "/entrants/import", files={"file": upload})
    assert token_post.status_code == 303
    got = entrants(app, event_id)
    assert set(got) == {"Ann", "Bo", "Cy"}
    assert got["Ann"]["federation"] == "BUL" and got["Ann"]["rating"] == 1800
    assert got["Cy"]["rating"] == 1500


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("club\nSofia\n", "CSV line 1: the header must have a 'name' column"),
        (
            "name,elo\nAnn,1\n",
            "CSV line 1: unknown column(s) elo; known: name, club, federation, rating",
        ),
        ("name,rating\nAnn,12x\n", "CSV line 2: rating '12x' is not a whole number"),
        ("name\nAnn\nAnn\n", "CSV line 3: 'Ann' appears twice"),
        ("name,club\n,Sofia\n", "CSV line 2: the name is empty"),
        ("name\n", "CSV: no entrant in the file"),
    ],
)
def test_csv_faults_name_the_line(text, message):
    with pytest.raises(TournamentError) as info:
        parse_entrants_csv(text)
    assert str(info.value) == message


def test_a_bad_csv_adds_nobody(client, app):
    event_id = create_event(client)
    post(client, event_id, "/entrants", {"name": "Ann"})
    response = post(client, event_id, "/entrants/import", {"csv": "name\nBo\nAnn\n"})
    assert response.status_code == 400 and "already registered: Ann" in response.text
    assert set(entrants(app, event_id)) == {"Ann"}


def test_withdrawal_needs_confirmation(client, app, event4):
    event_id, _ = event4
    with app.state.sessions() as s:
        from sqlalchemy import select

        from ball.tournament.models import Entrant

        di = s.scalar(select(Entrant.id).where(Entrant.name == "Di"))
    unconfirmed = post(client, event_id, f"/entrants/{di}/withdraw", {"reason": "ill"})
    assert unconfirmed.status_code == 400
    assert entrants(app, event_id)["Di"]["status"] == "active"
    done = post(client, event_id, f"/entrants/{di}/withdraw", {"reason": "ill", "confirm": "yes"})
    assert done.status_code == 303
    assert entrants(app, event_id)["Di"]["status"] == "withdrawn"
    assert "withdrawn after round 1" in client.get(f"/desk/{event_id}").text


def test_late_entry_in_a_swiss(client, app):
    event_id = create_event(client, system="swiss", rounds="3")
    for name in ("Ann", "Bo", "Cy", "Di"):
        post(client, event_id, "/entrants", {"name": name})
    post(client, event_id, "/rounds")
    for table in (1, 2):
        post(client, event_id, f"/rounds/1/tables/{table}", {"kind": "forfeit-B", "version": 0})
    assert post(client, event_id, "/entrants", {"name": "Eve"}).status_code == 303
    assert entrants(app, event_id)["Eve"]["first_round"] == 2
    assert "late entry, from round 2" in client.get(f"/desk/{event_id}").text
    rr = create_event(client, name="RR")
    for name in ("A", "B"):
        post(client, rr, "/entrants", {"name": name})
    post(client, rr, "/rounds")
    refused = post(client, rr, "/entrants", {"name": "Late"})
    assert refused.status_code == 400 and "takes no entrant after round 1" in refused.text


def test_pairing_a_round_with_open_tables_is_refused(client, event4):
    event_id, _ = event4
    response = post(client, event_id, "/rounds")
    assert response.status_code == 400
    assert "round 1 still has tables without a result" in response.text


def test_a_swap_shows_the_new_pairing_and_changes_it_only_when_confirmed(client, app, event4):
    event_id, tables = event4
    x, y = tables[0]["a"], tables[1]["a"]
    preview = post(client, event_id, "/rounds/1/swap", {"x": x, "y": y, "reason": "family"})
    assert preview.status_code == 200 and "confirm the new pairing" in preview.text
    assert service_for(app).rounds.pairings(1, event=event_id) == tables
    done = post(
        client, event_id, "/rounds/1/swap", {"x": x, "y": y, "reason": "family", "confirm": "yes"}
    )
    assert done.status_code == 303
    after = service_for(app).rounds.pairings(1, event=event_id)
    assert (after[0]["a"], after[0]["b"]) == (y, tables[0]["b"])
    assert (after[1]["a"], after[1]["b"]) == (x, tables[1]["b"])
    log = service_for(app).arbiter.log(event=event_id)
    assert any(e["kind"] == "override" and e["detail"] == "family" for e in log)


def test_a_swap_that_repeats_a_game_is_refused(client, app, event4):
    event_id, tables = event4
    for table in (1, 2):
        post(
            client, event_id, f"/rounds/1/tables/{table}", {"kind": "double-forfeit", "version": 0}
        )
    post(client, event_id, "/rounds")
    r2 = service_for(app).rounds.pairings(2, event=event_id)
    # Put round 1's opponents of table 1 together again.
    a1, b1 = tables[0]["a"], tables[0]["b"]
    partner = next(r["b"] if r["a"] == a1 else r["a"] for r in r2 if a1 in (r["a"], r["b"]))
    response = post(client, event_id, "/rounds/2/swap", {"x": partner, "y": b1, "confirm": "yes"})
    assert response.status_code == 400 and "have already met" in response.text


def test_a_csv_name_with_a_line_break_adds_nobody(client, app):
    event_id = create_event(client)
    text = 'name,club\nAnn,Sofia\n"Bo\n001    9      Forged",Sofia\n'
    response = post(client, event_id, "/entrants/import", {"csv": text})
    assert response.status_code == 400
    assert "CSV line 3: name must be one line" in response.text
    assert entrants(app, event_id) == {}
    response = post(client, event_id, "/entrants", {"name": "Cy\r\nDe"})
    assert response.status_code == 400 and "entrant name must be one line" in response.text
    assert entrants(app, event_id) == {}
