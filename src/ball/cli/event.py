"""`ball event …`: create an event, register and withdraw entrants, import a TRF."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from ball.cli import event_file
from ball.cli.common import fail, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service

if TYPE_CHECKING:  # the CLI imports the tournament only when a command runs
    from ball.tournament.outcomes import LogLine

app = typer.Typer(help="Tournament events and their entrants.", no_args_is_help=True)
import_app = typer.Typer(
    cls=event_file.ImportGroup,
    help="Import an event: 'ball event import FILE' reads an event file (from 'ball event "
    "export'), 'ball event import trf FILE' a TRF.",
    no_args_is_help=True,
)
app.add_typer(import_app, name="import")


@app.callback()
def _group() -> None:
    """Tournament events and their entrants."""


@app.command("create")
def create_command(
    name: str = typer.Option(..., "--name", help="Event name."),
    system: str | None = typer.Option(
        None, "--system", help="round-robin | double-round-robin | swiss | knockout | groups"
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
        None,
        "--scoring",
        help='A named system (2-1-0, 1-0.5-0, 3-1-0) or JSON, e.g. {"win": 3, "draw": 1}.',
    ),
    tiebreak_rules: str | None = typer.Option(
        None,
        "--tiebreak-rules",
        help="fide-2024 | fide-2026 (default: the rules in force on the start date).",
    ),
    replays: int = typer.Option(1, "--replays", help="Knockout: replays of a drawn match."),
    game_name: str = typer.Option("ball", "--game", help="The game the event plays."),
    games_per_tie: int = typer.Option(
        1, "--games-per-tie", help="Knockout: games of each tie, a mini-match (default 1)."
    ),
    extra_games: int = typer.Option(
        0, "--extra-games", help="Knockout: extra games of a tie level after its games."
    ),
    tie_break: str = typer.Option(
        "lots", "--tie-break", help="Knockout: a tie still level goes to lots | armageddon."
    ),
    teams: int | None = typer.Option(
        None, "--teams", help="A team event: boards per team match (teams via 'ball team add')."
    ),
    team_ranking: str | None = typer.Option(
        None,
        "--team-ranking",
        help="Team event: 15.3 | 15.4 | 15.5 (sum of individual ranks); default 15.3 for a "
        "round robin, 15.4 for a Swiss.",
    ),
    groups: int | None = typer.Option(
        None, "--groups", help="--system groups: the number of groups (snake-seeded by rating)."
    ),
    group_cycles: int = typer.Option(
        1, "--group-cycles", help="--system groups: 1 (single) or 2 (double) round robin."
    ),
    final: str | None = typer.Option(
        None, "--final", help="--system groups: the final, knockout (default) | round-robin."
    ),
    qualifiers: int | None = typer.Option(
        None, "--qualifiers", help="--system groups: the top K of each group go on (default 2)."
    ),
    carry: bool = typer.Option(
        False, "--carry", help="--system groups: a round-robin final keeps the group games."
    ),
    default_time: int | None = typer.Option(
        None, "--default-time", help="Minutes late a player may arrive before losing (21.1)."
    ),
    sessions: int | None = typer.Option(None, "--sessions", help="Mahjong: sessions."),
    hands_per_session: int = typer.Option(
        16, "--hands-per-session", help="Mahjong: hands in a session (default 16)."
    ),
    method: str | None = typer.Option(
        None, "--method", help="Mahjong: later sessions seated by ranking | balanced (default)."
    ),
    db: str | None = DB,
) -> None:
    """Create an event (a Mahjong event: --game mahjong --sessions N, no --system)."""
    from ball.cli.common import fail
    from ball.cli.tournament_common import own_commands_of_game

    own = own_commands_of_game(game_name)
    if own is not None:  # sessions of tables of four, not a system
        if system is not None:
            fail("--system: a Mahjong event is played in sessions; give --sessions N instead")
        own.create(
            service(db, create=True), name=name, sessions=sessions, hands=hands_per_session,
            method=method, seed=draw_lots, date_start=date_start, place=place, arbiter=arbiter,
        )  # fmt: skip
        return
    if system is None:
        fail("--system is required: round-robin | double-round-robin | swiss | knockout")
    if sessions is not None or method is not None:
        fail("--sessions and --method are for a Mahjong event (--game mahjong)")

    score = None
    if scoring and not scoring.lstrip().startswith("{"):
        from ball.tournament import TournamentError
        from ball.tournament.scoring import named

        try:
            score = named(scoring)  # a named system: 2-1-0, 1-0.5-0, 3-1-0
        except TournamentError as exc:
            fail(f"--scoring: {exc}")
    elif scoring:
        try:
            score = json.loads(scoring)
        except json.JSONDecodeError as exc:
            fail(f"--scoring is not JSON: {exc}")
        if not isinstance(score, dict):
            fail("--scoring must be a JSON object")
    svc = service(db, create=True)
    info = run(
        lambda: svc.events.create_event(
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
            game_name=game_name,
            games_per_tie=games_per_tie,
            tie_extra_games=extra_games,
            tie_break=tie_break,
            teams=teams,
            team_ranking=team_ranking,
            groups=_group_setup(groups, group_cycles, final, qualifiers, carry),
            default_time=default_time,
        )
    )
    typer.echo(f"event {info.id}: {info.name} ({info.system})")
    from ball.cli import recovery

    recovery.issue(svc, info.id)


def _group_setup(
    groups: int | None, cycles: int, final: str | None, qualifiers: int | None, carry: bool
) -> Any:
    """The groups setup of `--system groups` (None without --groups)."""
    from ball.tournament.groups import Setup

    if groups is None:
        if final is not None or qualifiers is not None or carry or cycles != 1:
            fail("--final, --qualifiers, --carry and --group-cycles need --groups G")
        return None
    return Setup(
        groups, cycles, final or "knockout", 2 if qualifiers is None else qualifiers, carry
    )


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
        lambda: svc.entrants.add_player(
            name, rating=rating, club=club, federation=federation, event=event_ref(event)
        )
    )
    typer.echo(f"{info.number}\t{info.name}")


@app.command("withdraw")
def withdraw_command(
    name: str = typer.Argument(...),
    reason: str = typer.Option("", "--reason"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Withdraw an entrant from the rounds not yet paired."""
    svc = service(db)
    run(lambda: svc.entrants.withdraw(name, reason=reason, event=event_ref(event)))
    typer.echo(f"{name} withdrawn")
    ruling = run(lambda: svc.entrants.withdrawal_ruling(name, event=event_ref(event)))
    typer.echo(f"article {ruling['article']}: {ruling['reason']}")


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
    run(lambda: svc.entrants.request_bye(name, round_number, kind, event=event_ref(event)))
    typer.echo(f"{name}: {kind}-point bye in round {round_number}")


