"""Learn hints (issue 36 items 9 and 10): every lesson's hint makes a claim that is checked
against the engine in the lesson's own position (for a multi-turn lesson, along its solution
replayed with the opponent's replies), so a hint cannot describe a move the game does not
have there."""

from __future__ import annotations

import tomllib
from collections.abc import Callable

import pytest

from ball.games.ball.engine import Game
from ball.games.ball.match import lesson_goals
from ball.games.ball.web.learn import LESSONS, TEXTS, Lesson, lessons


def _square(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:])


def _diagonal(a: str, b: str) -> bool:
    (c1, r1), (c2, r2) = _square(a), _square(b)
    return abs(c1 - c2) == abs(r1 - r2) != 0


def _game(item: Lesson) -> Game:
    return Game.from_json(item.position)


def _carrier_square(game: Game) -> str:
    doc = game.to_json()
    held = doc["ball"].get("carrier", "")
    return next(p["at"] for p in doc["pieces"] if f"{p['side']}:{p['id']}" == held)


def _kind_at(game: Game, square: str) -> str:
    """The kind letter (X, O, Q) of the active or top piece on `square`."""
    doc = game.to_json()
    return next(p["id"][0] for p in doc["pieces"] if p["at"] == square and p["state"] != "bottom")


def _moves_from(game: Game, square: str) -> list[str]:
    return [a for a in game.legal_actions() if a.startswith(square + "-")]


def _solution_line(item: Lesson) -> list[str]:
    """A multi-turn lesson's solution with the opponent's replies, as the engine plays it."""
    path = next(LESSONS.glob(f"[0-9][0-9]-{item.id}.toml"))
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return lesson_goals.check_solution(
        item.position, item.side, item.goal, data["solution"], item.opponent
    )


# --- the claims, one per hint ------------------------------------------------------------


def x_moves_diagonally(at: str) -> Callable[[Lesson], None]:
    def check(item: Lesson) -> None:
        game = _game(item)
        assert _kind_at(game, at) == "X"
        moves = _moves_from(game, at)
        # every move of the piece is a diagonal step of one or two squares
        assert moves and all(_diagonal(at, a.split("-")[1].split("/")[0]) for a in moves)

    return check


def carrier_reaches_end_zone(item: Lesson) -> None:
    """The ball carrier has a move into the far row it scores in (row 17 for South)."""
    game = _game(item)
    far = "17" if item.side == "S" else "1"
    moves = _moves_from(game, _carrier_square(game))
    assert any(a.split("-")[1].split("/")[0][1:] == far for a in moves)


def pieces_claim(item: Lesson) -> None:
    x_moves_diagonally("G7")(item)
    assert _carrier_square(_game(item)) == "G7"  # the task's "X5 on G7 holding the ball"
    assert {_kind_at(_game(item), sq) for sq in ("F8", "H6")} == {"O", "Q"}  # X, O and Q


def handoff_to_a_neighbour(item: Lesson) -> None:
    """The carrier on G7 hands off only to a diagonal neighbour, the O on H8 among them."""
    game = _game(item)
    assert _carrier_square(game) == "G7"
    handoffs = [a for a in game.legal_actions() if a.startswith("G7=")]
    assert "G7=H8" in handoffs and _kind_at(game, "H8") == "O"
    for a in handoffs:
        (c1, r1), (c2, r2) = _square("G7"), _square(a[3:])
        assert abs(c1 - c2) == 1 and abs(r1 - r2) == 1


def dodge_steps_out(item: Lesson) -> None:
    """The dodge onto the goal square ends with the dodger stepping out one diagonal square
    (its exit); the knocked-down piece stays where it was."""
    dodges = [a for a in _moves_from(_game(item), "D10") if "/" in a]
    assert dodges
    for a in dodges:
        onto, out = a.split("-")[1].split("/")
        assert _diagonal(onto, out) and abs(_square(onto)[0] - _square(out)[0]) == 1


def x_lands_on_carrier(item: Lesson) -> None:
    game = _game(item)
    carrier = _carrier_square(game)
    landers = [a.split("-")[0] for a in game.legal_actions() if a.endswith("-" + carrier)]
    assert any(_kind_at(game, sq) == "X" for sq in landers)


def split_is_a_task(item: Lesson) -> None:
    game = _game(item)
    assert game.to_json()["phase"] == "release"
    assert any(a.startswith("split G9 ") for a in game.legal_actions())


def dodge_onto_carrier_steals(item: Lesson) -> None:
    game = _game(item)
    carrier = _carrier_square(game)
    dodges = [
        a for a in game.legal_actions() if "/" in a and a.split("-")[1][: len(carrier)] == carrier
    ]
    assert dodges
    for a in dodges:
        after = game.copy()
        after.apply(a)
        assert after.to_json()["ball"].get("carrier", "").startswith(item.side + ":")


def solution_uses(*marks: str) -> Callable[[Lesson], None]:
    """The lesson's solution plays each named kind of action: 'x' a tactical dodge, 'up' a
    stand-up in the release phase, 'protect' a piece of the learner's stacked on its
    carrier."""

    def check(item: Lesson) -> None:
        line = _solution_line(item)
        game = _game(item)
        seen: set[str] = set()
        for action in line:
            mover = game.actor
            if "x" in action.split(" ")[0]:
                seen.add("x")
            if action.startswith("up "):
                seen.add("up")
            if "-" in action and not action.startswith(("up ", "split ")):
                target = action.split("-")[1].split("/")[0]
                held = game.to_json()["ball"].get("carrier", "")
                if (
                    mover == item.side
                    and held.startswith(mover)
                    and target == _carrier_square(game)
                ):
                    seen.add("protect")
            game.apply(action)
        assert set(marks) <= seen, (marks, seen)

    return check


# text key -> (words the hint must say, the engine check of that claim)
CLAIMS: dict[str, tuple[str, Callable[[Lesson], None]]] = {
    "pieces": ("an X moves diagonally", pieces_claim),
    "move": ("diagonally", x_moves_diagonally("F6")),
    "handoff": ("neighbouring piece", handoff_to_a_neighbour),
    "dodge": ("steps out", dodge_steps_out),
    "block": ("Land your X on the square of the ball carrier", x_lands_on_carrier),
    "release": ("Split the stack", split_is_a_task),
    "touchdown": ("into the end zone", carrier_reaches_end_zone),
    "steal": ("Dodge onto the ball carrier's square", dodge_onto_carrier_steals),
    "score3": ("tactical dodge", solution_uses("x", "up")),
    "keep": ("Stack a piece on your carrier", solution_uses("protect", "up")),
}


def test_every_lesson_has_a_checked_hint():
    assert {item.text for item in lessons()} == set(CLAIMS)


@pytest.mark.parametrize("key", sorted(CLAIMS))
def test_hint_claim_matches_engine(key: str):
    words, check = CLAIMS[key]
    assert words in TEXTS[key][2]
    check(next(x for x in lessons() if x.text == key))


def test_a_false_claim_is_caught():
    """The checks can fail: the O on F8 of the move lesson does not move diagonally."""
    item = next(x for x in lessons() if x.text == "move")
    with pytest.raises(AssertionError):
        x_moves_diagonally("F8")(item)
    with pytest.raises(AssertionError):
        carrier_reaches_end_zone(item)  # the carrier on G7 is far from row 17
