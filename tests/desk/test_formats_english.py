"""No English word is left on issue 17's pages in Korean or Bulgarian (as
`test_no_english_left` checks the others): the bracket, a tie with extra games and lots,
the team pages and match card, the public bracket and team pages, and the printed draw
sheet, bracket and team match cards."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app

from .conftest import create_event, post
from .test_no_english_left import english_words

KO_NAMES = ("Ann Lee", "Bo Kim", "Cy Ivanov", "Di Petrova", "Ed Stoev")
TEAM_PLAYERS = {"Sofia": ("Ana", "Bora", "Cveta"), "Seoul": ("Dae", "Eun", "Fara")}
PLAYERS = {p for ps in TEAM_PLAYERS.values() for p in ps}
NAMES = {*KO_NAMES, *TEAM_PLAYERS, *PLAYERS, "Cup", "Kupa", "Berger"}  # Berger: the tables' name


def with_lang(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[TestClient, list[str]]:
    client = TestClient(create_app(str(tmp_path_factory.mktemp("formats") / "web.sqlite")))
    ko = create_event(client, "Cup", "knockout", game="xiangqi", games_per_tie="2",
                      extra_games="1")  # fmt: skip
    for name in KO_NAMES:
        assert post(client, ko, "/entrants", {"name": name}).status_code == 303
    form = {"how": "cards"}
    cards = ("1R", "1B", "2R", "2B", "K")
    for i, (name, card) in enumerate(zip(KO_NAMES, cards, strict=True), start=1):
        form |= {f"name_{i}": name, f"card_{i}": card}
    assert post(client, ko, "/draw", form).status_code == 303
    draw = {"kind": "sheet", "xq_result": "1/2-1/2", "xq_reason": "agreement"}
    for game in (1, 2, 3):  # level after its games and its extra game: lots are due
        assert post(client, ko, "/rounds/1/ties/1/games", draw | {"game": game}).status_code == 303
    assert post(client, ko, "/rounds/1/ties/2/games", draw | {"game": 1}).status_code == 303
    teams = create_event(client, "Kupa", "round-robin", game="xiangqi", teams="2")
    for team, players in TEAM_PLAYERS.items():
        data = {"name": team, "players": "\n".join(players)}
        assert post(client, teams, "/teams", data).status_code == 303
    assert post(client, teams, "/rounds").status_code == 303
    paths = [
        "/desk",
        f"/desk/{ko}",
        f"/desk/{ko}/bracket",
        f"/desk/{ko}/rounds/1/ties/1",
        f"/desk/{ko}/rounds/1/ties/2",
        f"/public/{ko}/bracket",
        f"/print/forms?round=1&event={ko}",
        f"/desk/{teams}",
        f"/desk/{teams}/teams",
        f"/desk/{teams}/rounds/1/matches/1",
        f"/public/{teams}/teams",
        f"/print/forms?round=1&event={teams}",
    ]
    return client, paths


def test_the_scanner_sees_these_pages_in_english(site):
    client, paths = site
    found = set()
    for path in paths:
        found |= english_words(client.get(with_lang(path, "en")).text, NAMES)
    assert {"Bracket", "Board", "Seed", "Captain", "venue"} - found == set()


@pytest.mark.parametrize("lang", ["ko", "bg"])
def test_no_english_word_on_the_format_pages(site, lang):
    client, paths = site
    left = {}
    for path in paths:
        response = client.get(with_lang(path, lang))
        assert response.status_code == 200, (path, response.text[:300])
        words = english_words(response.text, NAMES)
        if words:
            left[path] = sorted(words)
    assert left == {}, repr(left)
