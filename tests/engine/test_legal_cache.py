"""Each legal-action list is built once per position (issue 15, target 6).

`Game` keeps the list it built (or the one `play` built to see whether the action phase
ends by itself, §11: no PA left and nothing free to do) and answers `legal_actions`,
`legal_tuples` and `apply` from it. These tests count the builds, and check against a
fresh generator on a copy of the state that the cached list is always the right one, also
after the match-level primitives (lose_turn, lose_possession; spec §13–§14) change the
position without `play`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ball.games.ball.engine.generate as generate_module
import ball.games.ball.engine.resolve as resolve_module
from ball.compiled_build import is_compiled
from ball.games.ball.engine import Game, perft, perft_made
from ball.games.ball.engine.generate import legal

RULESETS = ["standard", "pe", "cards"]
picks = st.lists(st.integers(min_value=0, max_value=2**31), min_size=1, max_size=150)

# The tests below that count builds replace the engine's module functions (or a ruleset's
# cached answer) to see the calls between its modules. In the compiled build those calls go
# straight from one compiled function to the other, past any replacement, so these tests
# run in the pure lane of scripts/test.sh (BALL_PURE=1); the compiled build's lists and
# states are proved equal to the pure build's by tests/properties/test_compiled_build.py.
pure_only = pytest.mark.skipif(
    is_compiled("ball.games.ball.engine"),
    reason="counts calls inside the engine: the pure lane runs it",
)


def fresh(game: Game) -> list[str]:
    """The legal list built from scratch on a copy, bypassing every cache."""
    from ball.games.ball.engine.actions import to_text

    return sorted(to_text(a) for a in legal(game.copy()._s))


class Counter:
    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.calls = 0
        self.nonempty = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        result = self.fn(*args, **kwargs)
        self.nonempty += bool(result)
        return result


@pure_only
@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_action_list_is_built_once_per_apply(ruleset, monkeypatch):
    """A client asking for the list and then applying one of its actions (the web page, the
    CLI, the simulator) builds one list per action: `apply` reuses the one shown, and the
    next list is the one `play` built for the auto-end test when it found one (an empty
    one ends the action phase, and the position reached is another). Release, steal and
    recovery lists are other, short lists."""
    builds = Counter(generate_module.action_phase)  # what `legal` builds in the action phase
    auto_end = Counter(resolve_module.action_phase)
    monkeypatch.setattr(generate_module, "action_phase", builds)
    monkeypatch.setattr(resolve_module, "action_phase", auto_end)
    g = Game.new(ruleset)
    applied = handed_over = 0
    ahead = 0  # lists built during the last apply: they belong to the position it reached
    for i in range(400):
        if g.is_over:
            break
        before = builds.calls + auto_end.calls
        auto_end_before = auto_end.calls
        actions = g.legal_actions()
        g.legal_tuples()  # asking again builds nothing
        for_this_position = ahead + builds.calls + auto_end.calls - before
        assert auto_end.calls == auto_end_before  # only `play` tests for the auto end
        assert for_this_position <= 1, f"{for_this_position} action lists for one position"
        handed_over += ahead == 1 and for_this_position == 1
        before = builds.calls + auto_end.nonempty
        g.apply(actions[(i * 7919) % len(actions)])
        applied += 1
        ahead = builds.calls + auto_end.nonempty - before
    assert applied > 100
    # every list the auto-end test found was used, not built and thrown away
    assert handed_over == auto_end.nonempty
    if ruleset == "cards":  # cards cost PE, not PA: a turn can go on at 0 PA (§11)
        assert handed_over > 0


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None)
@given(choices=picks)
def test_cached_list_always_equals_a_fresh_one(ruleset, choices):
    g = Game.new(ruleset)
    for pick in choices:
        if g.is_over:
            break
        shown = g.legal_actions()
        assert shown == fresh(g)
        assert sorted(g.legal_tuples()) == sorted(legal(g.copy()._s))
        if pick % 23 == 0:
            g.lose_turn()  # §13: the turn ends without `play`
        elif pick % 29 == 0:
            g.lose_possession(g.attack)  # D-19
        else:
            g.apply(shown[pick % len(shown)])
    if not g.is_over:
        assert g.legal_actions() == fresh(g)


def test_changing_the_live_state_drops_the_cache():
    """`Game.state` hands out the mutable state; a list cached before must not survive."""
    g = Game.new()
    before = g.legal_actions()
    g.state.to_move = 1 - g.state.to_move
    assert g.legal_actions() == fresh(g) != before


def test_legal_tuples_is_the_callers_own_list():
    g = Game.new()
    mine = g.legal_tuples()
    mine.clear()
    assert g.legal_tuples() and g.legal_actions() == fresh(g)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_make_every_leaf_perft_counts_what_bulk_perft_counts(ruleset):
    """`perft_made` applies every leaf action (the benchmark's like-for-like measure); it
    must count exactly the sequences `perft` counts from the list lengths."""
    g = Game.new(ruleset)
    for i in range(9):  # into a turn whose PA run out, where the hand-over matters
        acts = g.legal_tuples()
        g.play_tuple(acts[(i * 31) % len(acts)])
    for depth in (1, 2):
        assert perft_made(g, depth) == perft(g, depth)


@pure_only
def test_a_copy_takes_the_list_and_builds_none_to_apply(monkeypatch):
    """The simulator copies its cached game before each action (issue 15): the copy answers
    `apply` from the list already built for the position, without building it again."""
    builds = Counter(generate_module.action_phase)
    monkeypatch.setattr(generate_module, "action_phase", builds)
    g = Game.new()
    shown = g.legal_actions()
    before = builds.calls
    c = g.copy()
    c.apply(shown[0])
    assert builds.calls == before
    assert g.legal_actions() == shown == fresh(g)  # the original is still at its position
    assert c.legal_actions() == fresh(c) != shown


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None)
@given(choices=picks)
def test_copies_and_their_originals_keep_right_lists_apart(ruleset, choices):
    """Play on copies and originals in turn: each one's list is always a fresh one's."""
    g = Game.new(ruleset)
    for pick in choices:
        if g.is_over:
            break
        shown = g.legal_actions()
        c = g.copy()
        c.apply(shown[pick % len(shown)])
        if pick % 3 == 0 and not c.is_over:
            c.legal_actions()
            g = c  # go on from the copy; else go on from the original with another action
        else:
            other = shown[(pick // 3) % len(shown)]
            g.apply(other)
        assert c.is_over or c.legal_actions() == fresh(c)
        assert g.is_over or g.legal_actions() == fresh(g)


def list_built_always(name: str):
    """The named ruleset with the 0-PA shortcut switched off: `play` builds the list."""
    from dataclasses import replace

    from ball.games.ball.engine.ruleset import ruleset_by_name

    rs = replace(ruleset_by_name(name))
    rs.__dict__["nothing_is_free"] = False  # what the cached property would have answered
    return rs


def test_the_shortcut_is_only_taken_when_nothing_is_free():
    from dataclasses import replace

    from ball.games.ball.engine.ruleset import ruleset_by_name

    standard = ruleset_by_name("standard")
    assert standard.nothing_is_free
    assert not ruleset_by_name("cards").nothing_is_free  # cards cost PE, not PA
    free_handoff = replace(standard, pa_cost=standard.pa_cost | {"handoff": 0})
    assert not free_handoff.nothing_is_free


@pure_only
@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=20, deadline=None)
@given(choices=picks)
def test_ending_at_no_pa_without_the_list_plays_the_same_game(ruleset, choices):
    """The 0-PA shortcut (nothing free: the phase ends without building the list) reaches
    the very states the list-building path reaches, action after action."""
    quick, slow = Game.new(ruleset), Game.new(list_built_always(ruleset))
    for pick in choices:
        if quick.is_over:
            break
        shown = quick.legal_actions()
        assert slow.legal_actions() == shown
        quick.apply(shown[pick % len(shown)])
        slow.apply(shown[pick % len(shown)])
        assert quick.to_json() == slow.to_json()
    assert quick.is_over == slow.is_over
