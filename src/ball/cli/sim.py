"""`ball sim run`: self-play at scale for rule designers, with a progress bar."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from ball.ai import agent_name
from ball.engine import RulesetError, load_ruleset
from ball.sim import SimConfig, run

from .common import fail

app = typer.Typer(help="Self-play simulation to study the regulation.", no_args_is_help=True)


@app.command("run")
def run_cmd(
    matches: Annotated[int, typer.Option(help="Number of matches to play.")] = 100,
    agent_a: Annotated[
        str, typer.Option("--agent-a", "--a", help="Coach A's agent (or easy|medium|hard).")
    ] = "greedy",
    agent_b: Annotated[
        str, typer.Option("--agent-b", "--b", help="Coach B's agent (or easy|medium|hard).")
    ] = "greedy",
    half_turns: Annotated[int, typer.Option(help="Turn cap per half (stands for the timer).")] = 40,
    ruleset: Annotated[str, typer.Option(help="Ruleset name or TOML file.")] = "standard",
    seed: Annotated[int, typer.Option(help="Seed; the same seed replays the same matches.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
):
    """Play MATCHES self-play matches and print who won, why, PB and steal figures."""
    try:  # a level alias (`hard`) names its MCTS agent (`mcts-hard`)
        agent_a, agent_b = agent_name(agent_a), agent_name(agent_b)
    except ValueError as exc:
        fail(str(exc))
    if matches < 1 or half_turns < 1 or jobs < 1:
        fail("--matches, --half-turns and --jobs must be at least 1")
    try:
        load_ruleset(ruleset)
    except RulesetError as exc:
        fail(str(exc))
    config = SimConfig(matches, agent_a, agent_b, half_turns, ruleset, seed, jobs)
    console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True, disable=as_json,
    ) as bar:  # fmt: skip
        task = bar.add_task("self-play", total=matches)
        summary = run(config, progress=lambda n: bar.advance(task, n))
    if as_json:
        typer.echo(json.dumps(summary.as_dict(), indent=2))
        return
    table = Table(title=f"{matches} matches, {agent_a} (A) vs {agent_b} (B), {ruleset}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key in ("A", "B", "draw"):
        table.add_row(f"wins {key}", str(summary.wins[key]))
    for reason, count in summary.reasons.items():
        table.add_row(f"decided by {reason}", str(count))
    table.add_row("touchdowns per half", f"{summary.halves_with_td:.2f}")
    table.add_row("PB per half", f"{summary.mean_pb_per_half:.1f}")
    rate = summary.td_per_20_pb
    table.add_row("TD per 20 PB", "-" if rate is None else f"{rate:.2f}")
    for kind, count in sorted(summary.steals.items()):
        table.add_row(f"steals answered {kind}", str(count))
    table.add_row("actions per match", f"{summary.mean_actions:.0f}")
    Console().print(table)
