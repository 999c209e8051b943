"""The drawing of lots (seed 004 section 9): cards, validation, pairs, bye, seeded replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.tournament.lots import (
    Card,
    LotsError,
    check,
    deck,
    draw_from_seed,
    parse_card,
    replay,
    toss,
)


def test_thirteen_entrants_draw_two_sets_of_one_to_six_and_a_king():
    # Section 9, round 1: two sets of the numbers 1-6 and one K card for 13 players.
    cards = deck(13)
    assert len(cards) == 13
    assert sorted(c.number for c in cards if c.suit == "R") == [1, 2, 3, 4, 5, 6]
    assert sorted(c.number for c in cards if c.suit == "B") == [1, 2, 3, 4, 5, 6]
    assert [str(c) for c in cards if c.is_king] == ["K"]
    # Round 2 (six winners and the bye holder): 1-3 twice and K; round 3: 1-2 twice.
    assert [str(c) for c in deck(7)] == ["1R", "2R", "3R", "1B", "2B", "3B", "K"]
    assert [str(c) for c in deck(4)] == ["1R", "2R", "1B", "2B"]


def test_equal_numbers_meet_red_first_and_the_king_has_the_bye():
    entered = {"Ann": "2B", "Bob": "1R", "Cat": "K", "Dan": "1B", "Eve": "2r"}
    draw = check(["Ann", "Bob", "Cat", "Dan", "Eve"], entered)
    assert draw.pairs() == [("Bob", "Dan"), ("Eve", "Ann")]
    assert draw.bye() == "Cat"


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ({"A": "1R", "B": "1R", "C": "K"}, "card 1R drawn twice: by 'A' and by 'B'"),
        ({"A": "1R", "B": "1B"}, "no card drawn by 'C'"),
        ({"A": "1R", "B": "1B", "C": "K", "Z": "2R"}, "'Z' is not in this draw"),
        ({"A": "1R", "B": "2B", "C": "K"}, "'B' drew 2B, which is not among the 3 cards"),
        ({"A": "1R", "B": "1B", "C": "Q"}, "'Q' is not a lot card"),
        ({"A": "0R", "B": "1B", "C": "K"}, "numbers start at 1"),
    ],
)
def test_a_wrong_draw_names_the_fault(cards, message):
    with pytest.raises(LotsError, match=message):
        check(["A", "B", "C"], cards)


def test_too_few_entrants_and_bad_records_are_refused():
    with pytest.raises(LotsError, match="at least two entrants"):
        deck(1)
    with pytest.raises(LotsError, match="not a record of a draw"):
        replay({"cards": {}})
    record = draw_from_seed(["A", "B", "C", "D"], 5).record()
    record["cards"]["A"], record["cards"]["B"] = record["cards"]["B"], record["cards"]["A"]
    with pytest.raises(LotsError, match="seed 5 does not give the cards recorded"):
        replay(record)
    entered = check(["A", "B"], {"A": "1R", "B": "1B"}).record()
    entered["pairs"] = [["B", "A"]]
    with pytest.raises(LotsError, match="pairs recorded do not follow"):
        replay(entered)


def test_card_text_round_trips():
    for card in deck(9):
        assert parse_card(str(card)) == card
    assert parse_card(" k ") == Card(0, "K")


@given(st.integers(2, 64), st.integers(0, 2**31 - 1))
def test_a_seeded_draw_pairs_everyone_exactly_once_and_replays(n, seed):
    names = [f"E{i}" for i in range(n)]
    draw = draw_from_seed(names, seed)
    seated = [x for pair in draw.pairs() for x in pair] + ([draw.bye()] if draw.bye() else [])
    assert sorted(seated) == sorted(names)
    assert (draw.bye() is not None) == (n % 2 == 1)
    assert len(draw.pairs()) == n // 2
    again = replay(draw.record())
    assert again.pairs() == draw.pairs() and again.bye() == draw.bye()
    assert draw_from_seed(names, seed).cards == draw.cards  # the seed alone replays it


@given(st.integers(2, 40).flatmap(lambda n: st.permutations(deck(n))))
def test_any_entered_draw_of_the_cards_is_accepted_and_replays(cards):
    names = [f"E{i}" for i in range(len(cards))]
    draw = check(names, {n: str(c) for n, c in zip(names, cards, strict=True)})
    assert replay(draw.record()).pairs() == draw.pairs()
    for red, black in draw.pairs():
        assert draw.cards[red].suit == "R" and draw.cards[black].suit == "B"
        assert draw.cards[red].number == draw.cards[black].number


def test_toss_is_one_of_the_two_and_follows_the_seed():
    wins = {toss(["A", "B"], seed) for seed in range(40)}
    assert wins == {"A", "B"}
    assert toss(["A", "B"], 7) == toss(["A", "B"], 7)
    with pytest.raises(LotsError):
        toss(["A"], 1)
