"""`ball result …`: enter or correct the result of a table."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, own_commands, run, service
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


LATE = typer.Option(
    [],
    "--late",
    help="Articles 21-22: A|B|both[:MINUTES] late (no minutes: never came); past the "
    "event's default time the game is lost by forfeit (repeat for each side).",
)


def _late(texts: list[str]) -> dict[str, int | None] | None:
    from ball.tournament import TournamentError, lateness

    try:
        return lateness.parse(texts) or None
    except TournamentError as exc:
        fail(str(exc))


def _arrivals_and_result(
    late: list[str], sheet: str | None, forfeit: str | None, double_forfeit: bool, game: int | None
) -> tuple[dict[str, int | None] | None, dict]:
    """The --late arrivals (None: nobody late) and the result the command line gives. With
    --late the ruling decides any forfeit, so only a played game's sheet may come with it."""
    arrivals = _late(late)
    if arrivals is None:
        return None, _result_args(sheet, forfeit, double_forfeit)
    if forfeit is not None or double_forfeit:
        fail("--late decides the forfeit itself; give no --forfeit or --double-forfeit")
    if game is not None:
        fail("--late: the lateness of a mini-match game is not recorded yet")
    return arrivals, _result_args(sheet, None, False) if sheet is not None else {}


def _late_line(svc, event: str | None, round_number: int, table: int) -> str:
    """The ruling just logged for the table (it names the articles)."""
    lines = run(lambda: svc.arbiter.log(event=event_ref(event)))
    found = [x for x in lines if x.kind == "lateness" and x.round == round_number
             and x.table == table]  # fmt: skip
    return found[-1].detail if found else ""


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
    round_number: int | None = typer.Option(None, "--round"),
    table: int | None = typer.Option(None, "--table"),
    sheet: str | None = typer.Option(None, "--sheet", help="Score sheet JSON file (- = stdin)."),
    forfeit: str | None = typer.Option(None, "--forfeit", help="Coach who forfeits: A or B."),
    double_forfeit: bool = typer.Option(False, "--double-forfeit"),
    steal: list[str] = STEAL,
    sanction: list[str] = SANCTION,
    game: int | None = typer.Option(
        None, "--game", help="Knockout mini-match: the game of the tie (1, 2, ...; the next one)."
    ),
    late: list[str] = LATE,
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Enter the result of one table, with its steals and sanctions, in one step (once:
    a second entry for the same table is refused with exit 2 and stores nothing, even when
    it repeats the first; corrections go through `result correct`).
    In a knockout whose ties are mini-matches, enter each game with --game K: coach A
    (and --forfeit A) is the coach with the first colour in that game. A Mahjong table
    takes a session sheet (--sheet SESSION.json; its "table", the latest session).
    With --late (articles 21-22) the sheet is given when the game was played, and nothing
    else when a side came past the default time (the forfeit follows from the ruling)."""
    arrivals, args = _arrivals_and_result(late, sheet, forfeit, double_forfeit, game)
    steals, sanctions = _steals(steal), _sanctions(sanction)
    svc = service(db)
    own = _own_commands(svc, event, args, steals or sanctions, game)
    if own is not None:
        own.enter(svc, event, args["sheet"], round_number, table)
        return
    if round_number is None or table is None:
        fail("--round and --table are required")
    if game is not None:
        if steals or sanctions:
            fail("--game: steals and sanctions of a mini-match game are not recorded yet")
        ref = event_ref(event)
        t = run(lambda: svc.knockout.record_tie_game(round_number, table, game, event=ref, **args))
        typer.echo(_describe_game(t, game))
        return
    done = run(
        lambda: svc.results.record_table_result(
            round_number, table, steals=steals, sanctions=sanctions, event=event_ref(event),
            late=arrivals, **args,
        )
    )  # fmt: skip
    typer.echo(_describe(done.table))
    if arrivals is not None:
        typer.echo(f"lateness: {_late_line(svc, event, round_number, table)}")


@app.command("correct")
def correct_command(
    round_number: int | None = typer.Option(None, "--round"),
    table: int | None = typer.Option(None, "--table"),
    reason: str = typer.Option(..., "--reason", help="Why the result changes (kept)."),
    sheet: str | None = typer.Option(None, "--sheet"),
    forfeit: str | None = typer.Option(None, "--forfeit"),
    double_forfeit: bool = typer.Option(False, "--double-forfeit"),
    steal: list[str] = STEAL,
    sanction: list[str] = SANCTION,
    game: int | None = typer.Option(None, "--game", help="Knockout mini-match: the game."),
    late: list[str] = LATE,
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Replace an entered result; the old result and the reason are kept. With --late
    (articles 21-22) the lateness is ruled on again, as `result enter --late` does, and the
    new ruling is logged."""
    if not reason.strip():
        fail("--reason: a correction needs a reason")
    arrivals, args = _arrivals_and_result(late, sheet, forfeit, double_forfeit, game)
    steals, sanctions = _steals(steal), _sanctions(sanction)
    svc = service(db)
    own = _own_commands(svc, event, args, steals or sanctions, game)
    if own is not None:
        own.enter(svc, event, args["sheet"], round_number, table, reason=reason)
        return
    if round_number is None or table is None:
        fail("--round and --table are required")
    if game is not None:
        if steals or sanctions:
            fail("--game: steals and sanctions of a mini-match game are not recorded yet")
        ref = event_ref(event)
        t = run(
            lambda: svc.knockout.correct_tie_game(
                round_number, table, game, reason=reason, event=ref, **args
            )
        )
        typer.echo(_describe_game(t, game))
        return
    done = run(
        lambda: svc.results.record_table_result(
            round_number, table, reason=reason, must_exist=True, steals=steals,
            sanctions=sanctions, event=event_ref(event), late=arrivals, **args,
        )
    )  # fmt: skip
    typer.echo(_describe(done.table))
    if arrivals is not None:
        typer.echo(f"lateness: {_late_line(svc, event, round_number, table)}")


