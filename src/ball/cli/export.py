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
    typer.echo(run(lambda: svc.export_trf(event=event_ref(event))), nl=False)
