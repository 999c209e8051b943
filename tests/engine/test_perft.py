"""Perft from the standard position (depths 1–3), cross-checked against an independent
generator (tests/engine/reference.py) on every node, plus seeded random games compared
action by action. Depth 1 is also counted by hand from the rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ball.engine import Game, perft

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


@pytest.mark.parametrize("depth", [1, 2])
def test_perft_matches_the_independent_generator(depth):
    g = Game.new()
    assert perft(g, depth) == reference_perft(g, depth)


@pytest.mark.slow
def test_perft_depth_3_matches_the_independent_generator():
    g = Game.new()
    assert perft(g, 3) == reference_perft(g, 3)


def test_perft_vectors_from_the_standard_position():
    """Regression vectors, pinned once the independent generator agreed (tests above)."""
    g = Game.new()
    assert [perft(g, d) for d in (0, 1, 2, 3)] == [1, 55, 3049, 466404]


def test_perft_does_not_change_the_game():
    g = Game.new()
    before = g.to_json()
    perft(g, 2)
    assert g.to_json() == before


def ball_state(doc: dict) -> tuple:
    b = doc["ball"]
    if "at" in b:
        return (None, b["at"])
    side, pid = b["carrier"].split(":")
    at = next(p["at"] for p in doc["pieces"] if p["side"] == side and p["id"] == pid)
    return (b["carrier"], at)


def pb_total(doc: dict) -> int:
    return doc["pb"]["S"]["atk"] + doc["pb"]["N"]["atk"]


def is_block(doc: dict, action: str) -> bool:
    """A 1-square move onto an opposing piece (D-14 earns PE for it)."""
    if "-" not in action or action.startswith(("up", "split")) or "/" in action:
        return False
    a, b = action.split("-")
    at = {p["at"]: p["side"] for p in doc["pieces"]}
    near = reference.distance(reference.square(a), reference.square(b)) == 1
    return near and b in at and at[b] != at[a]


def check_step(before: dict, action: str, after: dict) -> None:
    """Invariants of one resolved action (§12, D-14, D-16, D-17, §18.2)."""
    assert Game.from_json(after).to_json() == after  # every engine position is a valid document
    pb = after["pb"]
    assert pb["S"]["atk"] == pb["N"]["def"] and pb["N"]["atk"] == pb["S"]["def"]  # dual entry
    delta = pb_total(after) - pb_total(before)
    if action == "reset":
        assert delta == 2  # D-17: the steal's PB and the reset's PB
    elif action == "continue":
        assert delta == 1
    elif after["phase"] == "steal":
        assert delta == 0  # charged once the decision is known
    else:
        assert delta == int(ball_state(before) != ball_state(after)), action  # §12, D-16
    if "at" in after["ball"]:
        assert after["ball"]["at"] not in {p["at"] for p in after["pieces"]}
    assert sum(after["score"].values()) == (after["phase"] == "over")
    if after["phase"] == "action" and after["restricted"]:
        assert {r[0] for r in after["restricted"]} == {after["to_move"]}
    if after["to_move"] != before["to_move"]:
        assert after["turn"] == before["turn"] + 1
    if after["ruleset"] == "pe" and action not in ("reset", "continue"):
        earned = after["pe"][before["to_move"]] - before["pe"][before["to_move"]]
        scoring = action == "pe" or "/" in action or "x" in action or is_block(before, action)
        assert earned == int(scoring), action  # D-14 and the 1 PA -> 1 PE conversion


def scoring_actions(g: Game, legal: list[str]) -> list[str]:
    out = []
    for a in legal:
        c = g.copy()
        c.apply(a)
        if c.is_over:
            out.append(a)
    return out


@pytest.mark.parametrize("ruleset", ["standard", "pe"])
@pytest.mark.parametrize("seed", range(8))
def test_random_games_agree_with_the_independent_generator(seed, ruleset):
    """Seeded random play through dodges, steals, resets, stacks and releases: at every step
    both generators list the same actions and the resolved step keeps the invariants."""
    rng = random.Random(seed)
    g = Game.new(ruleset)
    for _ in range(300):
        legal = g.legal_actions()
        doc = g.to_json()
        ref = reference.legal(doc)
        if ruleset == "pe" and doc["phase"] == "action" and doc["pa"] >= 1:
            ref.add("pe")
        assert ref == set(legal), doc
        if not legal:
            break
        choices = [a for a in legal if a != "end"] or legal
        if rng.random() < 0.3:  # now and then take a touchdown when one is there
            choices = scoring_actions(g, legal) or choices
        action = rng.choice(choices)
        g.apply(action)
        check_step(doc, action, g.to_json())
