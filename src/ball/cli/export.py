"""`ball export …`: the event in interchange formats."""

from __future__ import annotations

import typer

from ball.cli.tournament_common import DB, EVENT, event_ref, run, service

app = typer.Typer(help="Export an event.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Export an event."""


@app.command("trf")
def trf_command(db: str | None = DB, event: str | None = EVENT) -> None:
    """FIDE TRF-16 on standard output (coach A written as White)."""
    svc = service(db)
    typer.echo(run(lambda: svc.trf.export_trf(event=event_ref(event))), nl=False)


@app.command("seating")
def seating_command(
    round_number: int | None = typer.Option(None, "--round", help="One session (default all)."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Mahjong: the seating as CSV session,table,E,S,W,N (player numbers), importable with
    'ball round pair --seating'."""
    svc = service(db)
    typer.echo(
        run(lambda: svc.sessions.export_seating(round_number, event=event_ref(event))), nl=False
    )
