"""§11 PE mode (conversion, D-14 PE table) and card mode: every card of the provisional deck
(D-15), PE/cards across halves (D-22) and card recovery (R-cards)."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import Game, IllegalAction, load_ruleset

from .scenario import ball, from_square, piece, position

DECK = {"sprint", "second-wind", "long-arm", "quick-feet", "screen", "audible"}


def cards(g) -> set[str]:
    return {a for a in g.legal_actions() if a.startswith("card ")}


def hand(cards_hand: list[str], discard: list[str] | None = None, n_hand=None) -> dict:
    return {
        "S": {"hand": cards_hand, "discard": discard or []},
        "N": {"hand": list(DECK) if n_hand is None else n_hand, "discard": []},
    }


# --- PE mode ----------------------------------------------------------------------------------


def test_s3_pe_conversion_exists_only_in_pe_mode():
    assert "pe" not in position({}).legal_actions()
    with pytest.raises(IllegalAction, match="PE mode is off"):
        position({}).apply("pe")
    assert "pe" in position({}, ruleset="pe").legal_actions()


def test_s3_s11_partial_conversion_then_full_conversion_ends_the_phase():
    g = position({"S:X1": "G9"}, ruleset="pe")
    g.apply("G9-H10")
    g.apply("pe")
    assert g.pe == {"S": 1, "N": 0}
    assert (g.to_move, g.phase) == ("N", "action")  # no PA, nothing else: phase ended
    g2 = position({}, ruleset="pe")
    g2.apply("pe")
    assert (g2.pa, g2.phase) == (1, "action")
    g2.apply("pe")
    assert g2.pe == {"S": 2, "N": 0}


def test_s11_unconverted_pa_vanish_at_the_end_of_the_action_phase():
    g = position({}, ruleset="pe")
    g.apply("end")
    assert g.pe == {"S": 0, "N": 0}


def test_s3_no_pa_left_to_convert():
    g = position({}, ruleset="pe", pa=0)
    with pytest.raises(IllegalAction, match="no PA left"):
        g.apply("pe")


@pytest.mark.parametrize(
    ("pieces", "action", "earned"),
    [
        ({"S:X1": "G9", "N:X3": "I11"}, "G9-I11/J12", 1),  # dodge
        ({"S:X1": "G9", "N:X3": "H10"}, "G9xI11>I9", 1),  # tactical dodge
        ({"S:X1": "G9", "N:X3": "H10"}, "G9-H10", 1),  # block
        ({"S:X1": "G9", "S:X3": "H10"}, "G9-H10", 0),  # protection
        ({"S:X1": "G9"}, "G9-H10", 0),  # move
        ({"S:X5": "G9", "S:X1": "H10"}, "G9=H10", 0),  # hand-off
        ({"S:X5": "G9"}, "G9@G13", 0),  # long pass
    ],
    ids=["dodge", "tdodge", "block", "protect", "move", "handoff", "long"],
)
def test_d14_pe_table(pieces, action, earned):
    g = position(pieces, ruleset="pe")
    g.apply(action)
    assert g.pe == {"S": earned, "N": 0}


def test_d14_no_pe_are_counted_outside_pe_and_card_mode():
    g = position({"S:X1": "G9", "N:X3": "I11"})
    g.apply("G9-I11/J12")
    assert g.pe == {"S": 0, "N": 0}


def test_d22_pe_and_cards_go_with_their_coach_into_the_second_half():
    g = Game.from_json(
        position(
            {}, ruleset="cards", pe={"S": 3, "N": 1}, cards=hand(["sprint"], ["audible"])
        ).to_json()
    )
    h2 = g.next_half()
    assert h2.half == 2
    assert h2.pe == {"S": 1, "N": 3}  # coach A played S in half 1 and plays N in half 2
    assert h2.to_json()["cards"]["N"] == {"hand": ["sprint"], "discard": ["audible"]}


# --- card mode: the provisional deck (D-15) ------------------------------------------------


def test_d15_each_coach_starts_with_the_whole_deck_and_no_pe():
    g = Game.new("cards")
    doc = g.to_json()
    assert {side: set(doc["cards"][side]["hand"]) for side in "SN"} == {"S": DECK, "N": DECK}
    assert g.pe == {"S": 0, "N": 0}
    assert cards(g) == set()  # nothing affordable
    assert load_ruleset("cards").deck.provisional


def test_s11_only_affordable_cards_with_a_target_are_offered():
    g = position({}, ruleset="cards", pe={"S": 1, "N": 0})
    # second-wind needs a restricted piece, quick-feet a knocked-down one and 2 PE
    assert cards(g) == {"card long-arm", "card screen", "card audible"}


def test_s11_card_errors_name_the_reason():
    g = position({}, ruleset="cards", pe={"S": 1, "N": 0}, cards=hand(["screen", "sprint"]))
    with pytest.raises(IllegalAction, match="audible is not in S's hand"):
        g.apply("card audible")
    with pytest.raises(IllegalAction, match="costs 2 PE"):
        g.apply("card sprint")
    with pytest.raises(IllegalAction, match="no card named"):
        g.apply("card teleport")
    with pytest.raises(IllegalAction, match="card mode is off"):
        position({}).apply("card screen")


def test_d15_sprint_gives_one_more_pa_and_goes_to_the_discard_pile():
    g = position({}, ruleset="cards", pe={"S": 2, "N": 0})
    g.apply("card sprint")
    assert (g.pa, g.pe["S"]) == (3, 0)
    doc = g.to_json()["cards"]["S"]
    assert "sprint" not in doc["hand"] and doc["discard"] == ["sprint"]


def test_d15_second_wind_lifts_the_possession_restriction():
    g = position({"S:X1": "G9", "S:X5": "B2"}, ball="H10", ruleset="cards", pe={"S": 1, "N": 0})
    g.apply("G9-H10")
    assert "card second-wind H10" in cards(g)
    g.apply("card second-wind H10")
    assert g.to_json()["restricted"] == []
    g.apply("H10-I11")
    assert ball(g) == {"carrier": "S:X1"}


def test_d15_long_arm_stretches_the_short_pass_to_6_for_this_turn():
    g = position({"S:X5": "G5", "S:X1": "G11"}, ruleset="cards", pe={"S": 1, "N": 0})
    assert not any(a.startswith("G5~G11") for a in g.legal_actions())
    g.apply("card long-arm")
    assert "G5~G11@F12" in g.legal_actions()
    g.apply("end")
    g.apply("end")  # N's turn passes; S's new turn has the normal reach again
    assert not any(a.startswith("G5~G11") for a in g.legal_actions())


def test_d15_quick_feet_stands_a_piece_up_in_the_action_phase():
    g = position({"S:X3": ("G9", "down")}, ruleset="cards", pe={"S": 2, "N": 0})
    assert {a for a in cards(g) if "quick-feet" in a} == {
        f"card quick-feet G9-{t}" for t in ("F8", "H8", "F10", "H10")
    }
    g.apply("card quick-feet G9-H10")
    assert piece(g, "S:X3")["state"] == "active"
    assert piece(g, "S:X3")["at"] == "H10"
    assert g.pa == 2  # cards cost PE, not PA
    g.apply("H10-I11")


def test_d15_screen_lets_own_diagonal_moves_cross_own_knocked_down_pieces():
    layout = {"S:X1": "G9", "S:X3": ("H10", "down"), "N:X3": ("F10", "down")}
    g = position(layout, ruleset="cards", pe={"S": 1, "N": 0})
    assert "G9-I11" not in g.legal_actions()
    g.apply("card screen")
    assert "G9-I11" in g.legal_actions()
    assert "G9-E11" not in g.legal_actions()  # an opponent's knocked-down piece: still no


def test_d15_audible_makes_the_next_hand_off_or_pass_free():
    layout = {"S:X5": "G9", "S:X1": "H10", "S:X3": "I11"}
    g = position(layout, ruleset="cards", pe={"S": 1, "N": 0})
    g.apply("card audible")
    g.apply("G9=H10")
    assert g.pa == 2
    g.apply("H10=I11")
    assert g.pa == 1  # only the next one


def test_d15_audible_lets_the_carrier_pass_with_no_pa_left():
    layout = {"S:X5": "G9", "S:X1": "H10"}
    g = position(layout, ruleset="cards", pe={"S": 1, "N": 0}, pa=0)
    assert from_square(g, "G9") == set()
    g.apply("card audible")
    assert "G9=H10" in g.legal_actions()
    assert not any(a.startswith("G9-") for a in g.legal_actions())


def test_s11_cards_are_played_only_in_the_own_action_phase():
    g = position(
        {"S:X3": ("G9", "down")}, ruleset="cards", pe={"S": 2, "N": 2}, phase="release", pa=0
    )
    assert cards(g) == set()
    with pytest.raises(IllegalAction, match="wrong phase"):
        g.apply("card sprint")


def test_s11_pe_earned_this_turn_can_be_spent_this_turn():
    g = position({"S:X1": "G9", "N:X3": "I11"}, ruleset="cards")
    assert cards(g) == set()
    g.apply("G9-I11/J12")
    assert "card screen" in cards(g)


# --- card recovery (R-cards) -----------------------------------------------------------------


def emptied_hand(**kw) -> Game:
    """S plays its last card and ends the turn with an empty hand."""
    g = position(
        {}, ruleset="cards", pe={"S": 2, "N": 0}, cards=hand(["sprint"], ["audible"], **kw)
    )
    g.apply("card sprint")
    g.apply("end")
    return g


def test_r_cards_no_recovery_while_cards_remain_in_hand():
    g = position({}, ruleset="cards", pe={"S": 2, "N": 0}, cards=hand(["sprint", "screen"]))
    g.apply("card sprint")
    g.apply("end")
    assert (g.phase, g.to_move) == ("action", "N")


def test_r_cards_empty_hand_offers_one_used_card_back():
    g = emptied_hand()
    assert (g.phase, g.to_move) == ("recover", "S")
    assert g.legal_actions() == ["recover -", "recover audible", "recover sprint"]


def test_r_cards_recovery_then_the_opponent_may_take_one_back_before_its_turn():
    n_discard_game = emptied_hand()
    n_discard_game.apply("recover audible")
    doc = n_discard_game.to_json()
    assert doc["cards"]["S"] == {"hand": ["audible"], "discard": ["sprint"]}


def test_r_cards_opponent_answer_even_with_cards_in_hand():
    g = position(
        {},
        ruleset="cards",
        pe={"S": 2, "N": 0},
        cards={
            "S": {"hand": ["sprint"], "discard": ["audible"]},
            "N": {"hand": ["screen"], "discard": ["long-arm"]},
        },
    )
    g.apply("card sprint")
    g.apply("end")
    g.apply("recover audible")
    assert (g.phase, g.to_move) == ("recover", "N")
    assert g.legal_actions() == ["recover -", "recover long-arm"]
    g.apply("recover long-arm")
    assert (g.phase, g.to_move, g.pa) == ("action", "N", 2)
    assert set(g.to_json()["cards"]["N"]["hand"]) == {"screen", "long-arm"}


def test_r_cards_declining_recovery_gives_the_opponent_nothing():
    g = emptied_hand()
    g.apply("recover -")
    assert (g.phase, g.to_move) == ("action", "N")
    assert g.to_json()["cards"]["S"]["hand"] == []


def test_s3_action_phase_stays_open_at_0_pa_while_a_card_can_be_played():
    g = position({"S:X1": "G9"}, ruleset="cards", pe={"S": 2, "N": 0}, cards=hand(["sprint"]))
    g.apply("G9-H10")
    g.apply("H10-I11")
    assert (g.phase, g.pa, g.to_move) == ("action", 0, "S")
    assert g.legal_actions() == ["card sprint", "end"]
    g.apply("end")
    assert g.to_move == "N"


def test_d30_a_turn_effect_with_nothing_to_act_on_is_not_offered():
    """At 0 PA, Screen and Long Arm could change nothing; Audible needs an own carrier."""
    g = position(
        {"S:X1": "G9"}, ruleset="cards", pe={"S": 3, "N": 0},
        cards=hand(["screen", "long-arm", "audible"]),
    )  # fmt: skip
    cards = [a for a in g.legal_actions() if a.startswith("card")]
    assert cards == ["card audible", "card long-arm", "card screen"]
    g.apply("G9-H10")
    g.apply("H10-I11")
    # 0 PA: S's carrier could still make a free hand-off or pass, so only Audible remains.
    assert (g.phase, g.pa) == ("action", 0)
    assert g.legal_actions() == ["card audible", "end"]
    g.apply("card audible")
    assert "card long-arm" in g.legal_actions()  # a free short pass could now use it


def test_r_cards_opponent_without_discards_gets_no_recovery_step():
    g = emptied_hand()  # N holds the whole deck and has discarded nothing
    g.apply("recover sprint")
    assert (g.phase, g.to_move) == ("action", "N")


def test_r_cards_pending_recoveries_round_trip_as_documents():
    g = position(
        {},
        ruleset="cards",
        pe={"S": 2, "N": 0},
        cards={
            "S": {"hand": ["sprint"], "discard": ["audible"]},
            "N": {"hand": [], "discard": ["screen"]},
        },
    )
    g.apply("card sprint")
    g.apply("end")
    for answer in ("recover audible", "recover screen"):
        doc = g.to_json()
        again = Game.from_json(doc)
        assert again.to_json() == doc
        assert again.legal_actions() == g.legal_actions()
        g.apply(answer)
    assert (g.phase, g.to_move) == ("action", "N")


def test_d15_screen_also_opens_dodges_over_own_knocked_down_pieces():
    layout = {"S:X1": "G9", "S:X3": ("H10", "down"), "N:X7": "I11"}
    g = position(layout, ruleset="cards", pe={"S": 1, "N": 0})
    assert not any(a.startswith("G9-I11/") for a in g.legal_actions())
    g.apply("card screen")
    assert any(a.startswith("G9-I11/") for a in g.legal_actions())


def test_d15_turn_effects_end_with_the_turn():
    layout = {"S:X5": "G9", "S:X1": "H10"}
    g = position(layout, ruleset="cards", pe={"S": 3, "N": 0})
    for card in ("audible", "screen", "long-arm"):
        g.apply(f"card {card}")
    g.apply("end")
    assert g.to_json()["effects"] == {"short_range": 4, "screen": False, "audible": False}


def test_d15_sprint_reopens_actions_at_0_pa():
    g = position({"S:X1": "G9"}, ruleset="cards", pe={"S": 2, "N": 0}, pa=0, cards=hand(["sprint"]))
    assert g.legal_actions() == ["card sprint", "end"]
    g.apply("card sprint")
    assert g.pa == 1 and "G9-H10" in g.legal_actions()
