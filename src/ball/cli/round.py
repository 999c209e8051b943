"""`ball round …`: pair the next round, set or undo a round, show its tables."""

from __future__ import annotations

import csv
import io
import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from ball.cli.common import fail, parse_json, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, own_commands, run, service
from ball.tournament.kinds import ByeKind
from ball.tournament.outcomes import TableOutcome

if TYPE_CHECKING:  # the service's modules load when a command runs, not at start-up
    from ball.tournament.check_service import RoundCheck

# The byes an entrant asks for before the round is paired (`event bye --kind`).
REQUESTED_BYES = frozenset({ByeKind.HALF, ByeKind.ZERO})

app = typer.Typer(help="Rounds and pairings.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Rounds and pairings."""


def _json_table(t: TableOutcome) -> dict:
    # A mini-match tie (events with several games per tie) adds its state under "tie".
    out: dict = {"table": t.table, "a": t.a, "b": t.b}
    if t.b is None and t.bye is not None:
        # A bye says its kind and whether the entrant asked for it (a half- or zero-point
        # bye) or the pairing left them over (`pab`), or the arbiter gave a full point.
        out["bye"] = t.bye.value
        out["requested"] = t.bye in REQUESTED_BYES
    if t.tie is not None:
        out["tie"] = t.tie
    return out


def _print_tables(
    tables: list[TableOutcome], as_json: bool, checked: RoundCheck | None = None
) -> None:
    """The tables; with `checked`, the round's pairing check: in JSON as the `check`
    object of every table (the output stays the list of tables it always was), in text
    as a last line."""
    if as_json:
        rows = [_json_table(t) for t in tables]
        if checked is not None:
            check = _check_json(checked)
            rows = [{**row, "check": check} for row in rows]
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    for t in tables:
        right = t.b if t.b is not None else f"(bye: {t.bye})"
        typer.echo(f"{t.table:>3}  {t.a}  -  {right}{_tie_text(t.tie)}")
    if checked is not None:
        typer.echo(_check_text(checked))


def _check_json(checked: RoundCheck) -> dict:
    verdict = checked.check
    if verdict is None:  # a round imported from a TRF file: paired elsewhere
        return {"ok": False, "by": "not checked", "detail": "run 'ball round check'"}
    return verdict.as_dict()


def _check_text(checked: RoundCheck) -> str:
    verdict = checked.check
    state = "published" if checked.published else "NOT published"
    if verdict is None:
        return f"round {checked.round}: not checked; {state}"
    said = {True: "passed", False: "FAILED", None: "not checkable"}[verdict.ok]
    return f"round {checked.round}: check {said} ({verdict.by}): {verdict.detail}; {state}"


def _tie_text(tie: dict | None) -> str:
    if tie is None:
        return ""
    score = f"{tie['points']['A']:g}-{tie['points']['B']:g}"
    if tie["level_after_games"]:
        score += f" (extra {tie['extra_points']['A']:g}-{tie['extra_points']['B']:g})"
    if tie["winner"] is not None:
        return f"   {score}: {tie['winner']} through ({tie['how']})"
    if tie["phase"] == "lots":
        return f"   {score}: lots due"
    return f"   {score}: game {tie['next_game']} next, {tie['next_first']} first"


@app.command("pair")
def pair_command(
    as_json: bool = typer.Option(
        False,
        "--json",
        help='[{"table": 1, "a": NAME, "b": NAME|null, "check": {"ok": true|false, '
        '"by": "...", "detail": "..."}}]; a bye adds "bye": pab|half|zero|full and '
        '"requested": true|false. "check" is the round\'s pairing check (the same on '
        "every table)",
    ),
    method: str | None = typer.Option(
        None, "--method", help="Mahjong: seat this session by ranking | balanced."
    ),
    seating: str | None = typer.Option(
        None, "--seating", help="Mahjong: seat from a CSV template session,table,E,S,W,N."
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Pair the next round by the event's system (Mahjong: seat the next session)."""
    svc = service(db)
    own = own_commands(svc, event)
    if own is not None:
        own.pair(svc, event, method, seating, as_json)
        return
    if method is not None or seating is not None:
        fail("--method and --seating are for a Mahjong event")
    with _working("Pairing the next round"):
        tables = run(lambda: svc.rounds.pair_next_round(event=event_ref(event)))
    _print_tables(tables, as_json, run(lambda: svc.checks.round_verdict(event=event_ref(event))))


@contextmanager
def _working(what: str) -> Iterator[None]:
    """A spinner with the seconds so far on a terminal's standard error while a pairing runs
    (a large Swiss round spends seconds in the pairing engine, which reports no progress);
    nothing when standard error is not a terminal, so scripts and pipes see no difference."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    console = Console(stderr=True)
    started = time.monotonic()
    with console.status(what) as status:
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(1):
                status.update(f"{what}: {int(time.monotonic() - started)} s so far")

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()


@app.command("show")
def show_command(
    round_number: int | None = typer.Option(None, "--round"),
    as_json: bool = typer.Option(False, "--json", help="As 'ball round pair --json'."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Show the tables of a round (default: the latest) and its pairing check."""
    svc = service(db)
    own = own_commands(svc, event)
    if own is not None:
        own.show(svc, event, round_number, as_json)
        return
    tables = run(lambda: svc.rounds.pairings(round_number, event=event_ref(event)))
    checked = run(lambda: svc.checks.round_verdict(round_number, event=event_ref(event)))
    _print_tables(tables, as_json, checked)


@app.command("undo")
def undo_command(db: str | None = DB, event: str | None = EVENT) -> None:
    """Undo the latest round while it has no result."""
    svc = service(db)
    number = run(lambda: svc.rounds.unpair_round(event=event_ref(event)))
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
        lambda: svc.rounds.set_pairing(
            round_number, [(a, b) for a, b in data], reason=reason, event=event_ref(event)
        )
    )
    checked = run(lambda: svc.checks.round_verdict(round_number, event=event_ref(event)))
    _print_tables(tables, as_json, checked)


@app.command("check")
def check_command(
    round_number: int | None = typer.Option(None, "--round", help="Default: the latest."),
    as_json: bool = typer.Option(
        False,
        "--json",
        help='{"round": N, "published": true|false, "check": {"ok": true|false, "by": '
        '"...", "detail": "..."}}',
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Check a round's stored pairing again against its system's reference (FIDE Dutch
    checker, Berger tables, knockout draw) and keep the verdict; a failure takes the
    round back from the players. Exits 1 when the check fails."""
    svc = service(db)
    with _working("Checking the pairing"):
        checked = run(lambda: svc.checks.check_round(round_number, event=event_ref(event)))
    _print_check(checked, as_json)
    if checked.check is not None and checked.check.failed:
        raise typer.Exit(1)


@app.command("publish")
def publish_command(
    round_number: int | None = typer.Option(None, "--round", help="Default: the latest."),
    override: str = typer.Option(
        "",
        "--override",
        help="Publish although the check fails; the reason goes to the log with the "
        "checker's message.",
    ),
    as_json: bool = typer.Option(False, "--json", help="As 'ball round check --json'."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Publish a round to the players after checking its pairing again; a failed check
    refuses (with the checker's message) unless --override gives the reason."""
    svc = service(db)
    with _working("Checking the pairing"):
        checked = run(
            lambda: svc.checks.publish_round(
                round_number, override=override, event=event_ref(event)
            )
        )
    _print_check(checked, as_json)


def _print_check(checked: RoundCheck, as_json: bool) -> None:
    if as_json:
        out = {"round": checked.round, "published": checked.published}
        typer.echo(json.dumps({**out, "check": _check_json(checked)}, ensure_ascii=False))
    else:
        typer.echo(_check_text(checked))


CARD = typer.Option(
    [], "--card", help="A card as drawn at the venue: NAME=CARD (3R, 3B or K); repeat per entrant."
)


@app.command("draw")
def draw_command(
    event_arg: str | None = typer.Argument(None, metavar="[EVENT]", help="Event id or name."),
    seed: int | None = typer.Option(
        None, "--seed", help="Draw here from this seed (default: a fresh seed, printed)."
    ),
    card: list[str] = CARD,
    cards: str | None = typer.Option(
        None,
        "--cards",
        help='The whole draw from a file (- = stdin): JSON {"NAME": "3R", ...} or CSV lines '
        "NAME,CARD.",
    ),
    as_json: bool = typer.Option(False, "--json", help='{"round", "seed", "cards", "tables"}'),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Pair the next knockout round by a drawing of lots: equal numbers meet (the red card
    takes the first colour), the K card has the bye. Enter the cards drawn at the venue
    (--card or --cards) or let the desk draw from a seed; either way the log keeps a record
    that replays the draw."""
    if event_arg and event and event_arg != event:
        fail(f"the event is given twice: {event_arg!r} and --event {event!r}")
    drawn = _drawn_cards(card, cards)
    if drawn is not None and seed is not None:
        fail("give either the cards drawn (--card/--cards) or --seed, not both")
    svc = service(db)
    ref = event_ref(event_arg or event)
    out = run(lambda: svc.knockout.draw_round(seed=seed, cards=drawn, event=ref))
    if as_json:
        tables = [t.as_dict() for t in out["tables"]]
        typer.echo(json.dumps({**out, "tables": tables}, ensure_ascii=False))
        return
    how = f"seed {out['seed']}" if out["seed"] is not None else "cards as drawn"
    typer.echo(f"round {out['round']} drawn ({how})")
    for name, drawn_card in out["cards"].items():
        typer.echo(f"  {drawn_card:>3}  {name}")
    _print_tables(out["tables"], False)


def _drawn_cards(card: list[str], path: str | None) -> dict[str, str] | None:
    """NAME=CARD options, or a JSON/CSV file of them; None when no card was given."""
    if card and path:
        fail("give the cards with --card or with --cards FILE, not both")
    if path is not None:
        return _cards_file(read_text(path), path)
    if not card:
        return None
    out: dict[str, str] = {}
    for text in card:
        name, sep, value = text.rpartition("=")
        if not sep or not name.strip() or not value.strip():
            fail(f"--card {text!r}: write NAME=CARD, e.g. 'Ann=3R'")
        if name.strip() in out:
            fail(f"--card: {name.strip()!r} is given twice")
        out[name.strip()] = value.strip()
    return out


def _cards_file(text: str, path: str) -> dict[str, str]:
    if text.lstrip().startswith("{"):
        data = parse_json(text, path)
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            fail(f'{path}: write the draw as {{"NAME": "CARD", ...}}')
        return dict(data)
    out: dict[str, str] = {}
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2:
            fail(f"{path} line {number}: write NAME,CARD")
        name, value = row[0].strip(), row[1].strip()
        if name in out:
            fail(f"{path} line {number}: {name!r} is listed twice")
        out[name] = value
    return out
