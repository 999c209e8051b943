"""The Xiangqi games API (`/api/xiangqi`): create, state with legal moves, apply, illegal
moves named, the computer's move, endings, caps, ids, replay; stored in the web database."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.engine import Game, Move, Position
from ball.web.app import create_app
from ball.web.core.limits import Limits

MATE_IN_1 = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w"


def new(client: TestClient, **body) -> dict:
    r = client.post("/api/xiangqi/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_create_standard_game_with_44_legal_moves(client: TestClient) -> None:
    g = new(client)
    assert g["fen"] == Position.start().fen() and g["turn"] == "red"
    assert sorted(g["legal"]) == sorted(m.iccs() for m in Position.start().legal_moves())
    assert len(g["legal"]) == 44  # seed 2.2's moves from the start (perft 1)
    assert g["pieces"]["e0"] == "K" and g["pieces"]["b7"] == "c" and len(g["pieces"]) == 32
    assert g["moves"] == [] and g["last"] is None and not g["over"] and g["version"] == 0
    assert client.get(f"/api/xiangqi/games/{g['id']}").json()["fen"] == g["fen"]


def test_apply_moves_in_turn(client: TestClient) -> None:
    g = new(client)
    path = f"/api/xiangqi/games/{g['id']}/moves"
    for move in ("h2e2", "h9g7", "b0c2"):
        r = client.post(path, json={"move": move})
        assert r.status_code == 200, r.text
    s = r.json()
    assert s["last"] == "b0c2" and s["turn"] == "black" and s["version"] == 3
    assert s["pieces"]["e2"] == "C" and s["pieces"]["g7"] == "n" and "h9" not in s["pieces"]
    assert [m["iccs"] for m in s["moves"]] == ["h2e2", "h9g7", "b0c2"]
    assert [m["by"] for m in s["moves"]] == ["red", "black", "red"]


def test_capture_with_check_is_reported(client: TestClient) -> None:
    # The cannon jumps its own pawn to take on e5 (seed 2.2) and checks over the advisor.
    g = new(client, fen="4k4/4a4/9/9/4p4/9/4P4/4C4/9/3K5 w")
    s = client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": "e2e5"}).json()
    assert s["check"] and s["king"] == "e9" and s["turn"] == "black"
    assert s["pieces"]["e5"] == "C" and len(s["pieces"]) == 5
    # Every legal answer gets Black out of check (the engine decides, the API only relays).
    pos = Position.from_fen(s["fen"])
    assert s["legal"] and all(
        not pos.push(Move.from_iccs(m)).in_check(pos.turn) for m in s["legal"]
    )


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("h2h8", "cannot move from h2 to h8"),
        ("e5e4", "no piece on e5"),
        ("h7h0", "is black's, not red's"),
        ("zz99", "is not an ICCS move"),
    ],
)
def test_illegal_move_is_400_naming_it(client: TestClient, move: str, words: str) -> None:
    g = new(client)
    r = client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": move})
    assert r.status_code == 400 and move in r.json()["detail"] and words in r.json()["detail"]
    assert client.get(f"/api/xiangqi/games/{g['id']}").json()["version"] == 0  # unchanged


def test_move_leaving_the_kings_facing_is_refused(client: TestClient) -> None:
    # Seed 4.1.2: the only piece between the kings may not step aside.
    g = new(client, fen="4k4/9/9/9/9/9/9/9/4N4/4K4 w")
    r = client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": "e1c2"})
    assert r.status_code == 400 and "face" in r.json()["detail"]


def test_bad_fen_mode_level_notation_are_422_naming_them(client: TestClient) -> None:
    r = client.post("/api/xiangqi/games", json={"fen": "4k4/9 w"})
    assert r.status_code == 422 and r.json()["detail"].startswith("fen:")
    r = client.post("/api/xiangqi/games", json={"mode": "blitz"})
    assert r.status_code == 422 and "mode" in r.json()["detail"]
    r = client.post("/api/xiangqi/games", json={"mode": "computer", "level": "god"})
    assert r.status_code == 422 and "level" in r.json()["detail"]
    r = client.post("/api/xiangqi/games", json={"title": "a\nb"})
    assert r.status_code == 422 and "title" in r.json()["detail"]
    g = new(client)
    r = client.get(f"/api/xiangqi/games/{g['id']}", params={"notation": "morse"})
    assert r.status_code == 422 and "notation must be one of iccs" in r.json()["detail"]


@pytest.mark.parametrize("bad", ["0", "abc", "99999", str(2**31), str(2**70), "١"])
def test_unknown_ids_are_404(client: TestClient, bad: str) -> None:
    r = client.get(f"/api/xiangqi/games/{bad}")
    assert r.status_code == 404 and "does not exist" in r.json()["detail"]
    r = client.post(f"/api/xiangqi/games/{bad}/moves", json={"move": "h2e2"})
    assert r.status_code == 404


def test_computer_answers_and_only_plays_legal_moves(client: TestClient) -> None:
    g = new(client, mode="computer", computer="black", level="easy")
    assert g["computer"] == "black" and g["turn"] == "red"
    s = client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": "h2e2"}).json()
    assert len(s["moves"]) == 2 and s["turn"] == "red" and s["moves"][1]["by"] == "black"
    assert (
        Move.from_iccs(s["moves"][1]["iccs"])
        in Position.from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"
        ).legal_moves()
    )
    # Out of turn: the computer's side cannot be moved by hand.
    red = new(client, mode="computer", computer="red", level="easy")
    assert len(red["moves"]) == 1 and red["turn"] == "black"  # the computer opened
    legal_red = sorted(m.iccs() for m in Position.start().legal_moves())
    r = client.post(f"/api/xiangqi/games/{red['id']}/moves", json={"move": legal_red[0]})
    assert r.status_code == 400  # it is Black's move now: Red's piece cannot move


def test_computer_move_on_request_finds_the_mate(client: TestClient) -> None:
    g = new(client, fen=MATE_IN_1)
    s = client.post(f"/api/xiangqi/games/{g['id']}/computer", json={"level": "medium"}).json()
    assert s["over"] and s["ending"]["result"] == "1-0"
    assert s["ending"]["reason"] in ("checkmate", "no-legal-move") and s["legal"] == []
    r = client.post(f"/api/xiangqi/games/{g['id']}/computer", json={})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    r = client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": "e9e8"})
    assert r.status_code == 409 and "is over: 1-0" in r.json()["detail"]


def test_resignation_and_stale_version(client: TestClient) -> None:
    g = new(client)
    path = f"/api/xiangqi/games/{g['id']}"
    assert client.post(f"{path}/moves", json={"move": "h2e2", "version": 0}).status_code == 200
    stale = client.post(f"{path}/moves", json={"move": "h9g7", "version": 0})
    assert stale.status_code == 409 and "version" in stale.json()["detail"]
    s = client.post(f"{path}/ending", json={"ending": "resign-black"}).json()
    assert s["over"] and s["ending"] == {
        "result": "1-0",
        "reason": "resignation",
        "article": "4.1.9",
        "detail": "black resigned",
    }
    doc = client.get(f"{path}/document").json()
    assert Game.from_document(doc).outcome().reason == "resignation"  # type: ignore[union-attr]


def test_replay_of_a_stored_game_and_of_a_document(client: TestClient) -> None:
    g = new(client)
    for move in ("h2e2", "h9g7"):
        client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": move})
    view = client.get(f"/api/xiangqi/games/{g['id']}/replay").json()
    assert view["moves"] == ["h2e2", "h9g7"] and len(view["frames"]) == 3
    assert view["frames"][0]["fen"] == Position.start().fen()
    doc = client.get(f"/api/xiangqi/games/{g['id']}/document").json()
    assert client.post("/api/xiangqi/replay", json={"document": doc}).json() == view
    doc["moves"].append("a0a9")
    r = client.post("/api/xiangqi/replay", json={"document": doc})
    assert r.status_code == 422 and "move 3" in r.json()["detail"]
    assert client.post("/api/xiangqi/replay", json={}).status_code == 422


def test_stored_games_survive_a_restart(db_path: str) -> None:
    first = TestClient(create_app(db_path))
    g = new(first)
    first.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": "b2e2"})
    again = TestClient(create_app(db_path))
    assert again.get(f"/api/xiangqi/games/{g['id']}").json()["last"] == "b2e2"
    assert [x["id"] for x in again.get("/api/xiangqi/games").json()] == [g["id"]]


def test_xiangqi_games_share_the_games_cap(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "w.sqlite"), limits=Limits(max_games=2))
    client = TestClient(app)
    assert client.post("/api/games", json={}).status_code == 201
    assert client.post("/api/xiangqi/games", json={}).status_code == 201
    for path in ("/api/xiangqi/games", "/api/games"):
        capped = client.post(path, json={})
        assert capped.status_code == 409 and "BALL_MAX_GAMES" in capped.json()["detail"]


@pytest.mark.hypothesis
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=8))
def test_random_games_through_the_api_match_the_engine(client: TestClient, picks) -> None:
    """Whatever legal moves a client picks, the stored game is the engine's replay of them."""
    g = new(client)
    game = Game()
    for pick in picks:
        if not g["legal"]:
            break
        move = g["legal"][pick % len(g["legal"])]
        g = client.post(f"/api/xiangqi/games/{g['id']}/moves", json={"move": move}).json()
        game.push(Move.from_iccs(move))
        assert g["fen"] == game.position.fen() and g["check"] == game.position.in_check()
        assert sorted(g["legal"]) == sorted(m.iccs() for m in game.position.legal_moves())
    assert g["version"] == len(game.moves)
    assert (
        Game.from_document(client.get(f"/api/xiangqi/games/{g['id']}/document").json()).position
        == game.position
    )


