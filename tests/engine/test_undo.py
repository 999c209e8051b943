"""Make/unmake (`ball.games.ball.engine.undo`): taking an action back restores the exact state.

Perft and the search's one-action look-ahead walk positions in place with `make`/`unmake`
instead of copying the state per child (issue 15, target 6), so the record must restore
every field of the state: the board lists, each piece's square and state (§2, §7), the
ball (§9), PA/PE/PB and score (§11, §12), the phase with a pending steal (§10), the cards
(§11) and the hand-over slot `legal_next`. These tests compare every slot of the state
before `make` and after `unmake`, and the legal-action list, over random games under every
shipped ruleset; and check that the state `make` leaves is the one `play` makes on a copy.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game, perft, perft_made, shipped_rulesets
from ball.games.ball.engine.actions import (
    CARD,
    CONTINUE,
    DODGE,
    END,
    HANDOFF,
    LONG,
    MOVE,
    PE,
    RECOVER,
    RESET,
    SHORT,
    SPLIT,
    TDODGE,
    UP,
    Action,
    to_text,
)  # fmt: skip
from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.position import to_doc
from ball.games.ball.engine.resolve import play
from ball.games.ball.engine.state import State
from ball.games.ball.engine.undo import make, unmake

RULESETS = shipped_rulesets()
picks = st.lists(st.integers(min_value=0, max_value=2**31), min_size=1, max_size=120)


def fields(s: State) -> dict[str, Any]:
    """What the state says: its whole position document (every piece, phase, PA, PE, PB,
    score, cards, effects, pending steal) and the board's two layers, copied (so that
    later changes cannot reach them). Read through the public form, not the class's
    fields: the compiled build's classes have no `__slots__` to list."""
    return {"position": to_doc(s), "occ": list(s.occ), "under": list(s.under)}


def check_every_action(s: State, only: list[Action] | None = None) -> set[int]:
    """Make and unmake each legal action of `s` (or those of `only`); return the kinds
    that were made."""
    before = fields(s)
    actions = legal(s)
    for a in actions if only is None else only:
        expected = s.copy()
        play(expected, a, None)
        undo = make(s, a)
        assert fields(s) == fields(expected), f"make({to_text(a)}) is not play"
        unmake(s, undo)
        assert fields(s) == before, f"unmake({to_text(a)}) left the state changed"
        assert legal(s) == actions
    return {a[0] for a in (actions if only is None else only)}


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=15, deadline=None)
@given(choices=picks)
def test_unmake_restores_every_field_after_any_action(ruleset, choices):
    g = Game.new(ruleset)
    s = g.state
    for pick in choices:
        if g.is_over:
            break
        check_every_action(s)
        actions = legal(s)
        play(s, actions[pick % len(actions)], None)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=15, deadline=None)
@given(choices=picks)
def test_a_line_of_actions_unmade_in_reverse_restores_the_start(ruleset, choices):
    """Records nest as perft nests them: a whole line made, then taken back from its end."""
    s = Game.new(ruleset).state
    start, start_actions = fields(s), legal(s)
    undos = []
    for pick in choices:
        if s.phase == 4:  # over
            break
        actions = s.legal_next or legal(s)
        undos.append(make(s, actions[pick % len(actions)]))
    for undo in reversed(undos):
        unmake(s, undo)
    assert fields(s) == start
    assert legal(s) == start_actions


# The kinds each ruleset offers: PE conversion only where PE are counted (D-14), cards and
# card recovery only in card mode (§11).
EVERY_RULESET = {MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG, END, UP, SPLIT, CONTINUE, RESET}
KINDS = {
    "standard": EVERY_RULESET,
    "pe": EVERY_RULESET | {PE},
    "cards": EVERY_RULESET | {PE, CARD, RECOVER},
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seeded_games_make_and_unmake_every_kind_of_action(ruleset):
    """The same check on seeded games long enough that every kind of action the ruleset
    has (steal decisions and resets, splits, cards and recovery included) is made and
    taken back, so the property above is not satisfied vacuously."""
    rng = random.Random(15)
    made: set[int] = set()
    plies = 0
    while not KINDS[ruleset] <= made and plies < 4000:
        s = Game.new(ruleset).state
        while s.phase != 4 and plies < 4000 and not KINDS[ruleset] <= made:
            actions = legal(s)
            # every action of a kind not made yet, and a few others (all at every position
            # would take a minute)
            new = [a for a in actions if a[0] not in made]
            made |= check_every_action(s, new + rng.sample(actions, min(3, len(actions))))
            play(s, rng.choice(actions), None)
            plies += 1
    assert made >= KINDS[ruleset], sorted(KINDS[ruleset] - made)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_perft_leaves_the_game_as_it_was(ruleset):
    """Perft walks the game's own state in place; afterwards the position, its document and
    its cached legal list are those of before."""
    g = Game.new(ruleset)
    for i in range(9):
        acts = g.legal_tuples()
        g.play_tuple(acts[(i * 31) % len(acts)])
    doc, shown = g.to_json(), g.legal_actions()
    s = g.copy()._s
    before = fields(s)
    assert perft(s, 2) == perft_made(s, 2) > 0
    assert fields(s) == before
    assert perft(g, 2) == perft_made(g, 2)
    assert g.to_json() == doc
    assert g.legal_actions() == shown == sorted(to_text(a) for a in legal(g.copy()._s))
