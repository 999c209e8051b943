"""`ball standings`: ranking by points and the event's tie-break chain."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ball.cli.common import fail, read_text
from ball.cli.tournament_common import DB, EVENT, event_ref, own_commands, run, service

if TYPE_CHECKING:  # the tournament package is imported when a command needs it
    from ball.tournament.whatif import Assumed, Hypothesis


def standings_command(
    as_json: bool = typer.Option(
        False, "--json", help='[{"rank", "name", "points", "tiebreaks": {...}}]'
    ),
    upto: int | None = typer.Option(None, "--round", help="Standings after this round."),
    what_if: list[str] = typer.Option(
        [],
        "--what-if",
        help="ROUND:TABLE=RESULT: rank as if that table had that result (1-0, 0-1, 1/2, "
        "+-, -+, -- or a sheet file, as `result enter` takes it); repeat for several "
        "tables. Nothing is stored.",
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Standings with tie-breaks (the tie-break rule version is printed on top)."""
    hypotheses = [_hypothesis(text) for text in what_if]  # bad text: refused before any read
    svc = service(db)
    own = own_commands(svc, event)
    if own is not None:  # table points, then score; teams
        if hypotheses:
            fail("--what-if: Mahjong standings are by table points, not results of tables")
        if upto is not None:
            fail("--round: Mahjong standings are after every session entered")
        own.standings(svc, event, as_json)
        return
    assumed: list[Assumed] = []
    if hypotheses:
        data, assumed = run(
            lambda: svc.what_if.what_if_standings(hypotheses, event=event_ref(event), upto=upto)
        )
    else:
        data = run(lambda: svc.ranking.standings(event=event_ref(event), upto=upto))
    rows = data.standings
    if as_json:
        individual = [
            {
                "rank": r.rank,
                "name": r.name,
                "points": r.points,
                "tiebreaks": r.tiebreaks,
                # A knockout of mini-matches: each tie the entrant played.
                **({"ties": r.ties} if r.ties is not None else {}),
                **_withdrawal(data.withdrawals, r.name),
            }
            for r in rows
        ] + _cancelled(data.withdrawals, {r.name for r in rows})
        # A team event: an object, the players' ranking beside the `teams` section.
        shown: object = (
            {"standings": individual, "teams": data.teams} if data.teams is not None else individual
        )
        if data.groups is not None:  # a groups event: each group's table and the final's
            shown = {**(shown if isinstance(shown, dict) else {"standings": individual}),
                     "groups": data.groups}  # fmt: skip
        typer.echo(json.dumps(shown, ensure_ascii=False))
        return
    for a in assumed:  # the hypotheses first: what follows is not the stored standings
        typer.echo(f"what if {a.describe()} (not stored)")
    typer.echo(f"{data.event} after round {data.rounds}")
    if data.in_progress is not None:  # paired, a table without a result: not counted yet
        typer.echo(f"round {data.in_progress} is being played: not counted until every "
                   "table has a result")  # fmt: skip
    typer.echo(f"Tie-breaks: {', '.join(data.tiebreaks)} — {data.rules}")
    for r in rows:
        tbs = "  ".join("-" if v is None else f"{v:g}" for v in r.tiebreaks.values())
        typer.echo(f"{r.rank:>4}  {r.name:<30} {r.points:>5g}  {tbs}")
    for t in (data.teams or {}).get("standings", []):
        typer.echo(f"team {t['rank']:>3}  {t['team']:<30} {t['match_points']:>3} MP "
                   f"{t['game_points']:>5g} GP")  # fmt: skip
    _print_groups(data.groups)
    for w in data.withdrawals or []:
        typer.echo(f"withdrawn after round {w['after_round']}: {w['name']} — article "
                   f"{w['article']}: {w['reason']}")  # fmt: skip


def _hypothesis(text: str) -> Hypothesis:
    """One --what-if: ROUND:TABLE= a short result or a score sheet file."""
    from ball.tournament import TournamentError, whatif

    try:
        rnd, table, result = whatif.split_spec(text)
    except TournamentError as exc:
        fail(str(exc))
    if whatif.is_short(result):
        return whatif.Hypothesis(rnd, table, short=result.strip())
    if result != "-" and not Path(result).is_file():
        fail(f"what-if {text!r}: {result!r} is neither a result ({whatif.SHORT_HELP}) "
             "nor a sheet file")  # fmt: skip
    try:
        sheet = json.loads(read_text(result))
    except json.JSONDecodeError as exc:
        fail(f"what-if {text!r}: illegal sheet: {result} is not JSON ({exc})")
    return whatif.Hypothesis(rnd, table, sheet=sheet)


def _withdrawal(withdrawals: list[dict[str, Any]] | None, name: str) -> dict[str, Any]:
    """A withdrawn entrant's row says which ruling of article 20 applies."""
    for w in withdrawals or []:
        if w["name"] == name:
            return {"withdrawal": {k: v for k, v in w.items() if k != "name"}}
    return {}


def _cancelled(
    withdrawals: list[dict[str, Any]] | None, ranked: set[str]
) -> list[dict[str, Any]]:
    """Entrants whose results 20.3 cancelled: listed after the ranking, without a rank."""
    return [
        {"rank": None, "name": w["name"], "points": None, "tiebreaks": {},
         "withdrawal": {k: v for k, v in w.items() if k != "name"}}
        for w in withdrawals or []
        if w["name"] not in ranked and w["action"] == "cancel-results"
    ]  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("standings")(standings_command)


def _print_groups(section: dict[str, Any] | None) -> None:
    """A groups event: each group's table (`*` marks a qualifier), then the final's."""
    if section is None:
        return
    for g in section["groups"]:
        typer.echo(f"group {g['group']}")
        for r in g["standings"]:
            mark = "*" if r["qualified"] else " "
            typer.echo(f"{r['rank']:>4}{mark} {r['name']:<30} {r['points']:>5g}")
    final = section["final"]
    if final is not None:
        typer.echo(f"final ({final['system']}{', carried' if final['carry'] else ''})")
        for r in final["standings"]:
            typer.echo(f"{r['rank']:>4}  {r['name']:<30} {r['points']:>5g}")
