"""The `ball xiangqi legal|apply|perft|status` contract (issue 16): POSITION is a FEN, `-` for
standard input, or `--standard`; bad input is one line on stderr and exit status 2.

In-process through Typer's runner (quick lane); test_cli_process.py runs the real command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ball.cli import build_app
from ball.games.xiangqi.engine import START_FEN, Move, Position, perft

APP = build_app("xiangqi")
MID = "1ceak4/9/h2a5/2p1p3p/5cp2/2h2H3/6PCP/3AE4/2C6/3A1K1H1 w"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(APP, ["xiangqi", *args], input=stdin)


def refused(result, *words: str) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def test_legal_standard_lists_44_sorted_iccs_moves() -> None:
    result = run("legal", "--standard")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines == sorted(m.iccs() for m in Position.start().legal_moves())
    assert len(lines) == 44 and "h2e2" in lines


def test_legal_of_a_fen_and_from_stdin() -> None:
    expected = sorted(m.iccs() for m in Position.from_fen(MID).legal_moves())
    assert run("legal", MID).stdout.splitlines() == expected
    assert run("legal", "-", stdin=MID + "\n").stdout.splitlines() == expected


def test_legal_notation_iccs_is_the_default() -> None:
    assert (
        run("legal", "--standard", "--notation", "iccs").stdout == run("legal", "--standard").stdout
    )


def test_apply_prints_the_resulting_fen() -> None:
    result = run("apply", "--standard", "h2e2", "h9g7")
    assert result.exit_code == 0
    expected = Position.start().push(Move.from_iccs("h2e2")).push(Move.from_iccs("h9g7"))
    assert result.stdout.strip() == expected.fen()
    # no moves: the position itself, normalised to n/b letters
    assert run("apply", START_FEN.replace("n", "h")).stdout.strip() == START_FEN


def test_perft_prints_the_count_on_the_last_line() -> None:
    result = run("perft", "--standard", "3")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "79666"
    assert run("perft", MID, "2").stdout.splitlines()[-1] == str(perft(Position.from_fen(MID), 2))


def test_perft_divide_lines_then_total() -> None:
    lines = run("perft", "--standard", "2", "--divide").stdout.splitlines()
    assert lines[-1] == "1920"
    assert len(lines) == 45 and sum(int(line.split()[1]) for line in lines[:-1]) == 1920


def test_status_reports_mate_and_no_legal_move_as_json() -> None:
    mate = json.loads(run("status", "R2k5/R8/9/9/9/9/9/9/9/4K4 b").stdout)
    assert mate["check"] and mate["checkmate"] and not mate["stalemate"]
    assert mate["ending"] == {"result": "1-0", "reason": "checkmate", "article": "4.1.1"}
    stuck = json.loads(run("status", "3k5/4R4/9/9/9/9/9/9/9/5K3 b").stdout)
    assert stuck["stalemate"] and stuck["ending"]["reason"] == "no-legal-move"
    start = json.loads(run("status", "--standard").stdout)
    assert start["legal_moves"] == 44 and start["ending"] is None


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("legal",), ("POSITION",)),
        (("legal", "xx w"), ("position", "ranks")),
        (("legal", "4k4/9/9/9/9/9/9/9/9/4K4 w"), ("kings face",)),
        (("apply", "--standard", "h2e3"), ("move 1", "h2e3", "cannon cannot move")),
        (("apply", "--standard", "h2e2", "zz"), ("move 2", "not an ICCS move")),
        (("apply", "--standard", "h2e2", "h2e2"), ("move 2", "no piece on h2")),
        (("perft", "--standard"), ("DEPTH",)),
        (("perft", "--standard", "x"), ("DEPTH",)),
        (("perft", "--standard", "-1"), ("DEPTH",)),
        (("perft", "--standard", "99"), ("DEPTH", "0..8")),
        (("perft", "--standard", "²"), ("DEPTH",)),
        (("apply", "--standard", "e²e3"), ("move 1", "not an ICCS move")),
        (("legal", "--standard", "extra"), ("extra",)),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    refused(run(*args), *words)


def test_unknown_notation_is_one_line() -> None:
    refused(run("legal", "--standard", "--notation", "san"), "--notation", "'san'")


def test_wxf_and_chinese_come_from_the_notation_module() -> None:
    import importlib.util

    for fmt in ("wxf", "chinese"):
        result = run("legal", "--standard", "--notation", fmt)
        if importlib.util.find_spec("ball.games.xiangqi.engine.notation") is None:
            refused(result, f"--notation {fmt}", "ball.games.xiangqi.engine.notation")
        else:
            assert result.exit_code == 0 and len(result.stdout.splitlines()) == 44
