"""`ball event …`: create an event, register and withdraw entrants, import a TRF."""

from __future__ import annotations

import json

import typer

from ball.cli.common import read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service

app = typer.Typer(help="Tournament events and their entrants.", no_args_is_help=True)
import_app = typer.Typer(help="Create an event from another format.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@app.callback()
def _group() -> None:
    """Tournament events and their entrants."""


@app.command("create")
def create_command(
    name: str = typer.Option(..., "--name", help="Event name."),
    system: str = typer.Option(
        ..., "--system", help="round-robin | double-round-robin | swiss | knockout"
    ),
    rounds: int | None = typer.Option(None, "--rounds", help="Number of rounds (Swiss)."),
    draw_lots: int | None = typer.Option(
        None, "--draw-lots", help="Seed for drawing lots (pairing numbers / initial colour)."
    ),
    date_start: str = typer.Option("", "--start", help="Start date YYYY-MM-DD (default today)."),
    date_end: str = typer.Option("", "--end", help="End date YYYY-MM-DD."),
    place: str = typer.Option("", "--place"),
    arbiter: str = typer.Option("", "--arbiter"),
    tiebreaks: str | None = typer.Option(
        None, "--tiebreaks", help="Comma-separated tie-break chain (default per system)."
    ),
    scoring: str | None = typer.Option(
        None, "--scoring", help='JSON, e.g. {"win": 3, "draw": 1, "loss": 0}.'
    ),
    tiebreak_rules: str | None = typer.Option(
        None,
        "--tiebreak-rules",
        help="fide-2024 | fide-2026 (default: the rules in force on the start date).",
    ),
    replays: int = typer.Option(1, "--replays", help="Knockout: replays of a drawn match."),
    db: str | None = DB,
) -> None:
    """Create an event."""
    from ball.cli.common import fail

    score = None
    if scoring:
        try:
            score = json.loads(scoring)
        except json.JSONDecodeError as exc:
            fail(f"--scoring is not JSON: {exc}")
        if not isinstance(score, dict):
            fail("--scoring must be a JSON object")
    svc = service(db)
    info = run(
        lambda: svc.create_event(
            name=name,
            system=system,
            rounds=rounds,
            draw_lots=draw_lots,
            date_start=date_start,
            date_end=date_end,
            place=place,
            arbiter=arbiter,
            tiebreaks=[t.strip() for t in tiebreaks.split(",") if t.strip()] if tiebreaks else None,
            scoring=score,
            tiebreak_rules=tiebreak_rules,
            knockout_replays=replays,
        )
    )
    typer.echo(f"event {info['id']}: {info['name']} ({info['system']})")


@app.command("add-player")
def add_player_command(
    name: str = typer.Argument(..., help="Entrant name."),
    rating: int | None = typer.Option(None, "--rating"),
    club: str = typer.Option("", "--club", help="Club."),
    federation: str = typer.Option("", "--federation", help="3-letter federation code."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Register an entrant (after round 1: a late entry)."""
    svc = service(db)
    info = run(
        lambda: svc.add_player(
            name, rating=rating, club=club, federation=federation, event=event_ref(event)
        )
    )
    typer.echo(f"{info['number']}\t{info['name']}")


@app.command("withdraw")
def withdraw_command(
    name: str = typer.Argument(...),
    reason: str = typer.Option("", "--reason"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Withdraw an entrant from the rounds not yet paired."""
    svc = service(db)
    run(lambda: svc.withdraw(name, reason=reason, event=event_ref(event)))
    typer.echo(f"{name} withdrawn")


@app.command("bye")
def bye_command(
    name: str = typer.Argument(...),
    round_number: int = typer.Option(..., "--round"),
    kind: str = typer.Option("half", "--kind", help="half | zero"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Record a requested bye for a round not yet paired."""
    svc = service(db)
    run(lambda: svc.request_bye(name, round_number, kind, event=event_ref(event)))
    typer.echo(f"{name}: {kind}-point bye in round {round_number}")


@app.command("show")
def show_command(
    as_json: bool = typer.Option(False, "--json"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Show the event, its settings and entrants."""
    svc = service(db)
    info = run(lambda: svc.event_info(event=event_ref(event)))
    if as_json:
        typer.echo(json.dumps(info, ensure_ascii=False))
        return
    typer.echo(f"{info['name']} ({info['system']}, {info['rounds'] or '?'} rounds)")
    for e in info["entrants"]:
        typer.echo(f"{e['number']:>4}  {e['name']}  {e['rating'] or ''}  {e['status']}")


@app.command("log")
def log_command(
    kind: str = typer.Argument(..., help="sanction | signal | note ..."),
    detail: str = typer.Argument(...),
    name: str | None = typer.Option(None, "--player"),
    round_number: int | None = typer.Option(None, "--round"),
    table: int | None = typer.Option(None, "--table"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Append an entry (a sanction, a start signal, a note) to the arbiter's log."""
    svc = service(db)
    run(
        lambda: svc.record(
            kind, detail, name=name, round_number=round_number, table=table, event=event_ref(event)
        )
    )


@import_app.command("trf")
def import_trf_command(
    path: str = typer.Argument(..., help="TRF-16 file, or - for standard input."),
    name: str | None = typer.Option(None, "--name", help="Event name (default: from the file)."),
    tiebreak_rules: str | None = typer.Option(
        None,
        "--tiebreak-rules",
        help="fide-2024 | fide-2026 (default: the rules in force on the file's start date).",
    ),
    db: str | None = DB,
) -> None:
    """Create an event from a FIDE TRF-16 file (as `ball export trf` writes it)."""
    text = read_text(path)
    svc = service(db)
    info = run(lambda: svc.import_trf(text, name=name, tiebreak_rules=tiebreak_rules))
    typer.echo(f"event {info['id']}: {info['name']} ({info['system']})")
