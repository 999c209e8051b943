"""`ball.compiled_build`: the compiled extensions are used only while they match the source.

An edit of engine or search code must be what runs, even before setup.sh compiles again; a
process started with BALL_PURE=1 imports the `.py` files although extensions sit beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ball import compiled_build


@pytest.fixture
def meta_path():
    """sys.meta_path as it was, put back after the test (choose() may add a finder)."""
    saved = sys.meta_path[:]
    yield
    sys.meta_path[:] = saved


def test_a_stamp_that_does_not_match_the_sources_means_the_pure_build(tmp_path, monkeypatch,
                                                                     meta_path):
    stamp = tmp_path / "stamp"
    monkeypatch.setattr(compiled_build, "STAMP", str(stamp))
    monkeypatch.delenv(compiled_build.PURE_VARIABLE, raising=False)
    monkeypatch.setattr(compiled_build, "build", compiled_build.build)
    assert compiled_build.choose() == "pure"  # no stamp: a build that never finished
    stats = compiled_build.file_stats()
    compiled_build.write_stamp("0" * 64, [*stats[:-1], stats[-1] + "1"])  # an edit since
    assert compiled_build.choose() == "pure"
    compiled_build.write_stamp(compiled_build.digest(), [])  # other times, the same bytes
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not isinstance(f, compiled_build.SourceOnlyFinder)]
    assert compiled_build.choose() == "compiled"
    monkeypatch.setenv(compiled_build.PURE_VARIABLE, "1")
    assert compiled_build.choose() == "pure"


def test_the_digest_follows_every_source_byte(tmp_path, monkeypatch):
    package = tmp_path / "ball" / "games" / "ball" / "engine"
    package.mkdir(parents=True)
    (package / "rules.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(compiled_build, "SRC", str(tmp_path))
    monkeypatch.setattr(compiled_build, "COMPILED", ("ball.games.ball.engine",))
    before = compiled_build.digest()
    (package / "rules.py").write_text("X = 2\n", encoding="utf-8")
    assert compiled_build.digest() != before


def test_the_source_only_finder_finds_the_py_files():
    finder = compiled_build.SourceOnlyFinder()
    engine = "ball.games.ball.engine"
    spec = finder.find_spec(f"{engine}.game", [compiled_build.package_dir(engine)])
    assert spec is not None and spec.origin is not None and spec.origin.endswith("game.py")
    # other packages, and a look-alike name, are not its affair
    assert finder.find_spec("ball.games.ball.match.clock", None) is None
    assert finder.find_spec("ball.games.ball.engines", None) is None


def test_ball_pure_imports_the_sources():
    env = {**os.environ, compiled_build.PURE_VARIABLE: "1"}
    code = ("import ball.games.ball.engine.game as g, ball.games.ball.ai.mcts.search as m; "
            "print(g.__file__.endswith('.py'), m.__file__.endswith('.py'))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["True", "True"]
