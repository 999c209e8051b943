"""`ball xiangqi …`: the Xiangqi engine on the command line (legal, apply, perft, status,
convert, record check).

POSITION is a FEN string, `-` to read the FEN from standard input, or `--standard` for the
start position. Bad input exits with status 2 and one line on standard error.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from enum import StrEnum
from typing import Annotated

import typer

from ball.xiangqi import Move, Position, XiangqiError, board_outcome, divide, perft

from .common import fail

app = typer.Typer(
    help="The Xiangqi engine: legal moves, applying moves, perft, status.", no_args_is_help=True
)

StandardOpt = Annotated[bool, typer.Option("--standard", help="Use the standard start position.")]
ArgsArg = Annotated[
    list[str] | None, typer.Argument(metavar="[POSITION] ARGS...", show_default=False)
]
MAX_PERFT_DEPTH = 8


class Notation(StrEnum):
    ICCS = "iccs"
    WXF = "wxf"
    CHINESE = "chinese"


def _split(args: list[str] | None, standard: bool) -> tuple[Position, list[str]]:
    """The position named by the first argument (unless --standard) and the remaining ones."""
    rest = list(args or [])
    if standard:
        return Position.start(), rest
    if not rest:
        fail("give a POSITION (a FEN string), - for standard input, or --standard")
    text = sys.stdin.read() if rest[0] == "-" else rest[0]
    try:
        return Position.from_fen(text.strip()), rest[1:]
    except XiangqiError as exc:
        fail(f"position: {exc}")


def _notation(text: str | None, option: str) -> Notation:
    """The notation named by an option, or one line on stderr (not Typer's usage box)."""
    if text is None:
        fail(f"give {option} iccs|wxf|chinese")
    try:
        return Notation(text.lower())
    except ValueError:
        fail(f"{option} {text!r}: not iccs, wxf or chinese")


def _writer(notation: Notation):
    """A function (position, move) → text in `notation`; WXF and Chinese come from
    `ball.xiangqi.notation` when that module is part of this build."""
    if notation is Notation.ICCS:
        return lambda _position, move: move.iccs()
    if importlib.util.find_spec("ball.xiangqi.notation") is None:
        fail(f"--notation {notation}: this build has no ball.xiangqi.notation (use iccs)")
    module = importlib.import_module("ball.xiangqi.notation")
    return lambda position, move: module.write(position, move, str(notation))


@app.command("legal")
def legal_cmd(
    args: ArgsArg = None,
    standard: StandardOpt = False,
    notation: Annotated[
        str, typer.Option("--notation", help="Move notation to print: iccs, wxf or chinese.")
    ] = "iccs",
):
    """Print the legal moves of POSITION, one per line (sorted by ICCS)."""
    chosen = _notation(notation, "--notation")
    position, rest = _split(args, standard)
    if rest:
        fail(f"legal takes one POSITION, not also {rest[0]!r}")
    write = _writer(chosen)
    for move in sorted(position.legal_moves(), key=Move.iccs):
        typer.echo(write(position, move))


@app.command("apply")
def apply_cmd(args: ArgsArg = None, standard: StandardOpt = False):
    """Apply ICCS MOVEs in order to POSITION and print the resulting FEN.

    Example: ball xiangqi apply --standard h2e2 h9g7
    """
    position, moves = _split(args, standard)
    for k, text in enumerate(moves, 1):
        try:
            position = position.push(Move.from_iccs(text))
        except XiangqiError as exc:
            fail(f"move {k} ({text}): {exc}")
    typer.echo(position.fen())


@app.command("perft")
def perft_cmd(
    args: ArgsArg = None,
    standard: StandardOpt = False,
    show_divide: Annotated[
        bool, typer.Option("--divide", help="First print each first move's count.")
    ] = False,
):
    """Count the leaf nodes DEPTH plies below POSITION; the count alone on the last line."""
    position, rest = _split(args, standard)
    if len(rest) != 1:
        fail("perft needs POSITION and one DEPTH")
    text = rest[0]
    if not text.isdigit() or int(text) > MAX_PERFT_DEPTH:
        fail(f"DEPTH must be a whole number 0..{MAX_PERFT_DEPTH}, not {text!r}")
    depth = int(text)
    if show_divide and depth >= 1:
        counts = divide(position, depth)
        for move in sorted(counts, key=Move.iccs):
            typer.echo(f"{move.iccs()} {counts[move]}")
        typer.echo(sum(counts.values()))
        return
    typer.echo(perft(position, depth))


@app.command("status")
def status_cmd(args: ArgsArg = None, standard: StandardOpt = False):
    """Print POSITION's state as JSON: side to move, check, checkmate, no legal move, ending."""
    position, rest = _split(args, standard)
    if rest:
        fail(f"status takes one POSITION, not also {rest[0]!r}")
    ending = board_outcome(position)
    doc = {
        "fen": position.fen(),
        "turn": str(position.turn),
        "check": position.in_check(),
        "checkmate": position.is_checkmate(),
        "stalemate": position.is_stalemate(),
        "legal_moves": len(position.legal_codes()),
        "halfmove_clock": position.halfmove_clock,
        "ending": None
        if ending is None
        else {"result": ending.result, "reason": str(ending.reason), "article": ending.article},
    }
    typer.echo(json.dumps(doc, indent=2))


@app.command("convert")
def convert_cmd(
    args: ArgsArg = None,
    standard: StandardOpt = False,
    to: Annotated[
        str | None, typer.Option("--to", help="Notation to write: iccs, wxf or chinese.")
    ] = None,
):
    """Rewrite MOVEs (any notation, detected per move) played in order from POSITION in the
    notation --to, one per line.

    Example: ball xiangqi convert --to chinese --standard h2e2 H8+7
    """
    from ball.xiangqi import notation

    target = _notation(to, "--to")
    position, moves = _split(args, standard)
    if not moves:
        fail("convert needs at least one MOVE after the POSITION")
    out = []
    for k, text in enumerate(moves, 1):
        try:
            move = notation.read(position, text)
            out.append(notation.write(position, move, target))
        except XiangqiError as exc:
            fail(f"move {k} ({text}): {exc}")
        position = position.push(move)
    for line in out:
        typer.echo(line)


record_app = typer.Typer(help="Xiangqi game records (PGN).", no_args_is_help=True)
app.add_typer(record_app, name="record")


@record_app.command("check")
def record_check_cmd(path: Annotated[str, typer.Argument(metavar="FILE.pgn")]):
    """Read a PGN record and replay its moves; print a summary, or one line naming the line
    and column of the first fault (exit 2)."""
    from ball.xiangqi import pgn

    from .common import read_text

    text = read_text(path)
    try:
        record = pgn.read(text)
        game = record.game()
        log = record.log_state()
    except XiangqiError as exc:
        fail(f"{path}: {exc}")
    if log.ending is not None and record.result not in ("*", log.ending.result):
        fail(
            f"{path}: the arbiter's log ends the game {log.ending.result} "
            f"(seed {log.ending.article}) but the record's result is {record.result}"
        )
    ending = board_outcome(game.position)
    fouls = ", ".join(f"{side} {n}" for side, n in log.fouls.items())
    typer.echo(
        f"{path}: ok, {len(game.moves)} moves ({record.notation}), result {record.result}, "
        f"{len(record.rulings)} ruling(s), fouls {fouls}"
        + (f"; the board says {ending.result} ({ending.reason})" if ending else "")
        + (f"; the log says {log.ending.result} ({log.ending.article})" if log.ending else "")
    )
