"""Differential tests against tests/engine/reference.py, an independent generator and
resolver written from the spec: seeded random games from the standard start and from random
positions, comparing the legal actions and the resolved document at every step, and checking
the invariants of §12 (PB, dual entry), D-14 (PE) and §18.2 (every position is a valid
document)."""

from __future__ import annotations

import random

import pytest

from ball.games.ball.engine import Game

from . import reference
from .scenario import ROSTER


def sample(values, fast: int) -> list:
    """The first `fast` values in the quick lane, the rest marked slow: the full run keeps
    the whole sweep, the edit-test loop a sample of it (issue 12)."""
    values = list(values)
    return values[:fast] + [pytest.param(v, marks=pytest.mark.slow) for v in values[fast:]]


PLAYABLE = [
    reference.name((c, r)) for c in range(13) for r in range(1, 18) if reference.playable((c, r))
]


def pb_total(doc: dict) -> int:
    return doc["pb"]["S"]["atk"] + doc["pb"]["N"]["atk"]


def is_block(doc: dict, action: str) -> bool:
    """A 1-square move onto an opposing piece (D-14 earns PE for it)."""
    if "-" not in action or action.startswith(("up", "split")) or "/" in action:
        return False
    a, b = action.split("-")
    at = {p["at"]: p["side"] for p in doc["pieces"] if p["state"] != "bottom"}
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
        changed = reference.ball_state(before) != reference.ball_state(after)
        assert delta == int(changed), action  # §12, D-16
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


def normal(doc: dict) -> dict:
    """Order-free parts of a document: restricted pieces, hands and discard piles."""
    out = {**doc, "restricted": sorted(doc["restricted"])}
    if "cards" in doc:
        out["cards"] = {
            side: {pile: sorted(cards) for pile, cards in piles.items()}
            for side, piles in doc["cards"].items()
        }
    return out


def step_and_compare(g: Game, rng: random.Random, choices: list[str]) -> str:
    before = g.to_json()
    action = rng.choice(choices)
    expected = reference.apply(before, action)
    g.apply(action)
    after = g.to_json()
    assert normal(after) == normal(expected), (before, action)
    check_step(before, action, after)
    return action


def scoring_actions(g: Game, legal: list[str]) -> list[str]:
    out = []
    for a in legal:
        c = g.copy()
        c.apply(a)
        if c.is_over:
            out.append(a)
    return out


@pytest.mark.parametrize("ruleset", ["standard", "pe"])
@pytest.mark.parametrize("seed", sample(range(8), fast=2))
def test_random_games_from_the_start_agree_with_the_reference(seed, ruleset):
    rng = random.Random(seed)
    g = Game.new(ruleset)
    for _ in range(300):
        legal = g.legal_actions()
        assert reference.legal(g.to_json()) == set(legal), g.to_json()
        if not legal:
            break
        choices = [a for a in legal if a != "end"] or legal
        if rng.random() < 0.3:  # now and then take a touchdown when one is there
            choices = scoring_actions(g, legal) or choices
        step_and_compare(g, rng, choices)


def random_position(rng: random.Random) -> dict:
    """A valid §18.2 document with stacks, knocked-down pieces, a carried or free ball."""
    squares = rng.sample(PLAYABLE, 16)
    labels = [(side, pid) for side in "SN" for pid in ROSTER]
    rng.shuffle(labels)
    turn = rng.randint(3, 9)
    pieces = []
    for _ in range(rng.randint(0, 3)):
        (ts, tid), (bs, bid) = labels.pop(), labels.pop()
        at = squares.pop()
        since = rng.randint(1, turn)
        was = rng.choice(["active", "active", "down"])
        pieces.append({"side": ts, "id": tid, "at": at, "state": "top", "since_turn": since})
        pieces.append({"side": bs, "id": bid, "at": at, "state": "bottom", "was": was})
    for side, pid in labels:
        state = rng.choice(["active"] * 4 + ["down"])
        pieces.append({"side": side, "id": pid, "at": squares.pop(), "state": state})
    holders = [
        p
        for p in pieces
        if p["state"] in ("active", "top") and int(p["at"][1:]) != reference.SCORING_ROW[p["side"]]
    ]
    if holders and rng.random() < 0.7:
        h = rng.choice(holders)
        ball = {"carrier": f"{h['side']}:{h['id']}"}
    else:
        ball = {"at": squares.pop()}
    to_move, attack = rng.choice("SN"), rng.choice("SN")
    if "carrier" in ball and rng.random() < 0.8:
        attack = ball["carrier"][0]  # mostly, the carrier's coach holds the ATK role
    phase = rng.choice(["action", "action", "release"])
    mine = [f"{p['side']}:{p['id']}" for p in pieces if p["side"] == to_move]
    return {
        "format": "ball-position/1",
        "ruleset": rng.choice(["standard", "pe"]),
        "turn": turn,
        "to_move": to_move,
        "phase": phase,
        "attack": attack,
        "pa": rng.randint(1, 2) if phase == "action" else 0,
        "pieces": pieces,
        "ball": ball,
        "restricted": rng.sample(mine, rng.randint(0, 1)) if phase == "action" else [],
    }


@pytest.mark.parametrize("batch", sample(range(4), fast=1))
def test_random_positions_agree_with_the_reference(batch):
    """Stacks with and without the ball, downs, free balls, pending splits, steals: 40 random
    positions per batch, 25 random actions each."""
    for seed in range(batch * 40, batch * 40 + 40):
        rng = random.Random(seed)
        g = Game.from_json(random_position(rng))
        for _ in range(25):
            legal = g.legal_actions()
            assert reference.legal(g.to_json()) == set(legal), (seed, g.to_json())
            if not legal:
                break
            step_and_compare(g, rng, [a for a in legal if a != "end"] or legal)


DECK = ["sprint", "second-wind", "long-arm", "quick-feet", "screen", "audible"]


@pytest.mark.parametrize("batch", sample(range(3), fast=1))
def test_random_card_mode_play_agrees_with_the_reference(batch):
    """Card mode (§11, D-15, R-cards): random PE and random hand/discard splits, from the
    standard start and from random positions; cards and recoveries are favoured."""
    for seed in range(batch * 40, batch * 40 + 40):
        rng = random.Random(seed)
        doc = Game.new("cards").to_json() if seed % 2 else random_position(rng)
        doc["ruleset"] = "cards"
        doc["pe"] = {"S": rng.randint(0, 6), "N": rng.randint(0, 6)}
        doc["cards"] = {}
        for side in "SN":
            k = rng.randint(0, 6)
            rng.shuffle(DECK)
            doc["cards"][side] = {"hand": DECK[:k], "discard": DECK[k:]}
        g = Game.from_json(doc)
        for _ in range(40):
            legal = g.legal_actions()
            assert reference.legal(g.to_json()) == set(legal), (seed, g.to_json())
            if not legal:
                break
            special = [a for a in legal if a.startswith(("card", "recover"))]
            choices = [a for a in legal if a != "end"] or legal
            step_and_compare(g, rng, special if special and rng.random() < 0.4 else choices)
