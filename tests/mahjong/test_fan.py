"""Fans of MCR hands (PyMahjongGB) against published totals, and the 8-fan minimum.

The named hands and their sources are in `published_hands.py` (the MCR book's fan table,
Sloper's scoring exercises); issue 18 asks for at least 30 with their totals.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.games.mahjong.engine.fan import NotAWin, score
from ball.games.mahjong.engine.hand import HandError, parse_hand
from ball.games.mahjong.engine.tiles import TILES

from .published_hands import HANDS, Named, doc


def test_at_least_thirty_named_hands_some_refused():
    assert len(HANDS) >= 30
    assert len({h.name for h in HANDS}) == len(HANDS)
    assert sum(not h.valid for h in HANDS) >= 5  # hands under 8 fan, refused as wins


@pytest.mark.parametrize("hand", HANDS, ids=[h.name for h in HANDS])
def test_published_total(hand: Named):
    result = score(parse_hand(doc(hand)))
    assert result.total == hand.total, (hand.breakdown, result.fans)
    assert result.valid is hand.valid
    assert result.to_json()["fan"] == sum(f for _, f in result.fans)


def test_breakdown_names_the_fans_pymahjonggb_gives():
    big_three = next(h for h in HANDS if "Big Three Dragons" in h.name)
    fans = dict(score(parse_hand(doc(big_three))).fans)
    assert fans == {"Big Three Dragons": 88, "Half Flush": 6, "Melded Kong": 1}


def test_flowers_score_but_do_not_reach_the_minimum():
    seven = next(h for h in HANDS if "flowers do not reach" in h.name)
    result = score(parse_hand(doc(seven)))
    assert result.total == 8 and result.counted == 1 and not result.valid


def test_minimum_is_the_events():
    chicken = doc(HANDS[0])
    assert score(parse_hand(chicken), minimum=8).valid
    assert not score(parse_hand(chicken), minimum=9).valid
    single = doc(HANDS[1])
    assert score(parse_hand(single), minimum=1).valid


def test_concealed_kong_is_not_a_melded_kong():
    base = {"hand": ["W7", "W7", "B8", "B8"], "win_tile": "B8"}
    concealed = score(parse_hand({**base, "melds": [["ANGANG", "W2"], ["PENG", "B4"],
                                                    ["PENG", "T6"]]}))
    melded = score(parse_hand({**base, "melds": [["GANG", "W2"], ["PENG", "B4"],
                                                 ["PENG", "T6"]]}))
    assert ("Concealed Kong", 2) in concealed.fans and ("Melded Kong", 1) in melded.fans


def test_not_a_winning_hand():
    bad = {"hand": ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2",
                    "J2"], "win_tile": "W2"}
    with pytest.raises(NotAWin, match="do not make a winning hand"):
        score(parse_hand(bad))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"hand": ["W1"] * 3}, "hand"),
        ({"hand": "W1"}, "hand"),
        ({"hand": ["X1"] + ["W2"] * 3}, "hand[0]"),
        ({"win_tile": "H1"}, "win_tile"),
        ({"melds": [["CHI", "W1"]]}, "melds[0]"),
        ({"melds": [["PONG", "W1"]]}, "melds[0]"),
        ({"melds": [["PENG"]]}, "melds[0]"),
        ({"self_drawn": "yes"}, "self_drawn"),
        ({"kong": 1}, "kong"),
        ({"seat_wind": "X"}, "seat_wind"),
        ({"round_wind": 0}, "round_wind"),
        ({"flowers": 9}, "flowers"),
        ({"flowers": True}, "flowers"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_documents_name_the_field(change, field):
    d = {**doc(HANDS[0]), **change}
    with pytest.raises(HandError) as err:
        parse_hand(d)
    assert str(err.value).startswith(field)


def test_missing_fields_and_five_copies():
    with pytest.raises(HandError, match="^win_tile: missing"):
        parse_hand({"hand": []})
    five = {"hand": ["W1"] * 4 + ["W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9"],
            "win_tile": "W1"}
    with pytest.raises(HandError, match="5 tiles W1"):
        parse_hand(five)


@given(st.lists(st.sampled_from(TILES), min_size=13, max_size=13), st.sampled_from(TILES))
def test_any_thirteen_tiles_score_or_refuse_cleanly(tiles, win):
    """Random hands: a FanResult with a positive total, or a clear refusal; never a crash."""
    try:
        result = score(parse_hand({"hand": tiles, "win_tile": win}))
    except (HandError, NotAWin):
        return
    assert result.total > 0 and result.valid == (result.counted >= 8)


ROBBING = next(h for h in HANDS if h.name == "Robbing the Kong")
SINGLE = next(h for h in HANDS if h.name == "single wait only (refused)")  # T5 T6 T7 F3 + F3


@pytest.mark.parametrize(
    ("hand", "flags", "message"),
    [  # Issue 32 item 6: each scored silently before, as if the flag were not there.
        # Robbing the kong on T7 while the hand's own chow T6-T7-T8 holds a T7 (a fifth T7).
        (HANDS[0], {"kong": True}, r"^kong: robbing the kong on T7 while the hand already"),
        # Out with a replacement tile, and no kong among the melds.
        (HANDS[0], {"kong": True, "self_drawn": True}, r"^kong: out with a replacement tile"),
        # A robbed kong is no discard, so it is not the last tile's claim either.
        (ROBBING, {"kong": True, "last_tile": True}, r"^kong, last_tile: "),
        # The last of its kind while a copy is hidden in the concealed hand.
        (SINGLE, {"fourth_tile": True}, r"^fourth_tile: F3 cannot be the last of its kind"),
    ],
)
def test_contradictory_flags_are_refused_by_name(hand: Named, flags, message):
    with pytest.raises(HandError, match=message):
        parse_hand({**doc(hand), **flags})


def test_flags_that_fit_the_tiles_still_score():
    assert ("Robbing The Kong", 8) in score(parse_hand(doc(ROBBING))).fans
    replacement = next(h for h in HANDS if h.name == "Out with Replacement Tile")
    assert ("Out with Replacement Tile", 8) in score(parse_hand(doc(replacement))).fans
