"""The `ball rules legal|apply|perft` command-line contract: FILE, `-` on stdin, `--standard`;
bad documents and illegal actions exit 2 with exactly one line on stderr, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ball.games.ball.engine import Game, perft

from .scenario import position_doc

BALL = Path(sys.executable).parent / "ball"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BALL), "rules", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def assert_refused(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def doc_file(tmp_path):
    doc = position_doc({"S:X1": "G9", "N:X3": "H10", "S:X3": ("K9", "down")})
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, Game.from_json(doc)


def test_cli_legal_standard():
    proc = run("legal", "--standard")
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == Game.new().legal_actions()


def test_cli_legal_from_file_and_from_stdin(doc_file):
    path, game = doc_file
    from_file = run("legal", str(path))
    from_stdin = run("legal", "-", stdin=path.read_text())
    assert from_file.returncode == from_stdin.returncode == 0
    assert from_file.stdout.splitlines() == game.legal_actions()
    assert from_stdin.stdout == from_file.stdout


def test_cli_apply_prints_the_resulting_document(doc_file):
    path, game = doc_file
    proc = run("apply", str(path), "G9xI11>I9", "end", "up K9-L10")
    assert proc.returncode == 0, proc.stderr
    for a in ("G9xI11>I9", "end", "up K9-L10"):
        game.apply(a)
    assert json.loads(proc.stdout) == game.to_json()
    assert json.loads(proc.stdout)["to_move"] == "N"


def test_cli_apply_standard_and_stdin():
    proc = run("apply", "--standard", "F10-E9", "d10-c11")
    g = Game.new()
    g.apply("F10-E9")
    g.apply("D10-C11")
    assert json.loads(proc.stdout) == g.to_json()
    again = run("apply", "-", "G7-F8", stdin=proc.stdout)  # S:X5 protects S:O2 on F8
    g.apply("G7-F8")
    assert json.loads(again.stdout) == g.to_json()


def test_cli_perft_standard_and_file(doc_file):
    path, game = doc_file
    assert run("perft", "--standard", "2").stdout.strip() == str(perft(Game.new(), 2))
    assert run("perft", str(path), "1").stdout.strip() == str(len(game.legal_actions()))
    assert run("perft", "--standard", "0").stdout.strip() == "1"


BAD_DOCUMENTS = [
    ("not-json", "{not json", ["not valid JSON"]),
    ("not-object", "[1, 2]", ["document"]),
    ("no-pieces", '{"format": "ball-position/1"}', ["pieces"]),
    ("bad-half", json.dumps(dict(position_doc({}), half=5)), ["half"]),
    ("unknown-field", json.dumps(dict(position_doc({}), colour="red")), ["colour", "unknown"]),
    ("empty", "", ["not valid JSON"]),
]
COMMANDS = [["legal"], ["apply"], ["perft", "1"], ["apply", "end"], ["legal"], ["perft", "2"]]


@pytest.mark.parametrize(
    ("content", "words", "command"),
    [(c, w, cmd) for (_, c, w), cmd in zip(BAD_DOCUMENTS, COMMANDS, strict=True)],
    ids=[b[0] for b in BAD_DOCUMENTS],
)
def test_cli_bad_document_exits_2_with_one_line(tmp_path, content, words, command):
    """Each fault once through a FILE and once on stdin; the commands take turns."""
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    name, *extra = command
    assert_refused(run(name, str(path), *extra), *words)
    assert_refused(run(name, "-", *extra, stdin=content), *words)


def test_cli_missing_file_and_no_file():
    assert_refused(run("legal", "/nonexistent/pos.json"), "no such file")
    assert_refused(run("legal"), "--standard")
    assert_refused(run("apply"), "--standard")


@pytest.mark.parametrize(
    ("actions", "words"),
    [
        (["G7-H8"], ["action 1 (G7-H8)", "N is to move"]),
        (["F10-E9", "D10-D12"], ["action 2 (D10-D12)"]),
        (["F10-E9", "F10-E9"], ["action 2", "no piece on F10"]),
        (["dance"], ["action 1 (dance)", "is not an action"]),
        (["up D10-C9"], ["wrong phase"]),
    ],
)
def test_cli_illegal_action_exits_2_with_one_line(actions, words):
    assert_refused(run("apply", "--standard", *actions), *words)


@pytest.mark.parametrize("depth", [["x"], ["--", "-1"]], ids=["word", "negative"])
def test_cli_perft_bad_depth(depth):
    assert_refused(run("perft", "--standard", *depth), "DEPTH")


def test_cli_perft_needs_exactly_one_depth():
    assert_refused(run("perft", "--standard"), "DEPTH")


def test_cli_unknown_ruleset_name_exits_2():
    assert_refused(run("legal", "--standard", "--ruleset", "nope"), "nope")


def test_cli_ruleset_option_applies(tmp_path):
    path = tmp_path / "three.toml"
    path.write_text('extends = "standard"\nname = "three"\n[turn]\npa = 3\n')
    proc = run("apply", "--standard", "--ruleset", str(path))
    assert json.loads(proc.stdout)["pa"] == 3


def test_cli_bad_ruleset_file_exits_2_with_one_line(tmp_path):
    path = tmp_path / "k.toml"
    path.write_text('extends = "standard"\nkinds = "X"\n')
    assert_refused(run("legal", "--standard", "--ruleset", str(path)), "kinds")


def test_cli_unreadable_inputs_are_one_line(tmp_path):
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe{")
    assert_refused(run("legal", str(binary)), "cannot read")
    assert_refused(run("legal", str(tmp_path)), "no such file")


def test_cli_deeply_nested_json_is_one_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert_refused(run("legal", str(deep)), "deep.json")
