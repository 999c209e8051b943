"""`ball xiangqi legal --notation`, `convert --to` and `record check` (issue 16's command-line
contract): POSITION is a FEN, `-` for standard input or `--standard`; output one item per line;
bad input exits 2 with exactly one line on standard error and nothing on standard output."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import build_app
from ball.games.xiangqi.engine import START_FEN

from .test_pgn import ARBITER_GAME, LIU_YANG

runner = CliRunner()
APP = build_app("xiangqi")


def run(*args: str, stdin: str | None = None):
    return runner.invoke(APP, ["xiangqi", *args], input=stdin)


def refused(*args: str, stdin: str | None = None) -> str:
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr


def test_legal_in_each_notation() -> None:
    iccs = run("legal", "--standard").stdout.splitlines()
    wxf = run("legal", "--standard", "--notation", "wxf").stdout.splitlines()
    chinese = run("legal", "--standard", "--notation", "chinese").stdout.splitlines()
    assert len(iccs) == len(wxf) == len(chinese) == 44
    assert wxf[iccs.index("h2e2")] == "C2=5" and chinese[iccs.index("h2e2")] == "炮二平五"
    assert run("legal", "-", "--notation", "wxf", stdin=START_FEN).stdout.splitlines() == wxf


def test_convert_reads_any_notation_in_sequence() -> None:
    result = run("convert", "--to", "chinese", "--standard", "h2e2", "H8+7", "傌二進三", "i9h9")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["炮二平五", "馬8進7", "傌二進三", "車9平8"]
    result = run("convert", "--to", "iccs", START_FEN, "炮二平五", "马８进７")
    assert result.stdout.splitlines() == ["h2e2", "h9g7"]
    result = run("convert", "--to", "wxf", "-", "h2e2", stdin=START_FEN)
    assert result.stdout.splitlines() == ["C2=5"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("convert", "--to", "wxf", "--standard", "h2e2", "h2e3"), "move 2 (h2e3)"),
        (("convert", "--to", "san", "--standard", "h2e2"), "san"),
        (("convert", "--standard", "h2e2"), "--to"),
        (("convert", "--to", "wxf", "--standard"), "at least one MOVE"),
        (("convert", "--to", "wxf", "not a fen", "h2e2"), "position"),
        (("legal", "--standard", "--notation", "san"), "san"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], words: str) -> None:
    assert words in refused(*args)


def test_record_check(tmp_path: Path) -> None:
    good = tmp_path / "game.pgn"
    good.write_text(LIU_YANG, encoding="utf-8")
    result = run("record", "check", str(good))
    assert result.exit_code == 0, result.stderr
    assert "63 moves (125 plies)" in result.stdout and "1/2-1/2" in result.stdout

    bad = tmp_path / "bad.pgn"
    bad.write_text(LIU_YANG.replace("2. b0c2", "2. b0c3"), encoding="utf-8")
    assert "line 9, column 17" in refused("record", "check", str(bad))
    broken = tmp_path / "broken.pgn"
    broken.write_text('[Game "Chinese Chess"]\n\n1. h2e2 {open\n', encoding="utf-8")
    assert "line 3, column 9" in refused("record", "check", str(broken))
    assert "no such file" in refused("record", "check", str(tmp_path / "none.pgn"))
    assert "cannot read" in refused("record", "check", str(_binary(tmp_path)))


def _binary(tmp_path: Path) -> Path:
    path = tmp_path / "binary.pgn"
    path.write_bytes(b"\xff\xfe\x00garbage")
    return path


def test_record_check_reads_the_arbiters_log(tmp_path: Path) -> None:
    path = tmp_path / "arbiter.pgn"
    path.write_text(ARBITER_GAME, encoding="utf-8")
    result = run("record", "check", str(path))
    assert result.exit_code == 0, result.stderr
    assert "fouls red 3, black 0" in result.stdout and "the log says 0-1 (4.1.8)" in result.stdout
    path.write_text(ARBITER_GAME.replace("0-1", "1-0"), encoding="utf-8")
    assert "log ends the game 0-1 (seed 4.1.8)" in refused("record", "check", str(path))
