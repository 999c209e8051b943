"""`ball record …`: check and replay game records (.bgn, docs/record-format.md)."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail, read_text
from ball.games.ball.match.record import RecordError
from ball.games.ball.match.replay import replay_text

app = typer.Typer(help="Game records (.bgn): check, sheet, replay.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Game records (.bgn): check, sheet, replay."""


def _replayed(file: str):
    """The whole record replayed; a corrupt or illegal record is one line, exit 2."""
    try:
        return replay_text(read_text(file))
    except RecordError as exc:
        fail(f"{file}: {exc}")


@app.command("check")
def check_command(
    file: str = typer.Argument(..., help="Game record (.bgn), or - for standard input."),
) -> None:
    """Replay every action with the engine and print the match result as JSON."""
    typer.echo(json.dumps(_replayed(file).match.decision().as_dict()))


@app.command("sheet")
def sheet_command(
    file: str = typer.Argument(..., help="Game record (.bgn), or - for standard input."),
) -> None:
    """Print the score sheet of the replayed match (input of `ball match decide`)."""
    typer.echo(json.dumps(_replayed(file).match.sheet()))


@app.command("replay")
def replay_command(
    file: str = typer.Argument(..., help="Game record (.bgn), or - for standard input."),
    half: int | None = typer.Option(
        None, "--half", help="Half 1 or 2 (default 1; with neither option: the end)."
    ),
    turn: int | None = typer.Option(
        None, "--turn", help="Show the position at the start of this turn (default: the end)."
    ),
) -> None:
    """Print the position document (spec 18.2) at a point of the record."""
    text = read_text(file)
    if half is not None and half not in (1, 2):
        fail(f"--half must be 1 or 2, not {half}")
    if turn is not None and turn < 1:
        fail(f"--turn must be 1 or more, not {turn}")
    try:
        stop = (half if half is not None else 1, turn) if (half or turn) else None
        replayed = replay_text(text, stop=stop, require_complete=False)
    except RecordError as exc:
        fail(f"{file}: {exc}")
    position = replayed.position if stop else replayed.match.game.to_json()
    typer.echo(json.dumps(position, indent=2))