def _own_commands(svc, event, args: dict, extras, game):
    """The game's own result commands when the event's game has them (a Mahjong table
    takes session sheets only), else None."""
    own = own_commands(svc, event)
    if own is not None and ("sheet" not in args or extras or game is not None):
        fail("a Mahjong table takes a session sheet only (--sheet SESSION.json)")
    return own


def _describe_game(t: dict, game: int) -> str:
    tie = t["tie"]
    score = f"{tie['points']['A']:g}-{tie['points']['B']:g}"
    if tie["level_after_games"]:
        score += f", extra games {tie['extra_points']['A']:g}-{tie['extra_points']['B']:g}"
    head = f"table {t['table']} game {game}: {t['a']} - {t['b']} {score}"
    if tie["winner"] is not None:
        return f"{head}: {tie['winner']} goes through ({tie['how']})"
    if tie["phase"] == "lots":
        return f"{head}: level, a drawing of lots decides (ball result lots)"
    return f"{head}: game {tie['next_game']} next, {tie['next_first']} has the first colour"


@app.command("lots")
def lots_command(
    round_number: int = typer.Option(..., "--round"),
    table: int = typer.Option(..., "--table"),
    winner: str | None = typer.Option(None, "--winner", help="Who won the lots at the venue."),
    seed: int | None = typer.Option(
        None, "--seed", help="Draw here from this seed (default: a fresh seed, printed)."
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Decide by a drawing of lots (logged) a mini-match still level after its extra games,
    or a one-game knockout match drawn after its last replay (article 6)."""
    if winner is not None and seed is not None:
        fail("give either --winner or --seed, not both")
    svc = service(db)
    t = run(
        lambda: svc.knockout.draw_tie_lots(
            round_number, table, seed=seed, winner=winner, event=event_ref(event)
        )
    )
    # A mini-match tie answers with its table; a one-game match with the lots alone.
    lots = t["tie"]["lots"] if "tie" in t else t
    won = t["tie"]["winner"] if "tie" in t else t["winner"]
    how = f"seed {lots['seed']}" if lots["seed"] is not None else "drawn at the venue"
    typer.echo(f"table {t['table']}: {won} wins the drawing of lots ({how})")
