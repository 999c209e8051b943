"""`ball mahjong …`: score one MCR winning hand, build and check Mahjong seatings.

The command-line contracts of issue 18 (kept exactly; outside scripts check them):
`ball mahjong fan HAND.json` prints `{"fan", "valid", "fans"}`; `ball mahjong seat --players N
--sessions S [--teams FILE] [--seed K] --json` prints `{"sessions": [[[E, S, W, N], ...], ...]}`.
Bad input is one line on standard error and exit 2 (numbers are read here, not by Typer, so
that a bad number is one line too).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ball.cli.common import fail, parse_json, read_text

app = typer.Typer(help="Mahjong (MCR): hand scoring and seatings.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Mahjong (MCR): hand scoring and seatings."""


def _whole(value: str | None, option: str, low: int, high: int | None = None) -> int:
    if value is None:
        fail(f"{option} is required")
    try:
        number = int(value)
    except ValueError:
        fail(f"{option}: {value!r} is not a whole number")
    if number < low or (high is not None and number > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        fail(f"{option}: must be {bounds}, not {number}")
    return number


@app.command("fan")
def fan_command(
    hand: Annotated[str, typer.Argument(help="The winning hand (JSON file, or - for stdin).")],
    minimum: Annotated[
        str | None, typer.Option(help="The event's minimum fan (MCR and the WMC: 8).")
    ] = None,
) -> None:
    """Score one winning hand: its fans (PyMahjongGB) and whether it reaches the minimum."""
    from ball.games.mahjong.engine.fan import DEFAULT_MINIMUM, NotAWin, score
    from ball.games.mahjong.engine.hand import HandError, parse_hand

    least = DEFAULT_MINIMUM if minimum is None else _whole(minimum, "--minimum", 0, 1000)
    doc = parse_json(read_text(hand), hand)
    try:
        result = score(parse_hand(doc), least)
    except HandError as exc:
        fail(f"{hand}: {exc}")
    except NotAWin as exc:
        fail(f"{hand}: not a winning hand: {exc}")
    typer.echo(json.dumps(result.to_json(), ensure_ascii=False))


def _teams(path: str | None, players: int) -> dict[int, str] | None:
    from ball.games.mahjong.engine.seating import SeatingError, teams_from_csv

    if path is None:
        return None
    try:
        return teams_from_csv(read_text(path), players)
    except SeatingError as exc:
        fail(f"{path}: {exc}")


@app.command("seat")
def seat_command(
    players: Annotated[str | None, typer.Option(help="Players (a multiple of 4).")] = None,
    sessions: Annotated[str | None, typer.Option(help="Number of sessions.")] = None,
    teams: Annotated[
        str | None, typer.Option(help="CSV `player,team`: team-mates never share a table.")
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed; the same seed, the same seating.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (default: CSV).")] = False,
) -> None:
    """Build a balanced seating: no two players meet twice where that is possible, team-mates
    apart, winds even. Players are numbered 1..N; tables list east, south, west, north."""
    from ball.games.mahjong.engine.seating import (
        MAX_PLAYERS,
        MAX_SESSIONS,
        SeatingError,
        balanced,
        to_csv,
    )

    n = _whole(players, "--players", 4, MAX_PLAYERS)
    s = _whole(sessions, "--sessions", 1, MAX_SESSIONS)
    k = 0 if seed is None else _whole(seed, "--seed", 0, 2**63)
    try:
        seating = balanced(n, s, _teams(teams, n), seed=k)
    except SeatingError as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps({"sessions": [[list(t) for t in ses] for ses in seating]}))
    else:
        typer.echo(to_csv(seating), nl=False)


@app.command("check")
def check_command(
    seating: Annotated[str, typer.Argument(help="Seating CSV `session,table,E,S,W,N`, or -.")],
    teams: Annotated[str | None, typer.Option(help="CSV `player,team` to check.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check a seating: every player once a session; repeat meetings, wind counts, team
    clashes."""
    from ball.games.mahjong.engine.seating import SeatingError, from_csv, report

    try:
        parsed = from_csv(read_text(seating))
        found = report(parsed, _teams(teams, sum(len(t) for t in parsed[0])))
    except SeatingError as exc:
        fail(f"{seating}: {exc}")
    if as_json:
        typer.echo(json.dumps(found.to_json()))
        return
    typer.echo(f"players {found.players}, sessions {found.sessions}")
    typer.echo(f"repeat meetings {found.repeats} (least possible {found.repeat_bound})")
    typer.echo("repeats made per session " + " ".join(map(str, found.repeats_per_session)))
    low, high = found.wind_spread
    typer.echo(f"each player sat each wind {low} to {high} times")
    typer.echo(f"team clashes {len(found.team_clashes)}")
