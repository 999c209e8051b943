"""Every command's help shows its texts as written (issue 32, item 16): Rich, which draws
Typer's help, must not turn `1:B:reset` into `1🅱reset`, `A:warning:late` into `A⚠late`,
or swallow `[...]` as a style tag. The whole command tree is walked and every help page
rendered; the fast top-level help (`ball.cli.front_door`) is held to the same."""

from __future__ import annotations

import contextlib
import inspect
import io
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text
from typer.core import TyperGroup
from typer.testing import CliRunner

from ball.cli import build_app, front_door
from ball.cli.literal import literal

runner = CliRunner()
BOX = {chr(c) for c in range(0x2500, 0x2580)}  # the panels' borders


def _tree(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _tree(sub, [*path, name])


def _raw_tree() -> list[tuple[list[str], Any]]:
    # The tree as the sources write it: the same app under Typer's own group class.
    app = build_app()
    app.info.cls = TyperGroup
    return list(_tree(typer.main.get_command(app), []))


def _texts(command: Any) -> list[str]:
    texts = [command.help, command.short_help, command.epilog]
    texts += [getattr(p, "help", None) for p in command.params]
    return [inspect.cleandoc(t) for t in texts if t]


RAW = _raw_tree()


def test_the_walk_reaches_every_command_and_the_known_examples() -> None:
    paths = {" ".join(path) for path, _ in RAW}
    assert {"result enter", "xiangqi record check", "mahjong", "clock"} <= paths
    assert len(paths) > 50
    enter = next(c for p, c in RAW if p == ["result", "enter"])
    assert any("1:B:reset" in t for t in _texts(enter))


@pytest.mark.parametrize(("path", "command"), RAW, ids=[" ".join(p) or "ball" for p, _ in RAW])
def test_every_help_page_shows_its_texts_as_written(
    path: list[str], command: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Wide enough that no help line is cut; Typer reads TERMINAL_WIDTH once, at import (an
    # earlier test may have set it narrow), so its width is set here directly.
    import typer.rich_utils

    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 500)
    result = runner.invoke(build_app(), [*path, "--help"], prog_name="ball", env={"COLUMNS": "500"})
    assert result.exit_code == 0, result.output
    page = "".join(" " if ch in BOX else ch for ch in result.output)
    words = set(page.split())
    texts = _texts(command)
    for text in texts:
        for word in text.split():
            # Every word of the help is on the page (a mangled or swallowed one is not).
            assert word in words or word in page, f"{word!r} of {text!r} missing"
    written = "".join(texts)
    strange = {ch for ch in page if ord(ch) > 127 and ch not in written}
    assert not strange, f"characters no help text contains: {sorted(strange)}"
    assert not any(unicodedata.category(ch) == "So" for ch in strange)


def test_the_fast_top_level_help_shows_its_lines_as_written() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        front_door.print_help([("enter", "e.g. 1:B:reset or 'A:warning:late' [ISO] :+1:")])
    assert "e.g. 1:B:reset or 'A:warning:late' [ISO] :+1:" in out.getvalue()


@given(st.text(alphabet=st.sampled_from(list(":[]\\/ abBx+-_=")), max_size=40))
def test_literal_renders_back_to_the_text(text: str) -> None:
    assert Text.from_markup(literal(text)).plain == text


@given(st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=60))
def test_literal_renders_back_any_text(text: str) -> None:
    # Control characters are Rich's to drop; every printable text comes back as written.
    assert Text.from_markup(literal(text)).plain == text
