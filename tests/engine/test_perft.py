"""Perft from the standard position (depths 1–3). Depth 1 is counted by hand; depths 1–3 are
recomputed by tests/engine/reference.py alone (its own generator and resolver, no engine),
and depths 1–2 also compare the two generators' action lists on every node."""

from __future__ import annotations

from collections import Counter

import pytest

from ball.games.ball.engine import Game, perft

from . import reference


def origin(action: str) -> str:
    for sep in "-x=~@/":
        action = action.split(sep)[0]
    return action


def test_perft_depth_1_counted_by_hand():
    """N (DEF) opens; no ball, no PE, row 9 empty. Per piece, from §4–§7 and D-07:
    X1 D10: C9 E9 C11 E11, B8, B12, F8 dodge (S:O2) with exits E7 E9 G9 (G7 taken) → 9
    O2 F10: E9 G9 E11, protect G11, F8 dodge x3 (F12 D10 H10 are own pieces)          → 7
    O6 H10: G9 I9 I11, protect G11, H8 dodge with exits G9 I7 I9                       → 7
    X7 J10: I9 K9 I11 K11, L8, L12, H8 dodge x3 (H12 over I11 lands on own Q4)         → 9
    X5 G11: protect F10 H10 F12 H12, E9 I9 E13 I13 over active allies                 → 8
    X3 F12: E11 E13 G13, protect G11, D14, H14 (D10/H10 hold own pieces)                → 6
    Q4 H12: I11 G13 I13, protect G11, F14 J14, orthogonal H14 J12 (H10 F12 own)         → 8
    plus `end`                                                                         → 55
    """
    by_hand = {"D10": 9, "F10": 7, "H10": 7, "J10": 9, "G11": 8, "F12": 6, "H12": 8, "end": 1}
    g = Game.new()
    assert Counter(origin(a) for a in g.legal_actions()) == by_hand
    assert perft(g, 1) == sum(by_hand.values()) == 55


def reference_perft(g: Game, depth: int) -> int:
    """Perft whose move lists come from the independent generator; the engine only plays
    the moves. Every node's list is compared with the engine's on the way."""
    ref = reference.legal(g.to_json())
    assert ref == set(g.legal_actions()), (g.to_json(), ref ^ set(g.legal_actions()))
    if depth == 1:
        return len(ref)
    total = 0
    for a in sorted(ref):
        child = g.copy()
        child.apply(a)
        total += reference_perft(child, depth - 1)
    return total


def independent_perft(doc: dict, depth: int) -> int:
    """Perft computed by the reference alone (its generator and its resolver), no engine."""
    actions = reference.legal(doc)
    if depth == 1:
        return len(actions)
    return sum(independent_perft(reference.apply(doc, a), depth - 1) for a in actions)


@pytest.mark.parametrize("depth", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_perft_equals_the_fully_independent_count(depth):
    g = Game.new()
    assert perft(g, depth) == independent_perft(g.to_json(), depth)


@pytest.mark.parametrize("ruleset", ["pe", "cards"])
def test_perft_in_pe_and_card_mode_equals_the_independent_count(ruleset):
    """PE mode adds `pe` to every action phase; card mode starts with 0 PE, so no card."""
    g = Game.new(ruleset)
    assert perft(g, 1) == 56  # the 55 of the standard position, plus `pe`
    assert perft(g, 2) == independent_perft(g.to_json(), 2)


@pytest.mark.parametrize("depth", [1, 2])
def test_perft_matches_the_independent_generator_node_by_node(depth):
    g = Game.new()
    assert perft(g, depth) == reference_perft(g, depth)


def test_perft_vectors_from_the_standard_position():
    """Regression vectors, pinned once the reference agreed (tests above)."""
    g = Game.new()
    assert [perft(g, d) for d in (0, 1, 2, 3)] == [1, 55, 3049, 466404]


def test_perft_does_not_change_the_game():
    g = Game.new()
    before = g.to_json()
    perft(g, 2)
    assert g.to_json() == before
