"""Learn hints (issue 36 item 9): each hint's claim about a piece is data checked against
the engine's legal actions in the lesson's own position, so a hint cannot describe a move
the piece does not have there."""

from __future__ import annotations

import pytest

from ball.engine import Game
from ball.web.learn import TEXTS, lessons

# text key -> (words the hint must say, piece square, the check on that piece's actions)
DIAGONAL = "diagonal"
EXIT = "exit"
CLAIMS: dict[str, tuple[str, str, str]] = {
    "move": ("diagonally", "F6", DIAGONAL),
    "dodge": ("steps out", "D10", EXIT),
}


def _square(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:])


def _diagonal(a: str, b: str) -> bool:
    (c1, r1), (c2, r2) = _square(a), _square(b)
    return abs(c1 - c2) == abs(r1 - r2) != 0


@pytest.mark.parametrize("key", sorted(CLAIMS))
def test_hint_claim_matches_engine(key: str):
    words, at, check = CLAIMS[key]
    item = next(x for x in lessons() if x.text == key)
    assert words in TEXTS[key][2]
    actions = [a for a in Game.from_json(item.position).legal_actions() if a.startswith(at + "-")]
    assert actions
    if check == DIAGONAL:
        # every move of the piece is a diagonal step of one or two squares
        assert all(_diagonal(at, a.split("-")[1]) for a in actions)
    else:
        # the dodge onto the goal square ends with the dodger stepping out one diagonal
        # square (its exit); the knocked-down piece stays where it was
        dodges = [a for a in actions if "/" in a]
        assert dodges
        for a in dodges:
            onto, out = a.split("-")[1].split("/")
            assert _diagonal(onto, out) and abs(_square(onto)[0] - _square(out)[0]) == 1
