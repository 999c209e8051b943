"""`ball result …`: enter or correct the result of a table."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service

app = typer.Typer(help="Results of the tables.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Results of the tables."""


def _result_args(sheet: str | None, forfeit: str | None, double_forfeit: bool) -> dict:
    if sum((sheet is not None, forfeit is not None, double_forfeit)) != 1:
        fail("give exactly one of --sheet FILE, --forfeit A|B, --double-forfeit")
    if forfeit is not None and forfeit not in ("A", "B"):
        fail(f"--forfeit is A or B, got {forfeit!r}")
    if sheet is None:
        return {"forfeit": forfeit, "double_forfeit": double_forfeit}
    try:
        data = json.loads(read_text(sheet))
    except json.JSONDecodeError as exc:
        fail(f"illegal sheet: {sheet} is not JSON ({exc})")
    return {"sheet": data}


def _describe(t: dict) -> str:
    r = t["result"]
    if r["kind"] == "double-forfeit":
        what = "double forfeit"
    elif r["kind"] == "forfeit":
        what = f"forfeit by {t['a'] if r['forfeit_by'] == 'A' else t['b']}"
    else:
        what = {"A": f"{t['a']} wins", "B": f"{t['b']} wins", "D": "draw"}[r["outcome"]]
    return f"table {t['table']}: {t['a']} - {t['b']}: {what}"


@app.command("enter")
def enter_command(
    round_number: int = typer.Option(..., "--round"),
    table: int = typer.Option(..., "--table"),
    sheet: str | None = typer.Option(None, "--sheet", help="Score sheet JSON file (- = stdin)."),
    forfeit: str | None = typer.Option(None, "--forfeit", help="Coach who forfeits: A or B."),
    double_forfeit: bool = typer.Option(False, "--double-forfeit"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Enter the result of one table (once; corrections go through `result correct`)."""
    args = _result_args(sheet, forfeit, double_forfeit)
    svc = service(db)
    t = run(lambda: svc.enter_result(round_number, table, event=event_ref(event), **args))
    typer.echo(_describe(t))


@app.command("correct")
def correct_command(
    round_number: int = typer.Option(..., "--round"),
    table: int = typer.Option(..., "--table"),
    reason: str = typer.Option(..., "--reason", help="Why the result changes (kept)."),
    sheet: str | None = typer.Option(None, "--sheet"),
    forfeit: str | None = typer.Option(None, "--forfeit"),
    double_forfeit: bool = typer.Option(False, "--double-forfeit"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Replace an entered result; the old result and the reason are kept."""
    args = _result_args(sheet, forfeit, double_forfeit)
    svc = service(db)
    t = run(
        lambda: svc.correct_result(
            round_number, table, reason=reason, event=event_ref(event), **args
        )
    )
    typer.echo(_describe(t))
