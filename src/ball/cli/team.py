"""`ball team …`: the teams of a team event (`ball event create --teams BOARDS`) and the
line-up each declares before a round (seed 004 articles 12.1-12.3)."""

from __future__ import annotations

import json

import typer

from ball.cli.tournament_common import DB, EVENT, event_ref, run, service

app = typer.Typer(help="Teams of a team event and their line-ups.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Teams of a team event and their line-ups."""


@app.command("add")
def add_command(
    name: str = typer.Argument(..., help="Team name."),
    players: list[str] = typer.Option(
        ..., "--player", help="A player: a registered entrant, or NAME or NAME=RATING (repeat)."
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Register a team; prints its board order (by rating, the unrated last, 12.1)."""
    svc = service(db)
    info = run(lambda: svc.teams.add_team(name, list(players), event=event_ref(event)))
    typer.echo(f"team {info['team']}")
    for board, player in enumerate(info["order"], start=1):
        typer.echo(f"{board}\t{player}")


@app.command("lineup")
def lineup_command(
    team: str = typer.Argument(..., help="Team name."),
    players: list[str] = typer.Argument(..., help="The players, board 1 first."),
    round_number: int = typer.Option(..., "--round", help="The round not yet paired."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Declare a team's line-up for a round (12.3): players in the team's order (12.2)."""
    svc = service(db)
    fielded = run(
        lambda: svc.teams.set_lineup(team, round_number, list(players), event=event_ref(event))
    )
    typer.echo(f"{team} round {round_number}: " + ", ".join(fielded))


@app.command("boards")
def boards_command(
    round_number: int | None = typer.Option(None, "--round", help="Default: the latest."),
    as_json: bool = typer.Option(
        False,
        "--json",
        help='[{"match", "first", "second", "boards": [{"board", "table", "a", "b", "outcome"}]}]',
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """A round's team matches board by board (coach A has the first colour, 13.2/13.3)."""
    svc = service(db)
    matches = run(lambda: svc.teams.team_boards(round_number, event=event_ref(event)))
    if as_json:
        typer.echo(json.dumps(matches, ensure_ascii=False))
        return
    for m in matches:
        typer.echo(f"match {m['match']}: {m['first']} - {m['second'] or '(sits out)'}")
        for b in m["boards"]:
            typer.echo(f"  board {b['board']} (table {b['table']}): {b['a']} - {b['b']}")
