"""Card recovery (R-cards) at match level, for both coaches, with a one-card deck as data."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import load_ruleset
from ball.games.ball.match.flow import Match
from ball.games.ball.match.record import parse, write
from ball.games.ball.match.replay import replay

DECK = """
provisional = true
[[card]]
name = "sprint"
title = "Sprint"
pe = 2
effect = "extra_pa"
amount = 1
"""

TWO_CARDS = (
    DECK
    + """
[[card]]
name = "screen"
title = "Screen"
pe = 1
effect = "cross_own_down"
"""
)

RULESET = """
extends = "cards"
name = "one-card"
[cards]
deck = "one-card-deck.toml"
"""


def deck_ruleset(tmp_path, deck: str):
    (tmp_path / "one-card-deck.toml").write_text(deck)
    (tmp_path / "one-card.toml").write_text(RULESET)
    return load_ruleset(tmp_path / "one-card.toml")


@pytest.fixture
def one_card(tmp_path):
    return deck_ruleset(tmp_path, DECK)


def test_card_recovery_for_both_coaches(one_card):
    m = Match(ruleset=one_card)
    for action in ("pe", "pe", "end", "pe", "pe", "end"):  # B (N) then A (S) save 2 PE
        m.play(action)
    m.play("card sprint")
    m.play("end")  # B has no card left at the end of its own turn ...
    assert (m.game.phase, m.coach_to_move()) == ("recover", "B")
    m.play("recover -")  # ... and declines to take one back
    assert (m.game.turn, m.game.phase, m.coach_to_move()) == (4, "action", "A")
    m.play("card sprint")
    m.play("end")  # now A has no card left and takes Sprint back ...
    assert (m.game.phase, m.coach_to_move()) == ("recover", "A")
    m.play("recover sprint")
    # ... so B may take one back just before its next turn, although it chose not to before
    assert (m.game.turn, m.game.phase, m.coach_to_move()) == (5, "recover", "B")
    m.play("recover sprint")
    assert m.game.phase == "action"
    cards = m.game.to_json()["cards"]
    assert cards["S"]["hand"] == ["sprint"] and cards["N"]["hand"] == ["sprint"]
    m.forfeit("A", "end of test")
    text = write(m.record())
    assert "recover sprint" in text
    again = replay(parse(text), ruleset=one_card).match
    assert again.game.to_json() == m.game.to_json()


def test_answering_coach_may_recover_while_still_holding_cards(tmp_path):
    rs = deck_ruleset(tmp_path, TWO_CARDS)
    m = Match(ruleset=rs)
    for action in ("pe", "pe", "end"):  # B saves 2 PE
        m.play(action)
    for action in ("pe", "card screen", "pe"):  # A plays Screen, keeps Sprint ...
        m.play(action)
    assert (m.game.turn, m.coach_to_move()) == (3, "B")  # ... and the turn ends by itself
    for action in ("card sprint", "pe", "card screen", "end"):  # B empties its hand
        m.play(action)
    assert (m.game.phase, m.coach_to_move()) == ("recover", "B")
    m.play("recover sprint")
    # A still holds Sprint, yet may take Screen back just before its turn
    assert (m.game.phase, m.coach_to_move()) == ("recover", "A")
    assert m.game.legal_actions() == ["recover -", "recover screen"]
    m.play("recover screen")
    cards = m.game.to_json()["cards"]
    assert sorted(cards["S"]["hand"]) == ["screen", "sprint"]
    assert cards["N"]["hand"] == ["sprint"] and cards["N"]["discard"] == ["screen"]