def test_moves_shown_and_played_in_wxf_and_chinese(client: TestClient) -> None:
    # Issue 16: "moves shown in the notation the reader picks" (ball.games.xiangqi.engine.notation).
    g = new(client)
    path = f"/api/xiangqi/games/{g['id']}/moves"
    assert client.post(path, json={"move": "C2=5", "notation": "wxf"}).status_code == 200
    assert client.post(path, json={"move": "馬8進7", "notation": "chinese"}).status_code == 200
    wxf = client.get(f"/api/xiangqi/games/{g['id']}", params={"notation": "wxf"}).json()
    assert [m["iccs"] for m in wxf["moves"]] == ["h2e2", "h9g7"]
    assert [m["text"] for m in wxf["moves"]] == ["C2=5", "H8+7"]
    zh = client.get(f"/api/xiangqi/games/{g['id']}", params={"notation": "chinese"}).json()
    assert zh["moves"][0]["text"] == "炮二平五" and zh["notations"] == ["iccs", "wxf", "chinese"]
    bad = client.post(path, json={"move": "C2=5", "notation": "wxf"})  # no cannon on file 2
    assert bad.status_code == 400 and "C2=5" in bad.json()["detail"]


def test_replay_reads_a_pgn_record_and_names_its_faults(client: TestClient) -> None:
    text = '[Game "Chinese Chess"]\n[Format "WXF"]\n\n1. C2=5 H8+7 2. H2+3 *\n'
    r = client.post("/api/xiangqi/replay", json={"pgn": text})
    assert r.status_code == 200, r.text
    assert r.json()["moves"] == ["h2e2", "h9g7", "h0g2"] and len(r.json()["frames"]) == 4
    bad = client.post("/api/xiangqi/replay", json={"pgn": "1. h2e2 h2e2 *\n"})
    assert bad.status_code == 422 and "line 1" in bad.json()["detail"]


