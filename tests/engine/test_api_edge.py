"""Wrong input at the engine's public entry points meets the engine's own checks.

The compiled build checks each function's declared argument types on entry and raises a
TypeError of its own ("dict object expected; got list"); the entry points that read what a
caller or a file hands over are declared to take any object, so that the engine's error with
its message is what a caller sees, in both builds (this file runs in the normal suite on the
compiled build and in the pure lane of scripts/test.sh).
"""

from __future__ import annotations

import pytest

from ball.games.ball.engine import Game, IllegalAction, InvalidPosition, RulesetError
from ball.games.ball.engine.actions import parse
from ball.games.ball.engine.notation import NotationError

NOT_A_DOCUMENT = [[1, 2], "position", None, 7, ("a",)]
NOT_TEXT = [5, None, [1], 2.5, {"a": 1}]


@pytest.mark.parametrize("doc", NOT_A_DOCUMENT)
def test_a_position_that_is_not_an_object_is_an_invalid_position(doc):
    with pytest.raises(InvalidPosition, match="^document: expected a JSON object"):
        Game.from_json(doc)


def test_a_wrong_field_type_names_the_field():
    doc = Game.new().to_json()
    with pytest.raises(InvalidPosition, match="^pieces: expected a list"):
        Game.from_json({**doc, "pieces": 5})
    with pytest.raises(InvalidPosition, match="^ruleset: expected a ruleset name"):
        Game.from_json({**doc, "ruleset": 5})


@pytest.mark.parametrize("text", NOT_TEXT)
def test_an_action_that_is_not_text_is_an_illegal_action(text):
    g = Game.new()
    with pytest.raises(IllegalAction, match="an action must be text"):
        g.parse(text)
    with pytest.raises(IllegalAction, match="an action must be text"):
        Game.canonical(text)
    if not isinstance(text, tuple):
        with pytest.raises(IllegalAction, match="an action must be text"):
            g.apply(text)
    with pytest.raises(NotationError, match="an action must be text"):
        parse(text)


@pytest.mark.parametrize("side", [5, None, "X"])
def test_lose_possession_names_a_wrong_side(side):
    with pytest.raises(IllegalAction, match="side must be S or N"):
        Game.new().lose_possession(side)


@pytest.mark.parametrize("name", [5, ["standard"], 2.5])
def test_a_ruleset_that_is_not_a_name_is_a_ruleset_error(name):
    with pytest.raises(RulesetError, match="unknown ruleset"):
        Game.new(name)
