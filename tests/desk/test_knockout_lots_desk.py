"""Article 6 at the desk: a one-game knockout match still drawn after its last replay waits
for a drawing of lots, and the round page offers it beside the table (the winner drawn at
the venue, or drawn here from a logged seed), so the arbiter goes on without the CLI. Bad
input: a 400 naming the fault, nothing stored."""

from __future__ import annotations

import json
import re

from ball.tournament import lots
from ball.web.core.deps import service_for
from tournament.test_knockout import draw_sheet

from .conftest import create_event, desk_token, post

NAMES = ("S1", "S2", "S3", "S4")


def _drawn_twice(client) -> tuple[int, object]:
    """A knockout of four: S1-S4 drawn, and its replay drawn too; S2 beats S3."""
    event_id = create_event(client, "KO", "knockout")
    for name in NAMES:
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    svc = service_for(client.app)
    r1 = svc.rounds.pair_next_round(event=event_id)
    top = next(t for t in r1 if "S1" in (t["a"], t["b"]))
    svc.results.enter_result(1, top["table"], sheet=draw_sheet(), event=event_id)
    other = next(t for t in r1 if t is not top)
    win_name = "S2" if "S2" in (other["a"], other["b"]) else other["a"]
    svc.results.enter_result(1, other["table"], forfeit="B" if other["a"] == win_name else "A",
                     event=event_id)  # fmt: skip
    replay = svc.rounds.pair_next_round(event=event_id)
    svc.results.enter_result(2, replay[0]["table"], sheet=draw_sheet(), event=event_id)
    return event_id, svc


def _error(response) -> str:
    """Why a form was refused: at the top of its form, or beside its field."""
    found = re.search(r'id="(?:desk-error|err-\w+)">([^<]*)<', response.text)
    return found.group(1) if found else ""


def test_the_round_page_offers_the_lots_and_the_venues_winner_goes_through(client):
    event_id, svc = _drawn_twice(client)
    refused = post(client, event_id, "/rounds")
    assert refused.status_code == 400
    assert "decide it by lots first" in _error(refused) and "round 2" in _error(refused)
    page = client.get(f"/desk/{event_id}/rounds/2")
    assert 'id="lots-1"' in page.text and "/rounds/2/tables/1/lots" in page.text
    assert client.get(f"/desk/{event_id}/rounds/1").text.count('id="lots-') == 0

    # a name that is not one of the two: refused on the round page, at that table's lots
    wrong = post(client, event_id, "/rounds/2/tables/1/lots", {"how": "winner", "winner": "S9"})
    assert wrong.status_code == 400 and _error(wrong)
    assert wrong.text.index('id="lots-1"') < wrong.text.index('id="desk-error"')
    done = post(client, event_id, "/rounds/2/tables/1/lots", {"how": "winner", "winner": "S4"})
    assert done.status_code == 303, done.text
    assert 'id="lots-1"' not in client.get(f"/desk/{event_id}/rounds/2").text
    assert post(client, event_id, "/rounds").status_code == 303
    final = svc.desk.round_view(event_id, 3).pairings
    assert [{p.a.name, p.b.name if p.b else None} for p in final] == [{"S2", "S4"}]


def test_lots_drawn_here_follow_the_logged_seed(client):
    event_id, svc = _drawn_twice(client)
    done = post(client, event_id, "/rounds/2/tables/1/lots", {"how": "seed", "seed": "7"})
    assert done.status_code == 303, done.text
    record = next(x for x in svc.arbiter.log(event=event_id) if x["kind"] == "lots")
    detail = json.loads(record["detail"])
    assert detail["seed"] == 7
    drawn = lots.toss(detail["sides"], 7)
    assert (detail["winner"] == "A") == (drawn == detail["sides"][0])


def test_bad_lots_are_refused_and_store_nothing(client):
    event_id, svc = _drawn_twice(client)
    before = len(svc.arbiter.log(event=event_id))
    for data, fault in [
        ({"how": "winner", "winner": ""}, "Choose who won the drawing of lots."),
        ({"how": "winner", "winner": "S2"}, "does not play at round 2 table 1"),
        ({"how": "seed", "seed": "-1"}, "Seed: a whole number"),
    ]:
        refused = post(client, event_id, "/rounds/2/tables/1/lots", data)
        assert refused.status_code == 400, data
        assert fault in _error(refused), (data, _error(refused))
    # a table that waits for no lots: said at the top of the round page
    no_lots = post(client, event_id, "/rounds/1/tables/1/lots", {"how": "seed"})
    assert no_lots.status_code == 400 and _error(no_lots)
    assert len(svc.arbiter.log(event=event_id)) == before
    # another event's lots need that event's desk session
    stranger = client.post("/desk/999999/rounds/2/tables/1/lots",
                           data={"csrf": desk_token(client, event_id), "how": "seed"})  # fmt: skip
    assert stranger.status_code in (401, 403, 404)
