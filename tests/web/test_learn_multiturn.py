"""Learn mode's multi-turn lessons and learn games (issue 13, D-U3b): each multi-turn
lesson is not met at its start and is completed through the API with the opponent's
replies the server gives; a bad script is refused at load naming the lesson and turn; a
learn game neither counts against the game cap nor shows in the free-play list."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ball.games.ball.engine import Game
from ball.games.ball.match.lesson_goals import check
from ball.games.ball.web import learn, learn_games
from ball.games.ball.web.learn import lesson, lessons
from ball.web.app import create_app
from ball.web.core.limits import Limits

# The learner's actions of one way through each multi-turn lesson (the replies between
# its turns come from the server), and a line that does not meet the goal.
SOLUTIONS = {
    # round the west wing: a tactical dodge (§5), stand up in the release phase, score (§9)
    "score-3": ["G7-E9", "E9xC11>E11", "C11-A13", "A13-C15", "up H8-G9", "up G7-H8", "C15-A17"],
    # stack X3 on the carrier (protection, § block and protection) and stand the guards up
    "keep": ["D8-C7", "C7-B8", "B8-A7", "F6-G7", "up F8-E7", "up H8-I7"],
}
FAILING = {
    # the first legal action each time ("*"): no touchdown within the 3 turns
    "score-3": ["*"] * 12,
    # the carrier left unprotected: North's second reply steals the ball
    "keep": ["D8-C7", "C7-B8", "B8-C7", "C7-B8", "up F8-E7", "up H8-I7"],
}


def first_legal(lesson_id: str, line: list[str]) -> str:
    game = Game.from_json(lesson(lesson_id).position)  # type: ignore[union-attr]
    for action in line:
        game.apply(action)
    return game.legal_actions()[0]


def play(client: TestClient, lesson_id: str, learner: list[str]) -> tuple[dict, list[str]]:
    """Play `learner` ("*": the first legal action) through the check endpoint, adding
    each reply it gives, until the lesson is met or failed."""
    line: list[str] = []
    result: dict = {}
    for action in learner:
        if result.get("met") or result.get("failed"):
            break
        line.append(first_legal(lesson_id, line) if action == "*" else action)
        result = client.post(f"/api/learn/{lesson_id}/check", json={"actions": line}).json()
        line += result["reply"]
        if result["reply"]:
            result = client.post(f"/api/learn/{lesson_id}/check", json={"actions": line}).json()
    return result, line


def test_at_least_two_multi_turn_lessons_one_score_within_three():
    multi = [item for item in lessons() if item.opponent is not None]
    assert len(multi) >= 2
    assert all(item.goal.get("turns", 1) >= 2 for item in multi)
    assert any(item.goal == {"kind": "score", "turns": 3} for item in multi)
    assert set(SOLUTIONS) == {item.id for item in multi}


@pytest.mark.parametrize("lesson_id", sorted(SOLUTIONS))
def test_multi_turn_lesson_is_solvable_with_replies(client, lesson_id):
    item = lesson(lesson_id)
    assert item is not None and item.opponent is not None
    start = Game.from_json(item.position)
    assert start.actor == item.side
    assert not check(item.position, item.side, item.goal, [], item.opponent).met
    result, line = play(client, lesson_id, SOLUTIONS[lesson_id])
    assert result["met"] and not result["failed"] and result["played"] == len(line)
    opponent_moves = len(line) - len(SOLUTIONS[lesson_id])
    assert opponent_moves >= 2  # the opponent did reply between the learner's turns
    assert check(item.position, item.side, item.goal, line, item.opponent).met
    # not met one learner action earlier
    _, shorter = play(client, lesson_id, SOLUTIONS[lesson_id][:-1])
    assert not check(item.position, item.side, item.goal, shorter, item.opponent).met


@pytest.mark.parametrize("lesson_id", sorted(FAILING))
def test_multi_turn_lesson_fails_on_a_wrong_line(client, lesson_id):
    result, _ = play(client, lesson_id, FAILING[lesson_id])
    assert result["failed"] and not result["met"]


def test_replies_are_the_same_every_time(client, tmp_path: Path):
    # the computer's seed is fixed: a restarted server answers the same line the same way
    line = SOLUTIONS["score-3"][:2]
    first = client.post("/api/learn/score-3/check", json={"actions": line}).json()["reply"]
    other = TestClient(create_app(str(tmp_path / "other.sqlite")))
    again = other.post("/api/learn/score-3/check", json={"actions": line}).json()["reply"]
    assert first and again == first


def test_a_bad_script_is_refused_at_load_naming_lesson_and_turn(tmp_path: Path):
    bad = tmp_path / "10-bad.toml"
    bad.write_text(
        'diagram = "protect"\ntext = "keep"\nsection = "block-and-protection"\n'
        'goal = { kind = "keep", turns = 2 }\n'
        'opponent = { script = [["A1-A2"]], fallback = "greedy" }\n'
        'solution = ["D8-C7", "C7-B8", "B8-A7", "F6-G7", "up F8-E7", "up H8-I7"]\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"lesson 10-bad: opponent turn 1: 'A1-A2' is illegal"):
        learn._lesson(bad)
    bad.write_text(bad.read_text().replace('fallback = "greedy"', 'agent = "mcts9"'))
    with pytest.raises(ValueError, match="lesson 10-bad: opponent: agent one of greedy"):
        learn._lesson(bad)


def test_learn_games_are_apart_from_free_play(tmp_path: Path, monkeypatch):
    client = TestClient(create_app(str(tmp_path / "w.sqlite"), limits=Limits(max_games=1)))
    free = client.post("/api/games", json={})
    assert free.status_code == 201
    assert client.post("/api/games", json={}).status_code == 409  # the cap is reached
    made = client.post("/api/learn/keep/game")
    assert made.status_code == 201  # a learn game does not count against the cap
    game_id = made.json()["id"]
    state = client.get(f"/api/games/{game_id}").json()
    assert state["position"] == Game.from_json(lesson("keep").position).to_json()
    played = client.post(f"/api/games/{game_id}/actions", json={"action": "D8-C7"})
    assert played.status_code == 200
    listed = [g["id"] for g in client.get("/api/games").json()]
    assert listed == [free.json()["id"]]  # the free-play list does not show it
    assert client.post("/api/games", json={}).status_code == 409  # nor did it free a place
    assert client.post("/api/learn/no-such/game").status_code == 404


def test_learn_games_stay_bounded(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(learn, "MAX_LESSON_GAMES", 3)
    app = create_app(str(tmp_path / "w.sqlite"))
    client = TestClient(app)
    free = client.post("/api/games", json={}).json()["id"]
    made = [client.post("/api/learn/move/game").json()["id"] for _ in range(5)]
    assert learn_games.count(app.state.sessions) == 3
    assert client.get(f"/api/games/{made[-1]}").status_code == 200
    assert client.get(f"/api/games/{made[0]}").status_code == 404  # the oldest went
    assert client.get(f"/api/games/{free}").status_code == 200  # free play is never pruned
