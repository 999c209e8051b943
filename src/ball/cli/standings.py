"""`ball standings`: ranking by points and the event's tie-break chain."""

from __future__ import annotations

import json

import typer

from ball.cli.common import fail
from ball.cli.tournament_common import DB, EVENT, event_ref, run, service


def standings_command(
    as_json: bool = typer.Option(
        False, "--json", help='[{"rank", "name", "points", "tiebreaks": {...}}]'
    ),
    upto: int | None = typer.Option(None, "--round", help="Standings after this round."),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """Standings with tie-breaks (the tie-break rule version is printed on top)."""
    svc = service(db)
    from ball.cli import mahjong_event

    if mahjong_event.is_mahjong(svc, event):  # table points, then score; teams
        if upto is not None:
            fail("--round: Mahjong standings are after every session entered")
        mahjong_event.standings(svc, event, as_json)
        return
    data = run(lambda: svc.standings(event=event_ref(event), upto=upto))
    rows = data["standings"]
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "rank": r["rank"],
                        "name": r["name"],
                        "points": r["points"],
                        "tiebreaks": r["tiebreaks"],
                        # A knockout of mini-matches: each tie the entrant played.
                        **({"ties": r["ties"]} if "ties" in r else {}),
                    }
                    for r in rows
                ],
                ensure_ascii=False,
            )
        )
        return
    typer.echo(f"{data['event']} after round {data['rounds']}")
    typer.echo(f"Tie-breaks: {', '.join(data['tiebreaks'])} — {data['rules']}")
    for r in rows:
        tbs = "  ".join("-" if v is None else f"{v:g}" for v in r["tiebreaks"].values())
        typer.echo(f"{r['rank']:>4}  {r['name']:<30} {r['points']:>5g}  {tbs}")


def register(app: typer.Typer) -> None:
    app.command("standings")(standings_command)
