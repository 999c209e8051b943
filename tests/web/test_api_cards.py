"""PE mode and card mode through the JSON API: create with a ruleset, convert PA to PE,
play every kind of card, and the card-recovery choice (spec 11, 18.1)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ball.games.ball.engine import Game

DECK = ["sprint", "second-wind", "long-arm", "quick-feet", "screen", "audible"]


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play(client: TestClient, gid: str, action: str) -> dict:
    r = client.post(f"/api/games/{gid}/actions", json={"action": action})
    assert r.status_code == 200, r.text
    return r.json()


def card_position(**changes: Any) -> dict:
    """A card-mode start (N to move) edited for a test: the engine builds the document."""
    doc = Game.new("cards").to_json()
    doc.update(changes)
    return Game.from_json(doc).to_json()  # the engine accepts and normalises it


def piece(doc: dict, side: str, piece_id: str) -> dict:
    return next(p for p in doc["pieces"] if p["side"] == side and p["id"] == piece_id)


@pytest.mark.parametrize("ruleset", ["standard", "pe", "cards"])
def test_create_with_each_shipped_ruleset(client, ruleset):
    game = make(client, ruleset=ruleset)
    assert game["ruleset"] == ruleset
    assert game["position"]["ruleset"] == ruleset
    assert ("pe" in game["legal"]) is (ruleset != "standard")
    # the stored game replays with the same rules
    assert client.get(f"/api/games/{game['id']}").json()["ruleset"] == ruleset


def test_card_mode_reports_the_provisional_deck_and_both_hands(client):
    game = make(client, ruleset="cards")
    deck = game["deck"]
    assert deck["provisional"] is True
    assert [c["name"] for c in deck["cards"]] == DECK
    assert {c["name"]: c["pe"] for c in deck["cards"]}["sprint"] == 2
    assert {c["name"]: c["title"] for c in deck["cards"]}["quick-feet"] == "Quick Feet"
    for side in ("S", "N"):
        assert game["position"]["cards"][side] == {"hand": DECK, "discard": []}
    assert make(client, ruleset="pe")["deck"] is None
    assert make(client)["deck"] is None


def test_unknown_ruleset_is_a_422_naming_it(client):
    r = client.post("/api/games", json={"ruleset": "blitz"})
    assert r.status_code == 422
    assert "'blitz'" in r.json()["detail"] and "cards" in r.json()["detail"]
    assert client.get("/api/games").json() == []


def test_ruleset_that_contradicts_the_position_is_a_422(client):
    r = client.post(
        "/api/games", json={"ruleset": "standard", "position": Game.new("cards").to_json()}
    )
    assert r.status_code == 422
    assert "ruleset" in r.json()["detail"] and "'cards'" in r.json()["detail"]
    # agreeing, or leaving the ruleset to the position, works
    doc = Game.new("pe").to_json()
    assert make(client, ruleset="pe", position=doc)["ruleset"] == "pe"
    assert make(client, position=doc)["ruleset"] == "pe"


def test_convert_pa_to_pe(client):
    game = make(client, ruleset="pe")
    side = game["actor"]
    after = play(client, game["id"], "pe")
    assert after["position"]["pe"][side] == game["position"]["pe"][side] + 1
    assert after["position"]["pa"] == game["position"]["pa"] - 1
    assert after["log"][-1]["action"] == "pe"


def test_no_card_is_legal_without_pe(client):
    game = make(client, ruleset="cards")
    assert not [a for a in game["legal"] if a.startswith("card")]
    r = client.post(f"/api/games/{game['id']}/actions", json={"action": "card sprint"})
    assert r.status_code == 400 and "card sprint" in r.json()["detail"]


def test_sprint_costs_pe_adds_pa_and_goes_to_the_discard_pile(client):
    game = make(client, ruleset="cards", position=card_position(pe={"S": 0, "N": 2}))
    assert "card sprint" in game["legal"]
    after = play(client, game["id"], "card sprint")
    pos = after["position"]
    assert pos["pe"]["N"] == 0
    assert pos["pa"] == game["position"]["pa"] + 1
    assert "sprint" not in pos["cards"]["N"]["hand"]
    assert pos["cards"]["N"]["discard"] == ["sprint"]
    assert pos["cards"]["S"]["hand"] == DECK


@pytest.mark.parametrize(
    ("card", "effect", "value"),
    [("long-arm", "short_range", 6), ("screen", "screen", True), ("audible", "audible", True)],
)
def test_turn_effect_cards_show_in_effects(client, card, effect, value):
    # N to move holds the ball (and so is ATK): every turn effect has something to act on.
    position = card_position(pe={"S": 0, "N": 1}, ball={"carrier": "N:X5"}, attack="N")
    game = make(client, ruleset="cards", position=position)
    assert game["position"]["effects"][effect] != value
    after = play(client, game["id"], f"card {card}")
    assert after["position"]["effects"][effect] == value
    assert after["position"]["cards"]["N"]["discard"] == [card]


def test_second_wind_names_the_restricted_piece(client):
    doc = card_position(pe={"S": 0, "N": 1}, restricted=["N:O6"])
    square = piece(doc, "N", "O6")["at"]
    game = make(client, position=doc)
    assert f"card second-wind {square}" in game["legal"]
    # the piece filter finds the card too: it starts from that square
    legal = client.get(f"/api/games/{game['id']}/legal", params={"piece": square}).json()
    assert f"card second-wind {square}" in legal["actions"]
    after = play(client, game["id"], f"card second-wind {square}")
    assert after["position"]["restricted"] == []
    assert after["position"]["cards"]["N"]["discard"] == ["second-wind"]


def test_quick_feet_stands_a_knocked_down_piece_up(client):
    doc = Game.new("cards").to_json()
    doc["pe"] = {"S": 0, "N": 2}
    piece(doc, "N", "X1")["state"] = "down"
    origin = piece(doc, "N", "X1")["at"]
    game = make(client, position=doc)
    moves = [a for a in game["legal"] if a.startswith("card quick-feet")]
    assert moves and all(a.startswith(f"card quick-feet {origin}-") for a in moves)
    target = moves[0].rsplit("-", 1)[1]
    after = play(client, game["id"], moves[0])
    stood = piece(after["position"], "N", "X1")
    assert (stood["at"], stood["state"]) == (target, "active")
    assert after["position"]["pe"]["N"] == 0


def test_recovery_takes_back_a_card_then_the_turn_goes_on(client):
    doc = card_position(
        phase="recover",
        cards={"S": {"hand": DECK, "discard": []}, "N": {"hand": [], "discard": DECK}},
    )
    game = make(client, position=doc)
    assert game["position"]["phase"] == "recover" and game["actor"] == "N"
    assert sorted(game["legal"]) == sorted(["recover -", *(f"recover {c}" for c in DECK)])
    after = play(client, game["id"], "recover long-arm")
    pos = after["position"]
    assert pos["cards"]["N"]["hand"] == ["long-arm"]
    assert "long-arm" not in pos["cards"]["N"]["discard"]
    assert (pos["phase"], pos["to_move"]) == ("action", "S")


def test_declining_recovery_keeps_the_discard_pile(client):
    doc = card_position(
        phase="recover",
        cards={"S": {"hand": DECK, "discard": []}, "N": {"hand": [], "discard": ["sprint"]}},
    )
    game = make(client, position=doc)
    after = play(client, game["id"], "recover -")
    assert after["position"]["cards"]["N"] == {"hand": [], "discard": ["sprint"]}
    assert after["position"]["to_move"] == "S"
    assert after["position"].get("recovery_owed") is None


def test_recovery_of_a_card_not_in_the_discard_pile_is_a_400(client):
    doc = card_position(
        phase="recover",
        cards={"S": {"hand": DECK, "discard": []}, "N": {"hand": [], "discard": ["sprint"]}},
    )
    game = make(client, position=doc)
    r = client.post(f"/api/games/{game['id']}/actions", json={"action": "recover screen"})
    assert r.status_code == 400 and "recover screen" in r.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == game["version"]


def test_a_card_game_record_replays_with_its_ruleset(client):
    game = make(client, ruleset="cards")
    for action in ("pe", "pe", "card sprint"):
        play(client, game["id"], action)
    record = client.get(f"/api/games/{game['id']}/record").text
    assert '[Ruleset "cards"]' in record
    replay = client.post("/api/records/replay", json={"bgn": record})
    assert replay.status_code == 200, replay.text
    plies = replay.json()["halves"][0]["plies"]
    assert [p["action"] for p in plies] == ["pe", "pe", "card sprint"]
