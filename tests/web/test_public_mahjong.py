"""The public display of a Mahjong event (issue 18): seating per session with "find my
table" by name (case and accents ignored), standings by table points then score with each
session's figures, team standings, and per-table results with the rulings (seed 003)."""

from __future__ import annotations

import re
import unicodedata
from html import unescape

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.mahjong.tournament.views import name_key, points_text
from ball.web.app import create_app
from mahjong.public_event import NAMES, make_event


@pytest.fixture
def site(tmp_path):
    db = str(tmp_path / "mj.sqlite")
    svc, event_id = make_event(db)
    return TestClient(create_app(db)), svc, event_id


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows(html: str, table_id: str) -> list[list[str]]:
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return [[text_of(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            for tr in re.findall(r"<tr.*?</tr>", body, re.S)]  # fmt: skip


def where(svc, name: str) -> tuple[int, str]:
    for table in svc.sessions.session_tables(1)["tables"]:
        for wind, seated in table["seats"].items():
            if seated == name:
                return table["table"], wind
    raise AssertionError(name)


@pytest.mark.parametrize(
    ("query", "name"),
    [("zoe", "Zoë Ångström"), ("ANGSTROM", "Zoë Ångström"), ("chloe dub", "Chloé Dubois"),
     ("иван", "Иван Петров"), ("민준", "김민준")],
)  # fmt: skip
def test_find_my_table_ignores_case_and_accents(site, query, name):
    client, svc, event_id = site
    page = client.get(f"/public/{event_id}/seating", params={"find": query})
    assert page.status_code == 200
    found = re.search(r'<section class="found".*?</section>', page.text, re.S).group(0)
    table, wind = where(svc, name)
    words = {"E": "East", "S": "South", "W": "West", "N": "North"}[wind]
    assert text_of(found).replace(" ,", ",") == f"{name} Session 1: Table {table}, {words}"
    # the seating table marks the player's seat
    assert re.search(rf'<td class="name hit" data-wind="{wind}"><span class="wind-mark">'
                     rf'{wind}</span> {name}</td>', page.text)  # fmt: skip
    assert 'http-equiv="refresh"' not in page.text  # no refresh pulls the answer away


def test_a_search_that_finds_nobody_says_so(site):
    client, _, event_id = site
    page = client.get(f"/public/{event_id}/seating", params={"find": "Nobody"})
    assert "No player's name contains “Nobody”." in unescape(page.text)
    assert 'class="name hit"' not in page.text
    assert client.get(f"/public/{event_id}/seating", params={"find": "x" * 1001}).status_code == 422


def test_the_seating_lists_every_table_of_the_session(site):
    client, svc, event_id = site
    html = client.get(f"/public/{event_id}/seating").text
    seated = [[str(t["table"]), *(f"{w} {t['seats'][w]}" for w in "ESWN")]
              for t in svc.sessions.session_tables(1)["tables"]]  # fmt: skip
    assert rows(html, "seating") == seated
    assert client.get(f"/public/{event_id}/seating?session=2").status_code == 404


def test_standings_match_the_service_with_each_session_and_the_teams(site):
    client, svc, event_id = site
    html = client.get(f"/public/{event_id}/standings").text
    expected = svc.sessions.session_standings()
    shown = rows(html, "standings")
    assert len(shown) == 16
    for row, want in zip(shown, expected["standings"], strict=True):
        tp = points_text(want["table_points_exact"])
        assert row[:5] == [str(want["rank"]), want["name"], want["team"], tp, str(want["score"])]
        assert row[5] == f"{tp} / {want['score']}"  # session 1's table points / score
    teams = rows(html, "teams")
    assert [r[:4] for r in teams] == [
        [str(t["rank"]), t["team"], points_text(t["table_points_exact"]), str(t["score"])]
        for t in expected["teams"]
    ]
    # ties share: the four-way draw gives 7/4 each, shown 1¾; a table always sums to 7
    assert "1¾" in html and "1½" in html


def test_per_table_results_show_seats_scores_table_points_and_rulings(site):
    client, svc, event_id = site
    html = client.get(f"/public/{event_id}/tables").text
    for table in svc.sessions.session_tables(1)["tables"]:
        section = re.search(rf'<section class="mahjong-table entered" id="table-{table["table"]}"'
                            r".*?</section>", html, re.S).group(0)  # fmt: skip
        for wind, word in zip("ESWN", ("East", "South", "West", "North"), strict=True):
            tr = re.search(rf'<tr data-wind="{wind}">.*?</tr>', section, re.S).group(0)
            cells = [text_of(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            score = str(table["scores"][wind])
            assert cells[0] == word and cells[1] == table["seats"][wind]
            assert cells[2].split(" ")[0] == score
            assert cells[3] == points_text(table["table_points"][wind])
    rulings = {m: text_of(r) for m, r in re.findall(r'<li data-ruling="(\w+)">(.*?)</li>', html)}
    assert rulings["false_win"] == "Hand 2 · North · false win (WC 6) -30"
    assert rulings["dead_hand"] == "Hand 1 · South · dead hand (LS 4)"
    assert rulings["turn_overrun"] == "Hand 2 · East · turn time overrun (TL 2) -10"


def test_two_player_views_lead_to_the_mahjong_ones_and_bad_ids_are_404(site, tmp_path):
    client, svc, event_id = site
    moved = client.get(f"/public/{event_id}/pairings", follow_redirects=False)
    assert moved.status_code == 307 and moved.headers["location"].endswith("/seating")
    moved = client.get(f"/public/{event_id}/results", follow_redirects=False)
    assert moved.headers["location"].endswith("/tables")
    assert client.get("/public/999/seating").status_code == 404
    ball = svc.events.create_event(name="BALL Cup", system="swiss", rounds=3)["id"]
    assert client.get(f"/public/{ball}/tables").status_code == 404


def test_korean_page_and_no_session_yet(tmp_path):
    db = str(tmp_path / "empty.sqlite")
    svc, event_id = make_event(db)
    client = TestClient(create_app(db))
    ko = client.get(f"/public/{event_id}/seating", headers={"Accept-Language": "ko"})
    assert "내 테이블 찾기" in ko.text and "세션 1" in ko.text
    fresh = svc.sessions.create_mahjong_event(name="Later", sessions=2)["id"]
    page = client.get(f"/public/{fresh}/tables")
    assert page.status_code == 200 and "No session is seated yet." in page.text


LETTERS = "abcdeghilmnorstuyz"
ACCENTS = "\u0301\u0300\u0308\u030a\u0303\u0327"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LETTERS), st.sampled_from(["", *ACCENTS]),
                          st.booleans()), min_size=1, max_size=20))  # fmt: skip
