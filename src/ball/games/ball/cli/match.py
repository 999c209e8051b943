"""`ball match …`: deciding a match from an arbiter's score sheet."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail, read_json
from ball.games.ball.match.result import SheetError, decide

app = typer.Typer(help="One match: decide the result from a score sheet.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """One match: decide the result from a score sheet."""


@app.command("decide")
def decide_command(
    file: str = typer.Argument(..., help="Score sheet (JSON), or - for standard input."),
) -> None:
    """Print the decision (winner, reason, TD, PBATK of the scoring half, SD) as JSON."""
    sheet = read_json(file)
    try:
        decision = decide(sheet)
    except SheetError as exc:
        fail(f"{file}: {exc}")
    typer.echo(json.dumps(decision.as_dict()))
