"""`ball round …`: pair the next round, set or undo a round, show its tables."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service
from ball.tournament.outcomes import TableOutcome

app = typer.Typer(help="Rounds and pairings.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Rounds and pairings."""


def _print_tables(tables: list[TableOutcome], as_json: bool) -> None:
    if as_json:
        typer.echo(
            json.dumps(
                [{"table": t.table, "a": t.a, "b": t.b} for t in tables],
                ensure_ascii=False,
            )
        )
        return
    for t in tables:
        right = t.b if t.b is not None else f"(bye: {t.bye})"
        typer.echo(f"{t.table:>3}  {t.a}  -  {right}")


@app.command("pair")
def pair_command(
    as_json: bool = typer.Option(False, "--json", help='[{"table": 1, "a": NAME, "b": NAME|null}]'),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Pair the next round by the event's system."""
    svc = service(db)
    _print_tables(run(lambda: svc.pair_next_round(event=event_ref(event))), as_json)


@app.command("show")
def show_command(
    round_number: int | None = typer.Option(None, "--round"),
    as_json: bool = typer.Option(False, "--json"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Show the tables of a round (default: the latest)."""
    svc = service(db)
    _print_tables(run(lambda: svc.pairings(round_number, event=event_ref(event))), as_json)


@app.command("undo")
def undo_command(db: str | None = DB, event: str | None = EVENT) -> None:
    """Undo the latest round while it has no result."""
    svc = service(db)
    number = run(lambda: svc.unpair_round(event=event_ref(event)))
    typer.echo(f"round {number} undone")


@app.command("set")
def set_command(
    round_number: int = typer.Option(..., "--round"),
    pairs: str = typer.Option(
        ..., "--pairs", help='JSON [["A name", "B name" or null], ...] in table order.'
    ),
    reason: str = typer.Option("", "--reason"),
    as_json: bool = typer.Option(False, "--json"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """The arbiter's manual pairing or override of the next (or an unplayed latest) round."""
    try:
        data = json.loads(pairs)
    except json.JSONDecodeError as exc:
        fail(f"--pairs is not JSON: {exc}")
    if not isinstance(data, list) or not all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in data
    ):
        fail('--pairs must be a JSON list of ["A", "B" or null] pairs')
    svc = service(db)
    tables = run(
        lambda: svc.set_pairing(
            round_number, [(a, b) for a, b in data], reason=reason, event=event_ref(event)
        )
    )
    _print_tables(tables, as_json)
