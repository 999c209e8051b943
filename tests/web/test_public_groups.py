"""The public page of a groups event (seed 004, 11.3): one table per group with rank, name,
points and the chain's tie-breaks, the qualifiers marked, then the final; in en, ko, bg."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.tournament import TournamentService
from ball.tournament.groups import Setup
from ball.web.app import create_app


def played_groups(db: str) -> TournamentService:
    """8 entrants in 2 groups of 4; the higher rating wins every game (forfeits)."""
    svc = TournamentService(db)
    svc.events.create_event(name="Cup", system="groups", groups=Setup(2, qualifiers=2))
    svc.events.create_event(name="Open", system="swiss", rounds=3)
    for i in range(8):
        svc.entrants.add_player(f"P{i + 1}", rating=2000 - i, event="Cup")
    for rnd in (1, 2, 3, 4):
        for t in svc.rounds.pair_next_round(event="Cup"):
            if t.b is None:
                continue
            loser = "B" if int(t.a[1:]) < int(t.b[1:]) else "A"
            svc.results.enter_result(rnd, t.table, forfeit=loser, event="Cup")
    return svc


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("groups") / "groups.sqlite")
    played_groups(db)
    with TestClient(create_app(db)) as c:
        yield c


def tables(html: str) -> dict[str, list[list[str]]]:
    """Each table's rows as cell texts (tags stripped)."""
    out = {}
    for tid, body in re.findall(r'<table[^>]*id="([^"]+)"[^>]*>(.*?)</table>', html, re.S):
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>")[1], re.S)
        out[tid] = [
            [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in rows
        ]
    return out


def test_one_table_per_group_with_the_qualifiers_marked_then_the_final(client):
    page = client.get("/public/1/groups", params={"lang": "en"})
    assert page.status_code == 200
    found = tables(page.text)
    # snake seeding: A = P1, P4, P5, P8; B = P2, P3, P6, P7
    assert [r[1].rstrip(" ✓") for r in found["group-table-A"]] == ["P1", "P4", "P5", "P8"]
    assert [r[1].rstrip(" ✓") for r in found["group-table-B"]] == ["P2", "P3", "P6", "P7"]
    assert [r[2] for r in found["group-table-A"]] == ["3", "2", "1", "0"]
    # rank, name, points and one column per tie-break of the event's chain
    svc_chain = 4 + 3  # round-robin chain (DE, SB, wins, koya) + BALL's three
    assert all(len(r) == 3 + svc_chain for r in found["group-table-A"])
    assert ["✓" in r[1] for r in found["group-table-B"]] == [True, True, False, False]
    assert [r[1] for r in found["final-table"]][:1] == ["P1"]
    assert "Final stage (knockout)" in page.text
    assert 'href="/public/1/groups"' in page.text
    # the other pages of a groups event still show (the final in the pairings)
    for view in ("standings", "pairings", "results"):
        assert client.get(f"/public/1/{view}").status_code == 200


@pytest.mark.parametrize(("lang", "group", "final"), [
    ("ko", "A조", "결승 단계 (토너먼트)"),
    ("bg", "Група A", "Финален етап (елиминации)"),
])  # fmt: skip
def test_the_groups_page_speaks_korean_and_bulgarian(client, lang, group, final):
    page = client.get("/public/1/groups", params={"lang": lang}).text
    assert group in page and final in page


def test_an_event_not_in_groups_has_no_groups_page(client):
    assert client.get("/public/2/groups").status_code == 404
    assert 'href="/public/2/groups"' not in client.get("/public/2/standings").text
    assert client.get("/public/99/groups").status_code == 404