@app.command("show")
def show_command(
    as_json: bool = typer.Option(False, "--json"),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Show the event, its settings and entrants."""
    svc = service(db)
    info = run(lambda: svc.events.event_info(event=event_ref(event)))
    if as_json:
        typer.echo(json.dumps(info.as_dict(), ensure_ascii=False))
        return
    typer.echo(f"{info.name} ({info.system}, {info.rounds or '?'} rounds)")
    for e in info.entrants:
        typer.echo(f"{e.number:>4}  {e.name}  {e.rating or ''}  {e.status}")


@app.command("log")
def log_command(
    kind: str | None = typer.Argument(
        None, help="sanction | signal | half-end | note ... (none: show the log)"
    ),
    detail: str = typer.Argument(
        "", help="sanction: the reason (or 'STEP: REASON'); signal: 1 or 2; note: the text."
    ),
    name: str | None = typer.Option(None, "--player", help="The entrant (sanction)."),
    round_number: int | None = typer.Option(None, "--round", help="Default: the latest."),
    table: int | None = typer.Option(None, "--table"),
    step: str | None = typer.Option(None, "--step", help="Sanction: a step of the ladder."),
    at: str | None = typer.Option(None, "--at", help="half-end: HH:MM[:SS] today (default now)."),
    as_json: bool = typer.Option(False, "--json", help="Showing the log: one JSON list."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Append to the arbiter's log. Sanctions, start signals and first-half ends go through
    the desk's checks (the ladder, the 10-minute gap before signal 2) and into its tables;
    any other kind is a free note. Without a kind: show the log (drawings of lots included,
    each with the record that replays it)."""
    svc = service(db)
    ref = event_ref(event)
    if kind is None:
        _show_log(run(lambda: svc.arbiter.log(event=ref)), as_json)
        return
    kind = kind.strip().lower()
    if kind == "sanction":
        step, reason = _sanction_step(detail, step, _event_ladder(svc, ref))
        if not name:
            fail("sanction: name the entrant with --player NAME")
        entry = run(
            lambda: svc.arbiter.give_sanction(
                step, reason, player=name, round_number=round_number, table=table, event=ref
            )
        )
        typer.echo(f"{name}: {entry.step}: {entry.reason}")
    elif kind == "signal":
        which = _signal_number(detail)
        given = run(lambda: svc.arbiter.give_signal(round_number, which, event=ref))
        typer.echo(f"signal {which} of round {given.round}")
    elif kind == "half-end":
        if table is None:
            fail("half-end: give the table with --table T")
        when = _today_at(at) if at else None
        row = run(lambda: svc.arbiter.record_half_end(round_number, table, at=when, event=ref))
        typer.echo(f"round {row.round} table {row.table}: first half ended")
    else:
        run(
            lambda: svc.arbiter.record(
                kind, detail, name=name, round_number=round_number, table=table, event=ref
            )
        )


def _show_log(entries: list[LogLine], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps([e.as_dict() for e in entries], ensure_ascii=False))
        return
    for e in entries:
        where = " ".join(
            f"{label} {value}" for label, value in (("round", e.round), ("table", e.table))
            if value is not None
        )  # fmt: skip
        who = f" {e.name}" if e.name else ""
        typer.echo(f"{e.kind}{who}{' (' + where + ')' if where else ''}: {e.detail}")


def _event_ladder(svc: Any, ref: Any) -> tuple[str, ...]:
    """The steps of the sanction ladder of the event's game (Xiangqi has its own, 18)."""
    from ball.games import game

    return game(run(lambda: svc.events.event_info(event=ref))["game"]).ladder.names


def _sanction_step(detail: str, step: str | None, ladder: tuple[str, ...]) -> tuple[str, str]:
    """(step, reason) from `--step STEP` and the reason, or from a detail 'STEP: REASON'."""
    if step is None:
        step, _, detail = detail.partition(":")
        step = step.strip()
    if step not in ladder:
        fail(
            f"sanction: step {step!r} is not on the ladder ({', '.join(ladder)}); "
            "give --step STEP and the reason"
        )
    return step, detail.strip()


def _signal_number(detail: str) -> int:
    text = detail.strip().lower().removeprefix("signal").strip()
    if text not in ("1", "2"):
        fail(f"signal: {detail!r} is not a signal; a round has signals 1 and 2")
    return int(text)


def _today_at(text: str) -> float:
    """HH:MM or HH:MM:SS today, local time."""
    import time

    parts = text.strip().split(":")
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        h, m, sec = (int(p) for p in parts + ["0"] * (3 - len(parts)))
        if not (0 <= h < 24 and 0 <= m < 60 and 0 <= sec < 60):
            raise ValueError
    except ValueError:
        fail(f"--at: {text!r} is not HH:MM or HH:MM:SS")
    day = time.localtime()
    return time.mktime((day.tm_year, day.tm_mon, day.tm_mday, h, m, sec, 0, 0, -1))


@import_app.command("trf")
def import_trf_command(
    path: str = typer.Argument(..., help="TRF-16 file, or - for standard input."),
    name: str | None = typer.Option(None, "--name", help="Event name (default: from the file)."),
    tiebreak_rules: str | None = typer.Option(
        None,
        "--tiebreak-rules",
        help="fide-2024 | fide-2026 (default: the rules in force on the file's start date).",
    ),
    game_name: str | None = typer.Option(
        None,
        "--game",
        help="The game the event played (default: the file's XXG record, else ball).",
    ),
    tiebreaks: str | None = typer.Option(
        None,
        "--tiebreaks",
        help="Comma-separated tie-break chain (default: the file's XXT, else per system).",
    ),
    db: str | None = DB,
) -> None:
    """Create an event from a FIDE TRF-16 file (as `ball export trf` writes it)."""
    text = read_text(path)
    chain = [t.strip() for t in tiebreaks.split(",") if t.strip()] if tiebreaks else None
    svc = service(db, create=True)
    info = run(
        lambda: svc.trf.import_trf(
            text, name=name, tiebreak_rules=tiebreak_rules, game_name=game_name, tiebreaks=chain
        )
    )
    typer.echo(f"event {info.id}: {info.name} ({info.system})")


# The whole event as one file (`ball.event_file`, docs/deploy.md): `ball event export` and
# `ball event import FILE` (the import group's default command).
app.command("export")(event_file.export_command)
import_app.command(event_file.FILE_COMMAND)(event_file.import_command)