def test_hard_level_plays_through_the_api(client: TestClient) -> None:
    g = new(client, mode="computer", computer="black", level="hard", fen=MATE_IN_1)
    assert g["level"] == "hard"
    s = client.post(f"/api/xiangqi/games/{g['id']}/computer", json={"level": "hard"}).json()
    assert s["over"] and s["ending"]["result"] == "1-0"  # hard finds the mate for Red too
    r = client.post("/api/xiangqi/games", json={"mode": "computer", "level": "grandmaster"})
    assert r.status_code == 422 and "level" in r.text


def test_explain_names_the_rule_or_nothing(client: TestClient) -> None:
    start = Position.start().fen()
    ask = lambda **body: client.post("/api/xiangqi/explain", json={"fen": start, **body})  # noqa: E731
    assert ask(square="b0", to="c2").json() == {"refusal": None}  # a legal move
    hobbled = ask(square="b0", to="d1").json()["refusal"]
    assert hobbled["code"] == "hobbled" and hobbled["piece"] == "horse"
    assert "hobbled" in hobbled["text"]
    assert ask(square="b9").json()["refusal"]["code"] == "not-yours"
    r = ask(square="z9")
    assert r.status_code == 422 and r.json()["detail"].startswith("square:")
    r = client.post("/api/xiangqi/explain", json={"fen": "nonsense", "square": "a0"})
    assert r.status_code == 422 and r.json()["detail"].startswith("fen:")
