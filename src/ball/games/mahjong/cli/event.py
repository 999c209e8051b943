"""The Mahjong branches of the tournament commands (issue 18): `ball event create --game
mahjong`, `ball round pair|show`, `ball result enter|correct --sheet SESSION.json`,
`ball standings` and `ball export seating` on an event of tables of four. The commands
themselves stay in their modules; they hand a Mahjong event over to these functions
(`MahjongGame.event_commands` names this module)."""

from __future__ import annotations

import json
from typing import Any

import typer

from ball.cli.common import fail, read_text
from ball.cli.tournament_common import event_ref, run
from ball.games.mahjong.engine.winds import WINDS


def create(
    svc: Any,
    *,
    name: str,
    sessions: int | None,
    hands: int,
    method: str | None,
    seed: int | None,
    date_start: str,
    place: str,
    arbiter: str,
) -> None:
    if sessions is None:
        fail("--sessions: a Mahjong event needs its number of sessions")
    info = run(
        lambda: svc.sessions.create_mahjong_event(
            name=name, sessions=sessions, hands_per_session=hands, method=method or "balanced",
            seed=seed, date_start=date_start, place=place, arbiter=arbiter,
        )
    )  # fmt: skip
    typer.echo(
        f"event {info['id']}: {info['name']} (mahjong, {info['sessions']} sessions of "
        f"{info['hands_per_session']} hands)"
    )
    from ball.cli import recovery

    recovery.issue(svc, int(info["id"]))


def _print_tables(data: dict[str, Any]) -> None:
    typer.echo(f"session {data['session']}: {data['method']}")
    for t in data["tables"]:
        seats = "  ".join(f"{w} {t['seats'][w]}" for w in WINDS)
        points = ""
        if "scores" in t:
            points = "   " + "  ".join(
                f"{t['scores'][w]:+d} ({t['table_points'][w]})" for w in WINDS
            )
        typer.echo(f"{t['table']:>3}  {seats}{points}")


def pair(
    svc: Any, event: str | None, method: str | None, seating: str | None, as_json: bool
) -> None:
    template = read_text(seating) if seating is not None else None
    data = run(
        lambda: svc.sessions.seat_session(method=method, template=template, event=event_ref(event))
    )
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    _print_tables(data)
    r = data["report"]
    typer.echo(
        f"report: {r['repeats']} repeat meetings (least possible {r['repeat_bound']}), "
        f"this session {r['repeats_per_session'][-1]}; winds per player "
        f"{r['wind_spread'][0]}..{r['wind_spread'][1]}; team clashes {len(r['team_clashes'])}"
    )


def show(svc: Any, event: str | None, round_number: int | None, as_json: bool) -> None:
    data = run(lambda: svc.sessions.session_tables(round_number, event=event_ref(event)))
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    _print_tables(data)


def enter(
    svc: Any,
    event: str | None,
    sheet: Any,
    round_number: int | None,
    table: int | None,
    reason: str | None = None,
) -> None:
    ref = event_ref(event)
    if reason is None:
        data = run(
            lambda: svc.sessions.enter_session_sheet(
                sheet, round_number=round_number, table=table, event=ref
            )
        )
    else:
        data = run(
            lambda: svc.sessions.correct_session_sheet(
                sheet, reason=reason, round_number=round_number, table=table, event=ref
            )
        )
    scores = "  ".join(
        f"{w} {data['seats'][w]} {data['scores'][w]:+d} ({data['table_points'][w]})" for w in WINDS
    )
    typer.echo(f"session {data['session']} table {data['table']}: {scores}")


def standings(svc: Any, event: str | None, as_json: bool) -> None:
    data = run(lambda: svc.sessions.session_standings(event=event_ref(event)))
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(f"{data['event']} after {data['sessions']} sessions: table points, then score")
    for r in data["standings"]:
        typer.echo(f"{r['rank']:>4}  {r['name']:<30} {r['table_points_exact']:>6} {r['score']:>6}")
    for t in data.get("teams", []):
        typer.echo(
            f"team {t['rank']:>3}  {t['team']:<25} {t['table_points_exact']:>6} {t['score']:>6}"
        )


def export_seating(svc: Any, event: str | None, round_number: int | None) -> str:
    """`ball export seating`: the seating as CSV (one session, or all)."""
    return str(svc.sessions.export_seating(round_number, event=event_ref(event)))
