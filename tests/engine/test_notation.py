"""The one action grammar (spec §18.1, `ball.games.ball.engine.notation`) and its round trip.

Every legal action of random games under every shipped ruleset is written and read back
unchanged; the record reader and the web layer answer from the same grammar, so a text is
an action for one exactly when it is for the others.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game, NotationError, notation
from ball.games.ball.engine.actions import FORM_OF_KIND, parse, to_text
from ball.games.ball.engine.board import NAMES
from ball.games.ball.match import record
from ball.games.ball.play.replay import action_origin

RULESETS = ["standard", "pe", "cards"]
picks = st.lists(st.integers(min_value=0, max_value=2**31), min_size=1, max_size=120)


def random_game_actions(ruleset: str, choices: list[int]) -> list[tuple]:
    """Every legal action tuple offered along one random game (choices pick the moves)."""
    game = Game.new(ruleset)
    seen: list[tuple] = []
    for pick in choices:
        legal = game.legal_tuples()
        if not legal:
            break
        seen += legal
        game.apply(legal[pick % len(legal)])
    return seen


def variants(text: str) -> list[str]:
    """Spellings the grammar must read as the same action: any case, any white space."""
    spaced = "  " + text.replace(" ", " \t ") + "\n"
    return [text.lower(), text.upper(), text.swapcase(), spaced]


@settings(max_examples=40, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), choices=picks)
def test_every_legal_action_survives_text_and_back(ruleset, choices):
    for action in random_game_actions(ruleset, choices):
        text = to_text(action)
        assert parse(text) == action, text
        assert to_text(parse(text)) == text
        for spelling in variants(text):
            assert parse(spelling) == action, repr(spelling)
        form, _ = notation.read(text)
        assert form.name == FORM_OF_KIND[action[0]]
        assert record.parse(f"half 1\n1. {text}\n").halves[0].entries[0].action == text


def test_every_form_writes_and_reads_its_spec_example():
    assert [f.name for f in notation.FORMS] == [FORM_OF_KIND[k] for k in sorted(FORM_OF_KIND)]
    for form in notation.FORMS:
        action = parse(form.example)
        assert to_text(action) == form.example
        assert FORM_OF_KIND[action[0]] == form.name


def test_the_square_pattern_names_exactly_the_boards_squares():
    names = set(NAMES)
    for name in names:
        assert notation.is_square(name) and notation.is_square(name.lower())
    for col in "ABCDEFGHIJKLMNZ":
        for row in range(0, 20):
            text = f"{col}{row}"
            assert notation.is_square(text) == (text in names), text
    assert not notation.is_square("G07") and not notation.is_square(" G7")


def test_optional_parts_are_written_only_when_given():
    split = notation.FORM["split"]
    assert split.write(["D8", "C9", "E9", None]) == "split D8 C9 E9"
    assert split.write(["D8", "C9", "E9", "top"]) == "split D8 C9 E9:top"
    card = notation.FORM["card"]
    assert card.write(["sprint", None, None]) == "card sprint"
    assert card.write(["quick-feet", "F8", "E9"]) == "card quick-feet F8-E9"
    with pytest.raises(ValueError, match="missing"):
        split.write([None, "C9", "E9", None])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dance", "is not an action (expected e.g. G7-H8, F10-F8/E7"),
        ("card sprint G7 H8", "card is written card NAME[ SQ[-SQ]], e.g. card second-wind G7"),
        ("split D8 C9", "split is written split SQ SQ SQ[:top|bottom]"),
        ("G8-H9", "G8 is not a playable (striped) square"),
        ("", "empty action"),
    ],
)
def test_a_text_that_is_no_action_is_refused_with_the_form_it_should_have(text, expected):
    with pytest.raises(NotationError, match=re.escape(expected)):
        parse(text)


# Texts near the grammar's edges: what the old, looser record syntax took and the engine
# never did (a card with two or three words, squares off the board, names with odd starts).
EDGE_TEXTS = [
    "card sprint G7 H8",
    "card sprint G7-H8-I9",
    "Z9-A1",
    "N5-M6",
    "G18-H8",
    "G7-H8/",
    "up G7",
    "split D8 C9 E9:middle",
    "recover",
    "recover sprint now",
    "G7xI9>G9",
    "g7Xi9>g9",
    "card 9lives",
    "card -",
    "recover -",
    "PE",
    "pe pe",
]


@pytest.mark.parametrize("text", EDGE_TEXTS)
def test_the_record_reader_takes_exactly_what_the_engine_grammar_takes(text):
    in_grammar = notation.read(text) is not None
    try:
        record.parse(f"half 1\n1. {text}\n")
        in_record = True
    except record.RecordError as exc:
        assert "not an action in spec 18.1 notation" in exc.reason
        in_record = False
    assert in_record == in_grammar, text


def test_the_piece_filter_takes_the_origin_from_the_grammar():
    for ruleset in RULESETS:
        for action in random_game_actions(ruleset, list(range(0, 4000, 37))):
            text = to_text(action)
            squares = [v for t, v in zip(*_fields(text), strict=True) if t == "sq" and v]
            assert action_origin(text) == (squares[0] if squares else None), text
    assert action_origin("card sprint") is None and action_origin("recover -") is None
    assert action_origin("up f8-e9") == "F8" and action_origin("G7") is None


def _fields(text: str) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    form, values = notation.read(text)
    return form.fields, values
