"""`ball xiangqi judge`: the ruling after the last move as JSON; bad input exits 2 with one
line on standard error (the issue's command-line contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.games.xiangqi.engine import Game, Move, pgn

from .test_repetition import CASES

runner = CliRunner()


def judge(*args: str) -> tuple[int, dict[str, object] | None, str]:
    result = runner.invoke(app, ["xiangqi", "judge", *args])
    doc = json.loads(result.stdout) if result.exit_code == 0 else None
    return result.exit_code, doc, result.stderr


def test_judge_rules_a_perpetual_check_as_a_loss() -> None:
    fen, cycle = CASES["perpetual_check"]
    code, doc, _ = judge("--fen", fen, "--moves", " ".join(cycle * 2))
    assert code == 0 and doc is not None
    assert (doc["result"], doc["article"], doc["verdict"]) == ("0-1", "26.1", "loss")
    assert [m["category"] for m in doc["cycle"]] == ["check", "idle"] * 4  # type: ignore[union-attr]


def test_judge_reads_the_rule_set_by_name() -> None:
    fen, cycle = CASES["chase_two_pieces_in_turn"]
    moves = " ".join(cycle * 2)
    _, seed, _ = judge("--fen", fen, "--moves", moves)
    _, axf, _ = judge("--fen", fen, "--moves", moves, "--rules", "axf")
    assert seed is not None and axf is not None
    assert (seed["result"], seed["must_change"]) == ("*", "red")
    assert (axf["result"], axf["rules"]) == ("1/2-1/2", "axf")


def test_judge_without_repetition_is_star() -> None:
    code, doc, _ = judge("--moves", "h2e2 h9g7")
    assert code == 0 and doc is not None
    assert doc["result"] == "*" and "cycle" not in doc


def test_judge_reports_checkmate() -> None:
    # Red rook to a9 mates the boxed king (see test_repetition's kill case).
    code, doc, _ = judge("--fen", "4k4/4a4/9/9/9/9/9/R8/9/4K4 w - - 0 1", "--moves", "a2a9")
    assert code == 0 and doc is not None
    assert (doc["result"], doc["verdict"], doc["article"]) == ("1-0", "board", "4.1.1")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rules", "nope"], "--rules: no Xiangqi rules named 'nope'"),
        (["--fen", "9/9 w"], "--fen:"),
        (["--moves", "h2e2 h2e2"], "move 2 (h2e2)"),
        (["--moves", "h2e2 zz"], "'zz' is not an ICCS move"),
        (["game.pgn", "--moves", "h2e2"], "not both"),
    ],
)
def test_judge_bad_input_is_one_line_and_exit_2(args: list[str], words: str) -> None:
    code, _, err = judge(*args)
    assert code == 2
    assert words in err and err.count("\n") == 1


def test_judge_pgn_without_repetition_is_open(tmp_path: Path) -> None:
    path = tmp_path / "game.pgn"
    path.write_text('[Event "x"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    code, doc, _ = judge(str(path))
    assert code == 0 and doc is not None and doc["result"] == "*"


def _record_text(fen: str, moves: list[str]) -> str:
    """A real PGN record (`ball.games.xiangqi.engine.pgn`) of the moves from `fen`."""
    game = Game.from_fen(fen)
    for move in moves:
        game.push(Move.from_iccs(move))
    return pgn.write(pgn.from_game(game))


def test_judge_file_goes_through_the_pgn_reader(tmp_path: Path) -> None:
    fen, cycle = CASES["perpetual_check"]
    path = tmp_path / "check.pgn"
    path.write_text(_record_text(fen, cycle * 2), encoding="utf-8")
    code, doc, _ = judge(str(path), "--rules", "axf")
    assert code == 0 and doc is not None
    assert (doc["result"], doc["rules"], doc["article"]) == ("0-1", "axf", "26.1")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, "cannot read"),
        ('[FEN "9/9"]\n\n1. h2e2 *\n', "FEN"),
        ("1. h2e2 h2e2 *\n", "illegal.pgn:"),
    ],
)
def test_judge_file_faults_are_one_line_and_exit_2(
    tmp_path: Path, text: str | None, words: str
) -> None:
    path = tmp_path / "illegal.pgn"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    code, _, err = judge(str(path))
    assert code == 2 and words in err and err.count("\n") == 1


def test_judge_writes_the_ruling_into_the_record(tmp_path: Path) -> None:
    # Issue 16: "the arbiter's ruling on a repetition written into the record".
    fen, cycle = CASES["perpetual_check"]
    path, out = tmp_path / "check.pgn", tmp_path / "ruled.pgn"
    path.write_text(_record_text(fen, cycle * 2), encoding="utf-8")
    code, doc, _ = judge(str(path), "--write", str(out))
    assert code == 0 and doc is not None
    record = pgn.read(out.read_text(encoding="utf-8"))
    (ruling,) = record.rulings
    assert ruling["ply"] == len(record.moves) == len(cycle) * 2
    assert (ruling["result"], ruling["reason"]) == (doc["result"], "repetition")
    assert f"art.{doc['article']}" in ruling["detail"] and doc["verdict"] in ruling["detail"]
    # The written record still replays and reads back to the same text.
    assert pgn.write(pgn.read(pgn.write(record))) == pgn.write(record)


@pytest.mark.parametrize(
    ("moves", "extra", "words"),
    [
        (["h2e2", "h9g7"], [], "no repetition ruling to record"),
        (None, ["--fen", "x"], "--write needs FILE.pgn"),
    ],
)
def test_judge_write_faults_are_one_line(
    tmp_path: Path, moves: list[str] | None, extra: list[str], words: str
) -> None:
    out = tmp_path / "out.pgn"
    if moves is None:
        code, _, err = judge(*extra, "--write", str(out))
    else:
        path = tmp_path / "game.pgn"
        path.write_text(pgn.write(pgn.from_game(_game(moves))), encoding="utf-8")
        code, _, err = judge(str(path), "--write", str(out))
    assert code == 2 and words in err and err.count("\n") == 1
    assert not out.exists()


def _game(moves: list[str]) -> Game:
    game = Game()
    for move in moves:
        game.push(Move.from_iccs(move))
    return game
