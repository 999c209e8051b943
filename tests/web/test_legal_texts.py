"""Issue 15: an answer lists the legal actions through `ball.games.ball.play.replay.legal_texts`
(each action's text remembered per tuple) and the next apply looks its action up by text instead
of parsing it. The oracle is the engine: the list is `Game.legal_actions()` exactly, and
each text's tuple is what `Game.parse` reads, over random games under every shipped
ruleset; games played through the store end where the engine, replaying, ends."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.games.ball.engine.ruleset import shipped_rulesets
from ball.games.ball.play.replay import Rebuilt, legal_texts
from ball.games.ball.play.store import GameStore
from ball.web.app import create_app


@pytest.mark.hypothesis
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(shipped_rulesets()), st.integers(0, 2**32), st.integers(0, 80))
def test_the_list_is_the_engines_and_each_text_reads_back(ruleset, seed, plies):
    rng = random.Random(seed)
    game = Game.new(ruleset)
    for _ in range(plies):
        if game.is_over or not game.legal_tuples():
            break
        rebuilt = Rebuilt(game, [], ((0, game),))
        texts = legal_texts(rebuilt)
        assert texts == game.legal_actions()
        assert rebuilt.by_text is not None and sorted(rebuilt.by_text) == sorted(set(texts))
        for text, action in rebuilt.by_text.items():
            assert game.parse(text) == action
        game.apply(rng.choice(texts))


def test_played_by_text_the_store_ends_where_the_engine_does(tmp_path: Path):
    """Canonical texts (looked up) and other spellings (parsed) alike."""
    store = GameStore(create_app(str(tmp_path / "t.sqlite")).state.sessions)
    state = store.create(ruleset="cards")
    rng, replay = random.Random(3), Game.new("cards")
    for ply in range(60):
        if state["over"] or not state["legal"]:
            break
        action = rng.choice(state["legal"])
        sent = action.lower() if ply % 3 == 0 else action  # any case reads too
        state, _ = store.apply(state["id"], sent, state["version"], since=ply)
        replay.apply(action)
        assert state["legal"] == replay.legal_actions()
        assert state["position"] == replay.to_json()
    assert state["version"] > 20


def test_the_remembered_texts_stay_bounded(monkeypatch):
    """Past the bound the texts are forgotten and written again; the list does not change."""
    from ball.games.ball.play import replay as games

    monkeypatch.setattr(games, "_TEXTS_KEPT", 5)
    monkeypatch.setattr(games, "_texts", {})
    game, rng = Game.new("pe"), random.Random(8)
    for _ in range(30):
        if game.is_over or not game.legal_tuples():
            break
        texts = legal_texts(Rebuilt(game, [], ((0, game),)))
        assert texts == game.legal_actions()
        assert len(games._texts) <= 5
        game.apply(rng.choice(texts))
