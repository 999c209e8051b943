"""No English word is left on a Korean or Bulgarian page (issue 13), names and notation aside.

Every page an arbiter, a player or a visitor reaches is rendered in ko and bg, with data in
it (an event under way, a round with a result form, clocks made without names); the text
the reader sees — element text and the title/aria-label/placeholder/alt attributes — may
contain Latin letters only for what is a name (the entrants, the event, the shipped cards)
or notation (ATK, PBATK, .bgn, PIN ...). The scanner is shown to catch English first.
"""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app
from ball.web.core.deps import service_for

from .conftest import create_event, post

LANGS = ["ko", "bg"]
ENTRANTS = ("Ann Lee", "Bo Kim", "Cy Ivanov", "Di Petrova")
EVENT = "Sofia Cup"
# Notation, units and symbols of the rules and the toolbox: the same in every language.
NOTATION = {
    "BALL",
    "ATK",
    "DEF",
    "PA",
    "PB",
    "PE",
    "PBATK",
    "PBDEF",
    "SD",
    "TD",
    "PIN",
    "JSON",
    "PDF",
    "WMC",
    "bgn",
    "Esc",
    "D-nn",
    "D-",
    "Letter",
    "CSV",
    "s",
    # Mahjong (issue 18): seed 003's article prefixes and PyMahjongGB's meld kinds
    "LS",
    "WC",
    "TL",
    "CHI",
    "PENG",
    "GANG",
    "ANGANG",
    # the header row an entrants CSV file must carry, typed as it is in any language
    "name",
    "club",
    "federation",
    "rating",
}
# Squares (A1, X5), piece and key letters (R), decision ids (D-15), draft versions (V6).
_CODE = re.compile(r"[A-Z]\d*|D-\d*|V\d+")
# Proper names the pages show as they are: the language menu's own name, the card deck (D-15).
# The pairing engine's name and the system it implements (FIDE Dutch) are names too.
NAMES = {
    "English",
    "Sprint",
    "Second",
    "Wind",
    "Long",
    "Arm",
    "Quick",
    "Feet",
    "Screen",
    "Audible",
    "gacrux",
    "Dutch",
    "FIDE",
    # the original rulebook's own term, quoted once in brackets after the bg rule text
    "Final",
    "Drive",
}
_HIDDEN = re.compile(r"(?is)<script\b.*?</script>|<style\b.*?</style>")
_SHOWN_ATTR = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z0-9]|[A-Za-z]")
_RECOVERY_CODE = re.compile(r"\b[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3}\b")  # a desk recovery code


def english_words(page: str, names: set[str]) -> set[str]:
    """Latin-letter words a reader sees on `page` that are neither names nor notation."""
    body = _HIDDEN.sub(" ", page)
    shown = " ".join([re.sub(r"<[^>]+>", " ", body), *_SHOWN_ATTR.findall(body)])
    text = _RECOVERY_CODE.sub(" ", html.unescape(shown))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    words = set(_WORD.findall(text)) - NOTATION - NAMES
    return {w for w in words if not _CODE.fullmatch(w)}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[TestClient, list[str]]:
    """An app with an event in round 1 (one result in), and clocks without names."""
    db = tmp_path_factory.mktemp("english") / "web.sqlite"
    client = TestClient(create_app(str(db)))
    event_id = create_event(client, name=EVENT, system="swiss", rounds="3")
    for name in ENTRANTS:
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    forfeit = {"kind": "forfeit", "forfeit": "B"}
    post(client, event_id, "/rounds/1/tables/2", forfeit)
    mahjong = create_event(client, name=f"{EVENT} 2", game="mahjong", rounds="1", hands="2")
    for name in ENTRANTS:  # issue 18: a session seated, a hand and rulings on the sheet
        assert post(client, mahjong, "/entrants", {"name": name}).status_code == 303
    assert post(client, mahjong, "/sessions", {"method": "random"}).status_code == 303
    sheet = f"/desk/{mahjong}/sessions/1/tables/1"
    for what, form in [("hand", {"outcome": "discard", "winner": "E", "discarder": "S",
                                 "fan": "8"}),
                       ("penalty", {"kind": "false-win", "seat": "N"}),
                       ("time", {"seat": "W", "limit": "turn", "over_seconds": "20"})]:  # fmt: skip
        assert post(client, mahjong, f"/sessions/1/tables/1/{what}",
                    {"version": str(len(what) and _version(client, sheet)), **form}
                    ).status_code == 303  # fmt: skip
    clocks = []
    for control in ("ball-standard", "mahjong-wmc", "xiangqi-6.1"):
        made = client.post(
            "/clock/api/clocks", json={"table": "7", "control": control, "pin": "0000"}
        )
        assert made.status_code == 201, made.text
        clocks.append(f"/clock/{made.json()['id']}")
    # issue 35 §1: a table's two link pages, one side's entry waiting for the other's answer
    links = service_for(client.app).table_links.table_link_tokens(event_id, 1)[1]
    entry = {"h1_td": "A", "h1_A_atk": "3", "h1_B_atk": "2", "h2_A_atk": "1", "h2_B_atk": "4"}
    assert client.post(f"/t/{links['B']}", data=entry, follow_redirects=False).status_code == 303
    # and a Mahjong table's seat links: E's entry waiting for another seat's answer
    seats = service_for(client.app).seat_links.seat_link_tokens(mahjong, 1)[1]
    hands = {"h1_outcome": "discard", "h1_winner": "E", "h1_discarder": "S", "h1_fan": "9",
             "h2_outcome": "self_drawn", "h2_winner": "N", "h2_fan": "8"}  # fmt: skip
    assert client.post(f"/t/{seats['E']}", data=hands, follow_redirects=False).status_code == 303
    game = client.post("/api/games", json={"mode": "free"}).json()["id"]
    paths = [
        "/",
        f"/?game={game}",
        "/rulebook",
        "/rulebook/all",
        "/learn",
        "/replay",
        f"/replay?game={game}",
        "/clock",
        "/clock/desk",
        *clocks,
        "/desk",
        f"/desk/{event_id}",
        f"/desk/{event_id}/rounds/1",
        f"/desk/{event_id}/rounds/1/tables/1",
        f"/desk/{event_id}/rounds/1/tables/1/what-if?result=1/2",
        f"/desk/{event_id}/sanctions",
        f"/t/{links['A']}",
        f"/t/{links['B']}",
        f"/t/{seats['E']}",
        f"/t/{seats['S']}",
        f"/desk/{mahjong}",
        f"/desk/{mahjong}/sessions/1",
        sheet,
        "/public",
        f"/public/{event_id}/standings",
        *(f"/public/{event_id}/standings?find={n.split()[0]}" for n in ENTRANTS),  # what I need
        f"/public/{event_id}/pairings",
        f"/public/{event_id}/results",
        "/print/forms",
    ]
    return client, paths


def _version(client: TestClient, path: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def test_the_scanner_finds_english(site):
    client, paths = site
    names = {*ENTRANTS, EVENT}
    found = set()
    for path in paths:
        found |= english_words(client.get(path, params={"lang": "en"}).text, names)
    assert {"Standings", "Simulator", "Round", "Table"} <= found


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_word_on_any_page(site, lang):
    client, paths = site
    names = {*ENTRANTS, EVENT}
    left = {}
    for path in paths:
        response = client.get(path, params={"lang": lang})
        assert response.status_code == 200, (path, response.text[:200])
        words = english_words(response.text, names)
        if words:
            left[path] = sorted(words)
    assert left == {}, repr(left)
