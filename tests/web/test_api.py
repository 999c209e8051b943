"""The JSON API: games, legal actions, undo/redo, exports, records, and 4xx on bad input."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.games.ball.web.rulebook import diagrams
from ball.web.app import create_app


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play(client: TestClient, gid: str, action: str) -> dict:
    r = client.post(f"/api/games/{gid}/actions", json={"action": action})
    assert r.status_code == 200, r.text
    return r.json()


def test_new_game_is_the_standard_start(client):
    s = make(client)
    assert s["position"] == Game.new().to_json()
    assert s["legal"] == Game.new().legal_actions()
    assert s["actor"] == "N" and s["log"] == [] and not s["can_undo"]


def test_apply_logs_the_action_and_its_pb(client):
    s = make(client, position=diagrams()["short-pass"]["position"])
    after = play(client, s["id"], "g7~j8@k9")  # notation is case-insensitive
    assert after["applied"]["action"] == "g7~j8@k9"
    assert after["log"][-1]["pb"] == 1
    assert after["position"]["ball"] == {"at": "K9"}
    assert after["position"]["pb"]["S"]["atk"] == 1 and after["position"]["pb"]["N"]["def"] == 1
    assert after["version"] == s["version"] + 1


def test_illegal_action_is_a_400_naming_it_and_changes_nothing(client):
    s = make(client)
    r = client.post(f"/api/games/{s['id']}/actions", json={"action": "G7-H8"})
    assert r.status_code == 400
    assert "G7-H8" in r.json()["detail"]
    assert client.get(f"/api/games/{s['id']}").json()["version"] == s["version"]


@pytest.mark.parametrize(
    ("body", "fault"),
    [
        ({"action": ""}, "action"),
        ({}, "action"),
        ({"action": 5}, "action"),
        ({"action": "F10-E9", "version": "x"}, "version"),
    ],
)
def test_malformed_action_bodies_are_422_naming_the_field(client, body, fault):
    s = make(client)
    r = client.post(f"/api/games/{s['id']}/actions", json=body)
    assert r.status_code == 422 and fault in r.json()["detail"]


def test_stale_version_is_a_conflict(client):
    s = make(client)
    play(client, s["id"], "F10-E9")
    r = client.post(
        f"/api/games/{s['id']}/actions", json={"action": "F12-E11", "version": s["version"]}
    )
    assert r.status_code == 409


def test_unknown_game_is_404(client):
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/actions", json={"action": "end"}).status_code == 404


def test_bad_position_document_is_422_naming_the_field(client):
    doc = Game.new().to_json()
    doc["pieces"][0]["at"] = "B1"  # not a playable square
    r = client.post("/api/games", json={"position": doc})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("position: pieces[0]")
    r = client.post("/api/games", json={"position": [1, 2]})
    assert r.status_code == 422 and "position" in r.json()["detail"]


def test_legal_actions_for_one_piece(client):
    s = make(client)
    r = client.get(f"/api/games/{s['id']}/legal", params={"piece": "d10"})
    actions = r.json()["actions"]
    assert actions and all(a.startswith("D10") for a in actions)
    assert set(actions) == {a for a in s["legal"] if a.startswith("D10")}
    assert client.get(f"/api/games/{s['id']}/legal", params={"piece": "Z9"}).status_code == 422


def test_undo_redo_in_free_play_only(client):
    s = make(client)
    play(client, s["id"], "F10-E9")
    undone = client.post(f"/api/games/{s['id']}/undo").json()
    assert undone["position"] == s["position"] and undone["can_redo"]
    redone = client.post(f"/api/games/{s['id']}/redo").json()
    assert redone["log"][0]["action"] == "F10-E9"
    assert client.post(f"/api/games/{s['id']}/redo").status_code == 400
    strict = make(client, mode="play")
    play(client, strict["id"], "F10-E9")
    r = client.post(f"/api/games/{strict['id']}/undo")
    assert r.status_code == 400 and "free play" in r.json()["detail"]


def test_a_new_action_clears_redo(client):
    s = make(client)
    play(client, s["id"], "F10-E9")
    client.post(f"/api/games/{s['id']}/undo")
    after = play(client, s["id"], "F12-E11")
    assert not after["can_redo"]


def test_games_survive_a_restart(db_path):
    first = TestClient(create_app(db_path))
    s = make(first, position=diagrams()["block-steal"]["position"])
    play(first, s["id"], "H10-G9")
    play(first, s["id"], "continue")
    before = first.get(f"/api/games/{s['id']}").json()
    again = TestClient(create_app(db_path))
    after = again.get(f"/api/games/{s['id']}").json()
    assert after == before
    assert after["position"]["attack"] == "N"


def test_export_position_and_record_round_trip(client):
    s = make(client, position=diagrams()["release"]["position"])
    play(client, s["id"], "split G9 H10 F10:top")
    state = client.get(f"/api/games/{s['id']}").json()
    assert client.get(f"/api/games/{s['id']}/position").json() == state["position"]
    record = client.get(f"/api/games/{s['id']}/record")
    assert record.status_code == 200 and "split G9 H10 F10:top" in record.text
    replayed = client.post("/api/records/replay", json={"bgn": record.text}).json()
    half = replayed["halves"][0]
    assert half["positions"][0] == diagrams()["release"]["position"] | {
        "pieces": half["positions"][0]["pieces"]
    }
    assert half["positions"][-1] == state["position"]
    assert [p["action"] for p in half["plies"]] == ["split G9 H10 F10:top"]


def test_replay_of_a_record_with_an_illegal_action_names_the_line(client):
    bgn = '[Event "x"]\n\nhalf 1\n1. F10-E9, end\n2. G7-A1\n'
    r = client.post("/api/records/replay", json={"bgn": bgn})
    assert r.status_code == 400
    assert "G7-A1" in r.json()["detail"] and "line 5" in r.json()["detail"]
    r = client.post("/api/records/replay", json={"bgn": "half x"})
    assert r.status_code == 400 and "record" in r.json()["detail"]


def test_game_replay_lists_every_position(client):
    s = make(client)
    for action in ("F10-E9", "end"):
        play(client, s["id"], action)
    half = client.get(f"/api/games/{s['id']}/replay").json()["halves"][0]
    assert len(half["positions"]) == 3
    g = Game.new()
    g.apply("F10-E9")
    assert half["positions"][1] == g.to_json()


def test_computer_answers_for_its_side(client):
    s = make(client, mode="computer", computer_side="N")
    # N (DEF) moves first: the computer has already played its whole turn
    assert s["actor"] == "S"
    assert s["log"] and all(e["side"] == "N" for e in s["log"])
    human_plies = len(s["log"])
    state = s
    for _ in range(20):  # S plays its turn (action and release phase) with legal actions
        if state["actor"] != "S" or state["over"]:
            break
        state = play(client, s["id"], state["legal"][-1])
        human_plies = len(state["log"]) if state["log"][-1]["side"] == "S" else human_plies
        if any(e["side"] == "N" for e in state["log"][human_plies:]):
            break
    answered = [e for e in state["log"][len(s["log"]) :] if e["side"] == "N"]
    assert answered, "the computer did not answer"
    assert state["actor"] == "S" or state["over"]
    # every stored action replays through the engine
    g = Game.new()
    for entry in state["log"]:
        g.apply(entry["action"])
    assert g.to_json() == state["position"]


def test_check_position_returns_the_normalised_document(client):
    doc = diagrams()["touchdown"]["position"]
    r = client.post("/api/positions/check", json={"position": doc})
    assert r.status_code == 200 and r.json() == Game.from_json(doc).to_json()


def test_openapi_documents_the_game_routes(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/legal",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/position",
        "/api/games/{game_id}/record",
    ):
        assert path in paths


def test_demo_seeds_one_game_once(db_path):
    TestClient(create_app(db_path, demo=True))
    client = TestClient(create_app(db_path, demo=True))
    games = client.get("/api/games").json()
    assert [g["title"] for g in games] == ["Demo game"]
    assert games[0]["plies"] > 0


FIXTURE_REUSE = HealthCheck.function_scoped_fixture  # one app per test is what we want
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[FIXTURE_REUSE])
@given(action=st.text(max_size=30))
def test_no_action_text_causes_a_server_error(client, action):
    gid = client.get("/api/games").json()
    gid = gid[0]["id"] if gid else make(client)["id"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": action})
    assert r.status_code < 500


@settings(max_examples=60, deadline=None, suppress_health_check=[FIXTURE_REUSE])
@given(field=st.sampled_from(sorted(Game.new().to_json())), value=_json)
def test_no_position_document_causes_a_server_error(client, field, value):
    doc = Game.new().to_json()
    doc[field] = value
    r = client.post("/api/games", content=json.dumps({"position": doc}))
    assert r.status_code < 500


def test_replay_applies_sanctions_of_a_match_record(client):
    # Coach A plays S in half 1; B (N) moves first and loses the rest of its turn.
    bgn = (
        '[CoachA "Ana"]\n[CoachB "Bo"]\n\nhalf 1\n'
        '1. F10-E9, sanction B loss-of-turn "slow"\n2. G7-I9\n'
    )
    r = client.post("/api/records/replay", json={"bgn": bgn})
    assert r.status_code == 200, r.text
    half = r.json()["halves"][0]
    assert [p["action"] for p in half["plies"]] == ["F10-E9", "sanction B loss-of-turn", "G7-I9"]
    assert half["positions"][2]["to_move"] == "S"  # the sanction ended N's turn
    assert half["plies"][2]["pb"] == 1 and half["plies"][1]["pb"] == 0


@pytest.mark.parametrize("path", ["/docs", "/", "/rulebook/dodge", "/replay", "/rulebook"])
def test_pages_load_nothing_from_the_internet(client, path):
    page = client.get(path)
    assert page.status_code == 200
    for url in re.findall(r'(?:src|href)="([^"]+)"', page.text):
        assert not url.startswith(("http:", "https:", "//")), url
        if url.startswith("/"):
            assert client.get(url.split("#")[0]).status_code == 200, url


def test_second_half_after_a_touchdown(client, db_path):
    s = make(client, position=diagrams()["touchdown"]["position"])
    assert client.post(f"/api/games/{s['id']}/next-half").status_code == 400  # not over yet
    over = play(client, s["id"], "G15-I17")
    assert over["over"] and over["position"]["score"]["S"] == 1
    r = client.post(f"/api/games/{s['id']}/next-half")
    assert r.status_code == 201
    second = r.json()
    expected = Game.from_json(over["position"]).next_half().to_json()
    assert second["position"] == expected and second["id"] != s["id"]
    again = client.post(f"/api/games/{second['id']}/next-half")
    assert again.status_code == 400
    # asking for half 2 again answers the same game: repeating the request stores nothing
    repeated = client.post(f"/api/games/{s['id']}/next-half")
    assert repeated.status_code == 201 and repeated.json()["id"] == second["id"]
    from sqlalchemy import create_engine, text

    with create_engine(f"sqlite:///{db_path}").connect() as conn:
        rows = conn.execute(
            text("SELECT id, owner FROM web_games WHERE first_half = :f"), {"f": s["id"]}
        ).all()
    # one game, counted against the address that asked for it (issue 30 item 8's quota)
    assert [row.id for row in rows] == [second["id"]] and rows[0].owner


def test_a_stored_game_that_no_longer_replays_is_a_clear_409(client, db_path):
    from sqlalchemy import create_engine, text

    s = make(client)
    play(client, s["id"], "F10-E9")
    # simulate a rules change that makes the stored second action illegal
    with create_engine(f"sqlite:///{db_path}").begin() as conn:
        conn.execute(
            text("UPDATE web_games SET actions = :a, version = 99 WHERE id = :i"),
            {"a": json.dumps(["F10-E9", "G7-A1"]), "i": s["id"]},
        )
    r = client.get(f"/api/games/{s['id']}")
    assert r.status_code == 409 and "ply 2" in r.json()["detail"]
