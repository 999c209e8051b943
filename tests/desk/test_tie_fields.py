"""A knockout tie of a game without a tie form of its own (`GameBase.tie_form`): the tie's
page asks for the fields of the game's desk form (`DeskForm.fields`), heads the sides with
the shared words, and saves each game through the game's own reading and rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from ball import games
from ball.games.errors import IllegalSheet, TournamentError
from ball.web.core.deps import service_for

from .conftest import create_event, post

FIELD = "coin_call"


def read(form: Mapping[str, Any], a: str, b: str) -> dict[str, Any]:
    call = (form.get(FIELD) or "").strip()
    if call not in ("A", "B"):
        raise TournamentError(f"{FIELD}: say A or B, got {call!r}")
    return {"players": [a, b], "call": call}


def values(doc: Mapping[str, Any], _a: str, _b: str) -> dict[str, str]:
    return {FIELD: str(doc.get("call", ""))}


class Coin(games.GameBase):
    """A coin game: the side the form names wins; no tie form, no sides of its own."""

    name = "coin"
    seats = 2
    tiebreaks: dict[str, games.GameTieBreak] = {}
    desk_form = games.DeskForm("desk/result.html", read, values, (FIELD,))

    def decide(self, sheet: dict[str, Any]) -> games.Decided:
        if sheet.get("call") not in ("A", "B"):
            raise IllegalSheet("a coin game names its winner")
        side = sheet["call"]
        winner = sheet["players"][0 if side == "A" else 1]
        figures: dict[str, games.Figures] = {"A": {}, "B": {}}
        return games.Decided(side, figures, {"winner": winner, "reason": "call"})

    def forfeit(self, winner: str) -> dict[str, games.Figures]:
        return {"A": {}, "B": {}}

    def double_forfeit(self) -> dict[str, games.Figures]:
        return {"A": {}, "B": {}}


@pytest.fixture
def coin(monkeypatch):
    monkeypatch.setitem(games.GAMES, "coin", Coin())


def test_a_tie_of_a_game_without_a_tie_form_takes_its_desk_forms_fields(client, coin):
    event_id = create_event(
        client, "Coin KO", "knockout", game="coin", games_per_tie="2", extra_games="0"
    )
    for name in ("Ann", "Bo"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    cards = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": "1B"}
    assert post(client, event_id, "/draw", cards).status_code == 303
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "Game 1: Ann (Player A) – Bo (Player B)" in page
    assert f'name="{FIELD}"' in page and 'name="h1_td"' not in page  # not BALL's half sheet
    path = "/rounds/1/ties/1/games"
    refused = post(client, event_id, path, {"game": "1", "kind": "sheet", FIELD: "C"})
    assert refused.status_code == 400 and f"{FIELD}: say A or B" in refused.text
    saved = post(client, event_id, path, {"game": "1", "kind": "sheet", FIELD: "B"})
    assert saved.status_code == 303, saved.text
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "Game 2: Bo (Player A) – Ann (Player B)" in page  # the colours alternate
    saved = post(client, event_id, path, {"game": "2", "kind": "sheet", FIELD: "A"})
    assert saved.status_code == 303, saved.text
    tie = service_for(client.app).formats.bracket(event_id).rounds[0].ties[0]
    assert [g.winner for g in tie.games] == ["Bo", "Bo"] and tie.winner == "Bo"
