"""`ball clock …`: time controls, and replaying or auditing a clock's event log."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ball.cli.common import fail, read_text
from ball.clocks import ClockEvent, ClockRejected, ControlError, get_control, parse_control, replay

app = typer.Typer(help="Table clocks: time controls and event logs.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Table clocks: time controls and event logs."""


def _control(name: str):
    """A shipped control by name, or a TOML/JSON file."""
    try:
        if Path(name).suffix in (".toml", ".json") or name == "-":
            return parse_control(read_text(name), name)
        return get_control(name)
    except ControlError as exc:
        fail(str(exc))


@app.command("controls")
def controls_command() -> None:
    """List the shipped time controls: name, game and title."""
    from ball.clocks import builtin_controls

    for control in builtin_controls().values():
        typer.echo(f"{control.name}\t{control.game}\t{control.title}")


@app.command("show")
def show_command(
    name: str = typer.Argument(..., help="A control name (see `ball clock controls`) or a file."),
) -> None:
    """Print one time control as JSON (durations in seconds)."""
    typer.echo(json.dumps(_control(name).to_json(), indent=2, ensure_ascii=False))


@app.command("check")
def check_command(
    file: str = typer.Argument(..., help="A time-control file (TOML or JSON), or - for stdin."),
) -> None:
    """Validate a time-control file; prints its name when it is usable."""
    typer.echo(f"ok: {_control(file).name}")


@app.command("replay")
def replay_command(
    control: str = typer.Argument(..., help="A control name or file."),
    log: str = typer.Argument(..., help="Event log: a JSON list of {kind, at, data}, or -."),
    at: float | None = typer.Option(None, help="Instant (epoch seconds) to run the clock to."),
    history: bool = typer.Option(False, help="Print the audit history instead of the state."),
) -> None:
    """Replay an event log: the state it gives (or its full history with computed notices)."""
    tc = _control(control)
    try:
        raw = json.loads(read_text(log))
    except json.JSONDecodeError as exc:
        fail(f"{log}: not valid JSON (line {exc.lineno}: {exc.msg})")
    if not isinstance(raw, list):
        fail(f"{log}: must be a JSON list of events")
    try:
        events = [ClockEvent.from_json(item) for item in raw]
        clock = replay(tc, events, at)
    except ClockRejected as exc:
        fail(f"{log}: {exc}")
    out = clock.timeline if history else clock.snapshot()
    typer.echo(json.dumps(out, indent=2, ensure_ascii=False))


def _store(db: str | None):
    from ball.cli.tournament_common import require_existing_file
    from ball.clocks.store import ClockStore
    from ball.storage import open_database

    require_existing_file(db)  # both commands only read: a mistyped path makes no file
    try:
        _engine, sessions = open_database(db)
    except Exception as exc:  # a bad path or URL is the user's input
        fail(f"cannot open database {db or '$BALL_DB'}: {exc}")
    return ClockStore(sessions)


_DB = typer.Option(None, "--db", help="SQLite file or SQLAlchemy URL (default: $BALL_DB).")


@app.command("history")
def history_command(
    clock_id: int = typer.Argument(..., help="Clock number (as in the web address /clock/N)."),
    db: str | None = _DB,
) -> None:
    """Audit one stored clock: every logged event and every computed notice, as JSON."""
    from ball.clocks.store import ClockNotFound

    try:
        view = _store(db).view(clock_id)
    except ClockNotFound as exc:
        fail(str(exc))
    typer.echo(json.dumps(view.clock.timeline, indent=2, ensure_ascii=False))


@app.command("round")
def round_command(
    name: str = typer.Argument("", help="Round label (empty: clocks without a round)."),
    db: str | None = _DB,
) -> None:
    """One line per clock of a round: number, table, status, mover, penalties and flags."""
    views = _store(db).round_views(name)
    if not views:
        fail(f"no clock in round {name!r}")
    for view in views:
        state = view.state_line()
        typer.echo(state)
