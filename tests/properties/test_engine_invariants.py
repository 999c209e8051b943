"""Invariants of the rules engine over random legal play (hypothesis).

Each example plays a random legal game (choices drawn by hypothesis, so failures shrink to
a short action list) under each shipped ruleset and checks after every action: one ball,
piece counts, stacks of exactly two, PB dual entry, JSON round trip, and that the legal list
is exactly what `apply` accepts.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game, IllegalAction
from ball.games.ball.engine.board import NAMES, PLAYABLE, is_playable

RULESETS = ["standard", "pe", "cards"]
choices = st.lists(st.integers(min_value=0, max_value=2**31), min_size=1, max_size=80)


def check_invariants(g: Game) -> None:
    doc = g.to_json()
    pieces = doc["pieces"]
    for side in ("S", "N"):
        assert sum(p["side"] == side for p in pieces) == 7
    by_square: dict[str, list[dict]] = {}
    for p in pieces:
        by_square.setdefault(p["at"], []).append(p)
    for square, here in by_square.items():
        assert len(here) <= 2, f"{square} holds {len(here)} pieces"
        states = sorted(p["state"] for p in here)
        if len(here) == 2:
            assert states == ["bottom", "top"], f"stack on {square}: {states}"
        else:
            assert states[0] in ("active", "down")
    ball = doc["ball"]
    assert len(ball) == 1
    if "carrier" in ball:
        side, pid = ball["carrier"].split(":")
        carrier = next(p for p in pieces if p["side"] == side and p["id"] == pid)
        assert carrier["state"] in ("active", "top")
        # The ball is held by the ATK side, except while a steal decision is pending.
        if doc["phase"] != "steal" and doc["phase"] != "over":
            assert side == doc["attack"]
    else:
        assert ball["at"] not in by_square, "a free ball lies on an empty square"
    pb = doc["pb"]
    assert pb["S"]["atk"] == pb["N"]["def"] and pb["N"]["atk"] == pb["S"]["def"]
    assert sum(doc["score"].values()) <= 1
    assert (doc["phase"] == "over") == (sum(doc["score"].values()) == 1)
    assert Game.from_json(doc).to_json() == doc


def play_random(ruleset: str, picks: list[int]):
    g = Game.new(ruleset)
    for pick in picks:
        actions = g.legal_actions()
        if not actions:
            break
        before = g.pb
        yield g, actions
        g.apply(actions[pick % len(actions)])
        after = g.pb
        for side in ("S", "N"):
            for key in ("atk", "def"):
                assert after[side][key] >= before[side][key], "PB never goes down in a half"
        check_invariants(g)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=choices)
def test_invariants_hold_over_random_play(ruleset: str, picks: list[int]) -> None:
    for _g, actions in play_random(ruleset, picks):
        assert actions == sorted(actions)
        assert len(set(actions)) == len(actions), "no action listed twice"


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=choices)
def test_every_listed_action_is_accepted(ruleset: str, picks: list[int]) -> None:
    for g, actions in play_random(ruleset, picks[:30]):
        for action in actions:
            g.copy().apply(action)  # must not raise
        # Case-insensitive parsing: the lower-case spelling is the same action.
        g.copy().apply(actions[0].lower())


def _candidates(g: Game, rnd) -> list[str]:
    """Plausible but arbitrary action texts from the current position's own squares."""
    squares = [p["at"] for p in g.to_json()["pieces"]]
    names = [NAMES[s] for s in PLAYABLE]
    a, b, c = rnd.choice(squares), rnd.choice(names), rnd.choice(names)
    return [f"{a}-{b}", f"{a}-{b}/{c}", f"{a}x{b}>{c}", f"{a}={b}", f"{a}~{b}@{c}",
            f"{a}@{b}", f"up {a}-{b}", f"split {a} {b} {c}", "pe", "end", "continue", "reset",
            "card sprint", "recover -"]  # fmt: skip


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=choices, data=st.randoms(use_true_random=False))
def test_actions_not_listed_are_refused(ruleset: str, picks: list[int], data) -> None:
    for g, actions in play_random(ruleset, picks[:30]):
        listed = set(actions)
        for text in _candidates(g, data):
            if text in listed:
                continue
            before = g.to_json()
            with pytest.raises(IllegalAction) as info:
                g.apply(text)
            assert str(info.value), "a refusal always says why"
            assert g.to_json() == before, "a refused action changes nothing"


def test_board_has_111_playable_squares() -> None:
    """D-01: (column + row) even with A = 1 is playable."""
    assert len(PLAYABLE) == 111
    assert all(is_playable(s) for s in PLAYABLE)
