"""Tic-tac-toe's own `ball` commands (`ball tictactoe judge CELLS...`): the game brings them
through `Game.commands`, and `ball` mounts them from the registry like Xiangqi's."""

from __future__ import annotations

import typer

from .rules import IllegalGame, ending

app = typer.Typer(help="Tic-tac-toe: judge a game from its moves.", no_args_is_help=True)


@app.command("judge")
def judge(cells: list[int] = typer.Argument(..., help="The cells in the order played.")) -> None:
    """Who won a game of the cells played (X first), and by which article."""
    try:
        mark, article = ending(cells)
    except IllegalGame as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{mark} wins (article {article})" if mark else f"draw (article {article})")
