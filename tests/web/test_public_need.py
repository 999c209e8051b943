"""The public standings' "what I need" (issue 35 §3): a player found by "find my name" while
the last round is played reads the rank each result of their own table would give them.

The event is tests/tournament/test_whatif.py's round robin of four (tie-breaks SB, wins):
after rounds 1-2 Ann 2, Bob 1, Dan 1, Cid 0; in round 3 (the last) Bob beat Dan, so
Ann 2, Bob 2, Dan 1, Cid 0 and only Cid - Ann is still being played. Worked by hand there:
Cid win → rank 3, draw → rank 4, loss → rank 4; Ann rank 1 whatever the result.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ball.tournament.service import TournamentService
from ball.web.app import create_app

from .conftest import shoot

NAMES = ["Ann", "Bob", "Cid", "Dan"]


def won_by(side: str) -> dict:
    """A BALL score sheet that coach `side` ("A" or "B") wins by one touchdown."""
    pb = {"A": {"atk": 3, "def": 2}, "B": {"atk": 2, "def": 3}}
    return {
        "coaches": ["A", "B"],
        "halves": [
            {"atk_first": "A", "td": side, "pb": pb},
            {"atk_first": "B", "td": None, "pb": pb},
        ],
        "forfeit": None,
    }


def seat(svc: TournamentService, *, last_table_in: bool) -> int:
    event_id = svc.events.create_event(
        name="Club", system="round-robin", tiebreaks=["sonneborn-berger", "wins"]
    )["id"]
    for name in NAMES:
        svc.entrants.add_player(name, event=event_id)
    for number in (1, 2, 3):
        tables = svc.rounds.pair_next_round(event=event_id)
        for t in tables if number < 3 else tables[:1] if last_table_in else []:
            svc.results.enter_result(number, t["table"], sheet=won_by("A"), event=event_id)
    return event_id


def need_text(html: str, name: str) -> str:
    found = re.search(rf'<p class="need" data-name="{name}">(.*?)</p>', html, re.S)
    assert found, f"no need line for {name}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_the_last_table_of_the_event_reads_what_each_result_gives(tmp_path):
    app = create_app(str(tmp_path / "club.db"))
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    event_id = seat(svc, last_table_in=True)
    with TestClient(app) as client:
        cid = client.get(f"/public/{event_id}/standings?find=cid").text
        assert need_text(cid, "Cid") == (
            "What Cid needs in round 3 (table 2, against Ann): "
            "win → rank 3 · draw → rank 4 · loss → rank 4"
        )
        ann = client.get(f"/public/{event_id}/standings?find=ann").text
        assert "win → rank 1 · draw → rank 1 · loss → rank 1" in need_text(ann, "Ann")
        # Bob has played the last round: no line; nor without a search
        assert 'class="need"' not in client.get(f"/public/{event_id}/standings?find=bob").text
        assert 'class="need"' not in client.get(f"/public/{event_id}/standings").text
        # the line is in the page's language
        ko = client.get(f"/public/{event_id}/standings?find=cid&lang=ko").text
        assert "What Cid needs" not in ko and 'data-name="Cid"' in ko
        # and the page wrote nothing: the table is still open, the standings after round 2
        assert svc.rounds.pairings(3, event=event_id)[1].result is None
        assert svc.ranking.standings(event=event_id).rounds == 2


def test_with_other_tables_open_the_line_gives_ranges(tmp_path):
    app = create_app(str(tmp_path / "club.db"))
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    event_id = seat(svc, last_table_in=False)
    with TestClient(app) as client:
        cid = need_text(client.get(f"/public/{event_id}/standings?find=cid").text, "Cid")
    assert "win → rank 2–4 · draw → rank 4 · loss → rank 4" in cid
    assert "still being played" in cid


@pytest.mark.browser
def test_a_player_finds_what_they_need_in_chromium(db_path, serve, page, axe):
    """At the phone's size (390×844) and the laptop's."""
    app = create_app(db_path)
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    event_id = seat(svc, last_table_in=True)
    base = serve(app)
    page.goto(f"{base}/public/{event_id}/standings?refresh=0")
    page.fill("#find", "cid")
    page.press("#find", "Enter")
    page.wait_for_selector("p.need")
    line = page.locator('p.need[data-name="Cid"]')
    assert line.is_visible()
    assert " ".join(line.inner_text().split()) == (
        "What Cid needs in round 3 (table 2, against Ann): "
        "win → rank 3 · draw → rank 4 · loss → rank 4"
    )
    assert axe(page) == []
    shoot(page, "public-standings-what-i-need")
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []
