"""`ball result …`: enter or correct the result of a table."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service
from ball.tournament.outcomes import TableOutcome

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


def _describe(t: TableOutcome) -> str:
    r = t.result
    assert r is not None  # a recorded result
    if r.kind == "double-forfeit":
        what = "double forfeit"
    elif r.kind == "forfeit":
        what = f"forfeit by {t.a if r.forfeit_by == 'A' else t.b}"
    else:
        what = {"A": f"{t.a} wins", "B": f"{t.b} wins", "D": "draw"}[r.outcome]
    return f"table {t.table}: {t.a} - {t.b}: {what}"


STEAL = typer.Option(
    [], "--steal", help="A steal noted on the sheet: HALF:SIDE:CHOICE, e.g. 1:B:reset (repeat)."
)
SANCTION = typer.Option(
    [], "--sanction", help="A sanction in the match: SIDE:STEP:REASON, e.g. 'A:warning:late'."
)


def _steals(texts: list[str]) -> list[dict] | None:
    steals = []
    for text in texts:
        parts = text.split(":")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            fail(f"--steal {text!r}: write HALF:SIDE:CHOICE, e.g. 1:B:reset")
        half, side, choice = parts
        steals.append({"half": int(half), "side": side.strip(), "choice": choice.strip()})
    return steals or None  # no --steal: the steals stored for the table stay


def _sanctions(texts: list[str]) -> list[dict]:
    out = []
    for text in texts:
        side, _, rest = text.partition(":")
        step, _, reason = rest.partition(":")
        out.append({"side": side.strip(), "step": step.strip(), "reason": reason})
    return out


@app.command("enter")
def enter_command(
    round_number: int = typer.Option(..., "--round"),
    table: int = typer.Option(..., "--table"),
    sheet: str | None = typer.Option(None, "--sheet", help="Score sheet JSON file (- = stdin)."),
    forfeit: str | None = typer.Option(None, "--forfeit", help="Coach who forfeits: A or B."),
    double_forfeit: bool = typer.Option(False, "--double-forfeit"),
    steal: list[str] = STEAL,
    sanction: list[str] = SANCTION,
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Enter the result of one table, with its steals and sanctions, in one step (once;
    the same command again changes nothing; corrections go through `result correct`)."""
    args = _result_args(sheet, forfeit, double_forfeit)
    steals, sanctions = _steals(steal), _sanctions(sanction)
    svc = service(db)
    done = run(
        lambda: svc.record_table_result(
            round_number, table, steals=steals, sanctions=sanctions, event=event_ref(event),
            **args,
        )
    )  # fmt: skip
    typer.echo(_describe(done.table))


@app.command("correct")
def correct_command(
    round_number: int = typer.Option(..., "--round"),
    table: int = typer.Option(..., "--table"),
    reason: str = typer.Option(..., "--reason", help="Why the result changes (kept)."),
    sheet: str | None = typer.Option(None, "--sheet"),
    forfeit: str | None = typer.Option(None, "--forfeit"),
    double_forfeit: bool = typer.Option(False, "--double-forfeit"),
    steal: list[str] = STEAL,
    sanction: list[str] = SANCTION,
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Replace an entered result; the old result and the reason are kept."""
    if not reason.strip():
        fail("--reason: a correction needs a reason")
    args = _result_args(sheet, forfeit, double_forfeit)
    steals, sanctions = _steals(steal), _sanctions(sanction)
    svc = service(db)
    done = run(
        lambda: svc.record_table_result(
            round_number, table, reason=reason, must_exist=True, steals=steals,
            sanctions=sanctions, event=event_ref(event), **args,
        )
    )  # fmt: skip
    typer.echo(_describe(done.table))
