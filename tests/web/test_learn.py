"""Learn mode (issue 13): every shipped lesson is well formed, not already met at its
start and solvable (a bounded search with the engine finds actions that meet its goal,
and the server's check agrees); the page lists the lessons and links the rulebook."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import Game
from ball.games.ball.match.lesson_goals import check, is_met
from ball.games.ball.web.learn import TEXTS, Lesson, lessons
from ball.games.ball.web.rulebook import section

MAX_DEPTH = 3  # two actions and a release: one turn of the learner


def solve(item: Lesson) -> list[str] | None:
    """The shortest solution by iterative deepening over the learner's actions (the opponent
    is passive); shortest, as a goal may bound the learner's `actions`."""
    start = Game.from_json(item.position)

    def search(game: Game, path: list[str], depth: int) -> list[str] | None:
        if len(path) >= depth or game.is_over or game.actor != item.side:
            return None
        for action in game.legal_actions():
            after = game.copy()
            after.apply(action)
            if is_met(item.goal, start, after, item.side):
                return [*path, action]
            found = search(after, [*path, action], depth)
            if found:
                return found
        return None

    return next(filter(None, (search(start, [], d) for d in range(1, MAX_DEPTH + 1))), None)


def test_at_least_six_lessons_with_distinct_goal_kinds():
    shipped = lessons()
    assert len(shipped) >= 6
    kinds = {item.goal["kind"] for item in shipped}
    assert {"reach", "carrier", "knock_down", "unstack", "score", "steal"} <= kinds


ONE_TURN = [item for item in lessons() if item.opponent is None]  # multi-turn: test_learn_multiturn


@pytest.mark.parametrize("item", ONE_TURN, ids=lambda item: item.id)
def test_lesson_is_solvable_and_not_met_at_start(item: Lesson):
    start = Game.from_json(item.position)
    assert start.actor == item.side
    assert not is_met(item.goal, start, start, item.side)
    solution = solve(item)
    assert solution is not None, f"lesson {item.id}: no solution within {MAX_DEPTH} actions"
    assert check(item.position, item.side, item.goal, solution).met
    assert item.text in TEXTS
    assert section("en", item.section) is not None


@pytest.mark.parametrize("item", ONE_TURN, ids=lambda item: item.id)
def test_server_check_agrees(client, item: Lesson):
    solution = solve(item)
    met = client.post(f"/api/learn/{item.id}/check", json={"actions": solution})
    assert met.status_code == 200 and met.json()["met"] is True
    nothing = client.post(f"/api/learn/{item.id}/check", json={"actions": []})
    assert nothing.json() == {"met": False, "failed": False, "played": 0, "reply": []}


def test_bad_requests_are_4xx_with_a_message(client):
    unknown = client.post("/api/learn/no-such/check", json={"actions": []})
    assert unknown.status_code == 404 and "no lesson" in unknown.json()["detail"]
    not_list = client.post("/api/learn/move/check", json={"actions": "F6-D4"})
    assert not_list.status_code == 422 and "actions" in not_list.json()["detail"]
    too_long = client.post("/api/learn/move/check", json={"actions": ["F6-D4" * 40]})
    assert too_long.status_code == 422 and "80 characters" in too_long.json()["detail"]
    garbage = client.post("/api/learn/move/check", json={"actions": ["zz", "F6-D4"]})
    assert garbage.json() == {"met": False, "failed": False, "played": 0, "reply": []}


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_page_lists_lessons_and_rulebook_links(client, lang):
    page = client.get("/learn", params={"lang": lang})
    assert page.status_code == 200
    for item in lessons():
        assert f'data-lesson="{item.id}"' in page.text
        assert f"/rulebook/{item.section}" in page.text
    assert 'href="/learn"' in client.get("/", params={"lang": lang}).text
    assert 'href="/learn"' in client.get("/rulebook", params={"lang": lang}).text
