"""`ball xiangqi …`: the Xiangqi engine on the command line (legal, apply, perft, status,
judge, convert, record check).

POSITION is a FEN string, `-` to read the FEN from standard input, or `--standard` for the
start position. Bad input exits with status 2 and one line on standard error.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from ball.cli.common import fail
from ball.games.xiangqi.engine import Move, Position, XiangqiError, board_outcome, divide, perft

if TYPE_CHECKING:  # the record reader is imported where a record is read
    from ball.games.xiangqi.engine import Game
    from ball.games.xiangqi.engine.pgn import XiangqiRecord

app = typer.Typer(
    help="The Xiangqi engine: legal moves, applying moves, perft, status.", no_args_is_help=True
)

StandardOpt = Annotated[bool, typer.Option("--standard", help="Use the standard start position.")]
ArgsArg = Annotated[
    list[str] | None, typer.Argument(metavar="[POSITION] ARGS...", show_default=False)
]
MAX_PERFT_DEPTH = 8
# Arguments such as "-1" reach the command (and its one-line error) instead of Click's
# multi-line "no such option" usage error.
ARGS_CONTEXT = {"ignore_unknown_options": True}


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
    """A function (position, move) → text in `notation` (`ball.games.xiangqi.engine.notation`)."""
    if notation is Notation.ICCS:
        return lambda _position, move: move.iccs()
    from ball.games.xiangqi.engine import notation as module

    return lambda position, move: module.write(position, move, str(notation))


@app.command("legal", context_settings=ARGS_CONTEXT)
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


@app.command("apply", context_settings=ARGS_CONTEXT)
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


@app.command("perft", context_settings=ARGS_CONTEXT)
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
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_PERFT_DEPTH:
        fail(f"DEPTH must be a whole number 0..{MAX_PERFT_DEPTH}, not {text!r}")
    depth = int(text)
    if show_divide and depth >= 1:
        counts = divide(position, depth)
        for move in sorted(counts, key=Move.iccs):
            typer.echo(f"{move.iccs()} {counts[move]}")
        typer.echo(sum(counts.values()))
        return
    typer.echo(perft(position, depth))


@app.command("status", context_settings=ARGS_CONTEXT)
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


def read_record(path: str) -> tuple[XiangqiRecord, Game]:
    """The record FILE.pgn (`-`: standard input) read and replayed, its warnings printed on
    standard error; one line and exit 2 when it cannot be. Every command reads records here,
    with the reader's one size limit (`pgn.MAX_CHARS`) and its encodings (`pgn.decode`)."""
    from ball.games.xiangqi.engine import pgn

    # Four bytes a character at most (UTF-8), one more to see that the file is too long.
    limit = 4 * pgn.MAX_CHARS + 1
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit)
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            fail(f"cannot read {path}: no such file")
        fail(f"cannot read {path}: {exc.strerror or exc}")
    try:
        text, _encoding = pgn.decode(data)
    except XiangqiError as exc:
        fail(f"cannot read {path}: {exc}")
    try:
        record = pgn.read(text)
        game = record.game()  # replayed here so a bad move is named as the record's fault
    except ValueError as exc:  # XiangqiError and the PGN reader's own errors
        fail(f"{path}: {exc}")
    for warning in record.warnings:
        typer.echo(f"warning: {path}: {warning}", err=True)
    return record, game


def _judge_moves(fen: str | None, moves: str | None):
    """The game of --fen (default: the start) and the ICCS --moves."""
    from ball.games.xiangqi.engine import Game

    try:
        game = Game.from_fen(fen) if fen is not None else Game()
    except XiangqiError as exc:
        fail(f"--fen: {exc}")
    for k, text in enumerate((moves or "").split(), 1):
        try:
            game.push(Move.from_iccs(text))
        except XiangqiError as exc:
            fail(f"move {k} ({text}): {exc}")
    return game


@app.command("judge")
def judge_cmd(
    pgn: Annotated[
        str | None,
        typer.Argument(metavar="FILE.pgn", help="The game record.", show_default=False),
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", help="Rule set: chinese (the seed's) or axf.")
    ] = "chinese",
    fen: Annotated[
        str | None, typer.Option("--fen", help="Start position (default: the standard one).")
    ] = None,
    moves: Annotated[
        str | None, typer.Option("--moves", help='ICCS moves from --fen, e.g. "h2e2 h9g7".')
    ] = None,
    write: Annotated[
        str | None,
        typer.Option(
            "--write",
            metavar="OUT.pgn",
            help="Also write FILE.pgn with the repetition ruling recorded after its last move.",
        ),
    ] = None,
):
    """Print the ruling after the record's last move as JSON.

    `result` is 1-0, 0-1, 1/2-1/2, or * when no rule ends the game; `reason` and `article`
    say why; where a repetition is judged (seed §24–§28) the classified cycle follows.
    """
    from ball.games.xiangqi.engine import load_rules

    try:
        rule_set = load_rules(rules)
    except XiangqiError as exc:
        fail(f"--rules: {exc}")
    if write is not None and pgn is None:
        fail("--write needs FILE.pgn: the ruling is written into that record")
    if pgn is not None and (fen is not None or moves is not None):
        fail("judge takes FILE.pgn or --fen/--moves, not both")
    record, game = read_record(pgn) if pgn is not None else (None, _judge_moves(fen, moves))
    ruling = game.ruling(rule_set)
    if write is not None:
        _write_ruling(record, ruling, write)
    typer.echo(json.dumps(ruling.as_dict(), indent=2))


def _write_ruling(record, ruling, out: str) -> None:
    """FILE.pgn with the repetition ruling after its last move, written to `out`."""
    from ball.games.xiangqi.engine import pgn as module

    try:
        record.add_repetition_ruling(ruling)
        text = module.write(record)
    except XiangqiError as exc:
        fail(f"--write: {exc}")
    try:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")


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
    from ball.games.xiangqi.engine import notation

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
def record_check_cmd(
    path: Annotated[str | None, typer.Argument(metavar="FILE.pgn", show_default=False)] = None,
):
    """Read a PGN record and replay its moves; print a summary, or one line naming the line
    and column of the first fault (exit 2). Warnings (no result, a footer) go to standard
    error."""
    if path is None:
        fail("give FILE.pgn, the record to check (- for standard input)")
    record, game = read_record(path)
    log = record.log_state()
    if log.ending is not None and record.result not in ("*", log.ending.result):
        fail(
            f"{path}: the arbiter's log ends the game {log.ending.result} "
            f"(seed {log.ending.article}) but the record's result is {record.result}"
        )
    ending = board_outcome(game.position)
    fouls = ", ".join(f"{side} {n}" for side, n in log.fouls.items())
    typer.echo(
        f"{path}: ok, {_moves(game)} ({record.notation}), result {record.result}, "
        f"{len(record.rulings)} ruling(s), fouls {fouls}"
        + (f"; the board says {ending.result} ({ending.reason})" if ending else "")
        + (f"; the log says {log.ending.result} ({log.ending.article})" if log.ending else "")
    )


def _moves(game: Game) -> str:
    """`41 moves (81 plies)`: seed 7.1 counts a move as Red's and Black's turn together,
    numbered from the start position's move number."""
    plies = len(game.moves)
    if not plies:
        return "0 moves"
    start = game.positions[0]
    last = game.positions[-2]  # the position before the last move
    moves = last.fullmove - start.fullmove + 1
    return f"{moves} move{'s' if moves != 1 else ''} ({plies} pl{'ies' if plies != 1 else 'y'})"
