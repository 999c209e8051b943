"""§10 steals by every route, the continue/reset decision (D-12, D-13, D-24, D-25)."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import Game, IllegalAction, load_ruleset

from .scenario import ball, piece, position

NO_PB = {"S": {"atk": 0, "def": 0}, "N": {"atk": 0, "def": 0}}

# S is DEF (N attacks) and S is to move: each route below hands the ball to S.
ROUTES = {
    "forced-fumble": ({"S:X1": "G9", "N:X5": "I11"}, "N:X5", "G9-I11/J12", "J12"),
    "block-on-carrier": ({"S:X1": "G9", "N:X5": "H10"}, "N:X5", "G9-H10", "H10"),
    "free-ball": ({"S:X1": "G9"}, "H10", "G9-H10", "H10"),
    "free-ball-dodge-exit": ({"S:X1": "G9", "N:X3": "I11"}, "J12", "G9-I11/J12", "J12"),
}


def stolen(route: str, **kw) -> Game:
    pieces, ball_at, action, _ = ROUTES[route]
    g = position(pieces, ball=ball_at, attack="N", to_move="S", turn=5, **kw)
    events = g.apply(action)
    assert [e.side for e in events if e.kind == "steal"] == ["S"]
    return g


@pytest.mark.parametrize("route", ROUTES)
def test_s10_every_route_to_the_ball_by_the_non_atk_coach_is_a_steal(route):
    g = stolen(route)
    assert g.phase == "steal"
    assert g.actor == "S"
    assert g.legal_actions() == ["continue", "reset"]
    assert g.attack == "N"  # nothing decided yet
    assert g.pb == NO_PB  # the steal's PB is charged once the decision is known (D-17)


@pytest.mark.parametrize("route", ROUTES)
def test_s10_continue_makes_the_stealer_atk_and_play_goes_on(route):
    g = stolen(route)
    stealer_at = ROUTES[route][3]
    g.apply("continue")
    assert (g.attack, g.phase, g.to_move, g.pa) == ("S", "action", "S", 1)
    assert ball(g)["carrier"].startswith("S:")
    assert piece(g, ball(g)["carrier"])["at"] == stealer_at
    assert g.pb == {"S": {"atk": 1, "def": 0}, "N": {"atk": 0, "def": 1}}


def test_s10_s9_after_continue_the_stealing_piece_stays_restricted():
    g = stolen("forced-fumble")
    g.apply("continue")
    with pytest.raises(IllegalAction, match="took the ball this turn"):
        g.apply("J12-K13")


@pytest.mark.parametrize("route", ROUTES)
def test_s10_d12_d25_reset_restores_the_formation_and_ends_the_stealers_turn(route):
    g = stolen(route)
    g.apply("reset")
    std = Game.new()
    assert {(p["side"], p["id"], p["at"], p["state"]) for p in g.to_json()["pieces"]} == {
        (p["side"], p["id"], p["at"], "active") for p in std.to_json()["pieces"]
    }
    assert g.attack == "N"  # the stealer stays DEF
    assert ball(g) == {"carrier": "N:X5"}  # the ATK coach's X5
    assert (g.to_move, g.phase, g.turn, g.pa) == ("N", "action", 6, 2)  # D-12/D-25
    assert g.to_json()["restricted"] == []


def test_s10_reset_brings_knocked_down_and_stacked_pieces_back_active():
    extra = {"N:X1": ("D8", "down"), "S:X7": ("K9", "top", 4), "N:X7": ("K9", "bottom")}
    pieces = {"S:X1": "G9", "N:X5": "H10", **extra}
    g = position(pieces, ball="N:X5", attack="N", to_move="S")
    g.apply("G9-H10")
    g.apply("reset")
    assert {p["state"] for p in g.to_json()["pieces"]} == {"active"}


def test_s10_reset_keeps_pe():
    g = stolen("block-on-carrier", ruleset="pe", pe={"S": 3, "N": 1})
    g.apply("reset")
    assert g.pe == {"S": 4, "N": 1}  # block earned S one PE (D-14); the reset keeps it


def test_d12_reset_that_does_not_end_the_turn_is_a_ruleset_parameter(tmp_path):
    path = tmp_path / "soft.toml"
    path.write_text('extends = "standard"\nname = "soft"\n[turn]\nreset_ends_turn = false\n')
    rs = load_ruleset(str(path))
    pieces, ball_at, action, _ = ROUTES["free-ball"]
    g = position(pieces, ball=ball_at, attack="N", to_move="S", rs=rs)
    g.apply(action)
    g.apply("reset")
    assert (g.to_move, g.phase, g.pa, g.attack) == ("S", "action", 1, "N")


def test_s10_the_atk_coach_taking_a_free_ball_is_no_steal():
    g = position({"S:X1": "G9", "S:X5": "B2"}, ball="H10")
    events = g.apply("G9-H10")
    assert g.phase == "action"
    assert not [e for e in events if e.kind == "steal"]


def test_s10_only_continue_or_reset_while_a_steal_is_pending():
    g = stolen("free-ball")
    with pytest.raises(IllegalAction, match="wrong phase — this is the steal phase"):
        g.apply("end")


# --- D-13 / D-24: a steal in the stealer's end zone is a touchdown -------------------------


@pytest.mark.parametrize(
    ("pieces", "ball_at", "action"),
    [
        ({"S:X1": "H16", "N:X5": "G17"}, "N:X5", "H16-G17"),  # block on the carrier
        ({"S:X1": "F14", "N:X5": "H16"}, "N:X5", "F14-H16/G17"),  # forced fumble, exit in zone
        ({"S:X1": "H16"}, "G17", "H16-G17"),  # free ball lying in the zone
    ],
    ids=["block", "forced-fumble", "free-ball"],
)
def test_d13_d24_a_steal_ending_in_the_stealers_end_zone_is_a_touchdown(pieces, ball_at, action):
    g = position(pieces, ball=ball_at, attack="N", to_move="S")
    g.apply(action)
    assert g.is_over
    assert g.score == {"S": 1, "N": 0}
    assert g.attack == "S"  # D-24: counted as continued
    assert g.pb == {"S": {"atk": 1, "def": 0}, "N": {"atk": 0, "def": 1}}


# --- a steal in the release phase ----------------------------------------------------------


def test_s8_s10_split_giving_the_ball_to_the_opposing_bottom_is_a_steal_by_that_coach():
    """§8 lets the releasing coach choose who keeps the ball, even the opposing bottom; the
    opponent (DEF) thereby gains possession, which §10 calls a steal, decided by the stealer."""
    stack = {"S:X5": ("H10", "top", 4), "N:X3": ("H10", "bottom")}
    g = position(stack, ball="S:X5", phase="release", pa=0)
    g.apply("split H10 I11 G9:bottom")
    assert (g.phase, g.actor, g.to_move) == ("steal", "N", "S")
    g.apply("continue")
    assert g.attack == "N"
    assert g.pb == {"S": {"atk": 0, "def": 1}, "N": {"atk": 1, "def": 0}}
    assert (g.to_move, g.phase) == ("N", "action")  # S's release had nothing left


# --- match-level primitives (§13 sanctions, D-19, §14 release protocol) --------------------


def test_r_sanctions_lose_turn_ends_the_turn_without_a_release_phase():
    g = position({"S:X3": ("G9", "down")}, turn=5)
    g.lose_turn()
    assert (g.to_move, g.turn, g.phase, g.pa) == ("N", 6, "action", 2)
    assert piece(g, "S:X3")["state"] == "down"


def test_d19_loss_of_possession_resets_with_the_opponent_as_atk_and_no_pb():
    start = {"S": {"atk": 2, "def": 0}, "N": {"atk": 0, "def": 2}}
    g = position({"S:X5": "G13", "N:X3": ("G9", "down")}, pb=start, turn=5)
    g.lose_possession("S")
    assert g.attack == "N"
    assert ball(g) == {"carrier": "N:X5"}
    assert piece(g, "N:X3") == {
        "side": "N",
        "id": "X3",
        "kind": "X",
        "at": "F12",
        "state": "active",
    }
    assert g.pb == start
    assert g.to_move == "N"
    with pytest.raises(IllegalAction):
        g.lose_possession("E")


def test_r_release_referee_resolves_the_release_phase_deterministically():
    layout = {"S:X3": ("G9", "down"), "S:X1": ("K9", "top", 4), "N:X1": ("K9", "bottom")}
    g = position(layout, phase="release", pa=0)
    twin = g.copy()
    done = g.referee_release()
    assert done == twin.referee_release()
    assert done[0] == min(position(layout, phase="release", pa=0).legal_actions())
    assert {piece(g, "S:X3")["state"], piece(g, "S:X1")["state"]} == {"active"}
    assert g.to_move == "N"


def test_match_primitives_refuse_a_finished_half():
    g = position({"S:X5": "H16"})
    g.apply("H16-G17")
    with pytest.raises(IllegalAction, match="over"):
        g.lose_turn()
    with pytest.raises(IllegalAction, match="over"):
        g.lose_possession("N")


def test_events_tell_the_story_of_a_steal():
    """Events for logs and the UI: knockdown, steal, then continue with its PB."""
    g = position({"S:X1": "G9", "N:X5": "I11"}, ball="N:X5", attack="N", to_move="S")
    events = g.apply("G9-I11/J12")
    assert [(e.kind, e.side) for e in events] == [("knockdown", "N"), ("steal", "S")]
    assert events[0].detail == {"piece": "N:X5"}
    events = g.apply("continue")
    assert [(e.kind, e.side) for e in events] == [("pb", "S"), ("continue", "S")]
    g2 = position({"S:X1": "G9"}, ball="H10", attack="N", to_move="S")
    events = g2.apply("G9-H10")
    assert [e.kind for e in events] == ["possession", "steal"]
    events = g2.apply("reset")
    assert [e.kind for e in events] == ["pb", "reset", "turn"]
    assert events[0].detail == {"atk": "N", "amount": 2}
    assert (events[2].side, events[2].detail) == ("N", {"turn": 6})
