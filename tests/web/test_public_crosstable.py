"""The public crosstable (`/public/{id}/crosstable`): every entrant's games in rank order,
each opponent named by rank, with the side and the result; only the rounds the standings
count; tables of four have none."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ball.tournament.service import TournamentService
from ball.web.app import create_app


def sheet(a: str, b: str, winner: str | None) -> dict:
    """A BALL sheet between a (ATK first) and b: `winner` scores, or a draw (no touchdown,
    equal ball clocks) when None."""

    def half(atk: str, td: str | None) -> dict:
        even = {"atk": 3, "def": 3}
        return {"atk_first": atk, "td": td, "pb": {a: even, b: even}}

    return {"coaches": [a, b], "halves": [half(a, winner), half(b, None)], "forfeit": None}


@pytest.fixture
def event(db_path):
    app = create_app(db_path)
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    event_id = svc.events.create_event(name="Plovdiv RR", system="round-robin")["id"]
    for name in ("Ana", "Boris", "Cveta", "Dimo", "Elena"):  # five: a bye each round
        svc.entrants.add_player(name, event=event_id)
    played: list[tuple[int, str, str | None, str]] = []  # (round, a, b, code of a)
    for rnd in (1, 2):
        first = True
        for t in svc.rounds.pair_next_round(event=event_id):
            if not t.get("b"):
                played.append((rnd, t["a"], None, "U"))
                continue
            a, b = t["a"], t["b"]
            if first:  # the first game is drawn, the others won by B by forfeit
                first = False
                svc.results.enter_result(rnd, t["table"], sheet=sheet(a, b, None), event=event_id)
                played.append((rnd, a, b, "="))
            else:
                svc.results.enter_result(rnd, t["table"], forfeit="A", event=event_id)
                played.append((rnd, a, b, "-"))
    svc.rounds.pair_next_round(event=event_id)  # round 3 paired, no result yet: not counted
    return app, svc, event_id, played


def test_each_line_names_its_opponents_by_rank(event):
    _, svc, event_id, played = event
    rank = {s.name: s.rank for s in svc.ranking.standings(event=event_id).standings}
    table = svc.ranking.cross_table(event=event_id)
    assert table.rounds == 2
    assert [r.name for r in table.rows] == [
        s.name for s in svc.ranking.standings(event=event_id).standings
    ]
    opposite = {"=": "=", "-": "+", "U": None}
    expected: dict[str, list[tuple[int, int | None, str, str]]] = {name: [] for name in rank}
    for rnd, a, b, code in played:
        expected[a].append((rnd, rank[b] if b else None, "w" if b else "-", code))
        if b:
            expected[b].append((rnd, rank[a], "b", opposite[code]))
    for row in table.rows:
        got = [(c.round, c.opponent, c.colour, c.code) for c in row.rounds]
        assert got == sorted(expected[row.name]), row.name
        assert row.points == sum(c.points for c in row.rounds)


def test_the_page_links_each_opponent_to_their_line(event):
    app, svc, event_id, played = event
    client = TestClient(app)
    page = client.get(f"/public/{event_id}/crosstable")
    assert page.status_code == 200
    assert "Crosstable after round 2" in page.text
    lines = re.findall(r'<tr id="rank-(\d+)">', page.text)
    assert sorted(int(n) for n in lines) == list(range(1, 6))
    links = re.findall(r'href="/public/\d+/crosstable\?page=1#rank-(\d+)"', page.text)
    games = sum(2 for _, _, b, _ in played if b)
    assert len(links) == games and all(n in lines for n in links)
    assert 'title="lost by forfeit"' in page.text and 'title="drawn"' in page.text
    assert f'href="/public/{event_id}/crosstable"' in client.get(
        f"/public/{event_id}/standings"
    ).text  # a tab beside the standings


def test_tables_of_four_have_no_crosstable(db_path):
    app = create_app(db_path)
    svc = TournamentService.from_sessions(app.state.sessions.kw["bind"], app.state.sessions)
    event_id = svc.sessions.create_mahjong_event(name="Riichi", sessions=2)["id"]
    answer = TestClient(app).get(f"/public/{event_id}/crosstable")
    assert answer.status_code == 404
    assert "tables of four have no crosstable" in answer.text