def test_name_key_drops_accents_and_case(letters):
    """Any accented, mixed-case spelling folds to the plain lower-case letters."""
    spelled = "".join(unicodedata.normalize("NFC", (c.upper() if up else c) + mark)
                      for c, mark, up in letters)  # fmt: skip
    assert name_key(spelled) == "".join(c for c, _, _ in letters)
    assert name_key(name_key(spelled)) == name_key(spelled)


def test_every_name_finds_itself():
    assert all(name_key(n) and name_key(n) in name_key(n.upper()) for n in NAMES)


@pytest.mark.parametrize("far", [0, 2**63, 2**64 + 5])
@pytest.mark.parametrize("view", ["seating", "tables"])
def test_an_event_id_out_of_range_is_not_found(site, far, view):
    client, _, _ = site
    assert client.get(f"/public/{far}/{view}").status_code == 404


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_no_english_word_on_the_korean_and_bulgarian_pages(site, lang):
    """As tests/desk/test_no_english_left.py, for the Mahjong views: names, teams and the
    articles of seed 003 (LS, WC, TL) aside, no Latin word is left."""
    from desk.test_no_english_left import english_words
    from mahjong.public_event import TEAMS

    client, _, event_id = site
    names = {*NAMES, *TEAMS, "MJ Open", "Seoul", "LS", "WC", "TL"}
    for view in ("standings", "seating?find=zoe", "tables"):
        page = client.get(f"/public/{event_id}/{view}", params={"lang": lang})
        assert page.status_code == 200
        assert english_words(page.text, names) == set(), view
    english = client.get(f"/public/{event_id}/tables", params={"lang": "en"}).text
    assert {"Table", "Rulings", "false", "win"} <= english_words(english, names)
