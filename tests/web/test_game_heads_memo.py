"""Issue 15: the fast path's small savings keep their answers (`ball.games.ball.play.heads`).

`fast_path` is found once per engine and forgotten with it; `GameHead.advanced`, built
directly, is `dataclasses.replace` of the next version with nothing to redo."""

from __future__ import annotations

import weakref
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from ball.games.ball.play import heads as game_heads
from ball.games.ball.play.heads import GameHead, fast_path
from freed import is_freed


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///{tmp}/a.sqlite", True),
        ("sqlite://", False),
        ("sqlite:///:memory:", False),
        ("sqlite:///file:x?mode=memory&uri=true", False),
    ],
)
def test_fast_path_is_found_once_per_engine_and_forgotten_with_it(tmp_path: Path, url, expected):
    engine = create_engine(url.format(tmp=tmp_path), poolclass=StaticPool)
    assert fast_path(engine) is expected
    assert fast_path(engine) is expected  # the remembered answer
    assert engine in game_heads._fast_paths
    known = len(game_heads._fast_paths)
    freed = weakref.ref(engine)
    engine.dispose()
    del engine
    assert is_freed(freed)
    assert len(game_heads._fast_paths) <= known - 1  # other dead engines may go too
    assert fast_path(None) is False


@pytest.mark.hypothesis
@given(
    st.text(max_size=12),
    st.text(max_size=20),
    st.sampled_from(["free", "play", "computer"]),
    st.sampled_from([None, "S", "N"]),
    st.sampled_from([None, "greedy", "hard"]),
    st.integers(min_value=0, max_value=10**9),
    st.sampled_from(["[]", '["E1-E2"]', "[ ]"]),
)
def test_advanced_is_the_next_version_with_nothing_to_redo(gid, title, mode, side, level, v, redo):
    head = GameHead(gid, title, mode, side, level, v, redo)
    assert head.advanced() == replace(head, version=v + 1, redo="[]")
