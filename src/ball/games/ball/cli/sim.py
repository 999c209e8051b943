"""`ball sim run`: self-play at scale for rule designers, with a progress bar."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TimeElapsedColumn
from rich.progress import Task as BarTask
from rich.table import Table

from ball.cli.common import fail
from ball.games.ball.ai import agent_name
from ball.games.ball.engine import RulesetError, load_ruleset
from ball.games.ball.sim import BackendError, RunDirError, SimConfig, auto_batch_size, make_backend
from ball.games.ball.sim.rundir import config_of, read_manifest, run_in_dir

app = typer.Typer(help="Self-play simulation to study the regulation.", no_args_is_help=True)


class RateColumn(ProgressColumn):
    """Matches per second, measured by Rich over the last batches."""

    def render(self, task: BarTask) -> str:
        return f"{task.speed or 0:.1f} matches/s"


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
    backend: Annotated[str, typer.Option(help="Where batches run: process or ray.")] = "process",
    address: Annotated[str | None, typer.Option(help="Ray cluster (default: local).")] = None,
    out: Annotated[Path | None, typer.Option(help="Run directory; rerun to resume.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue this run directory.")] = None,
    batch_size: Annotated[int, typer.Option(help="Matches per task (0: auto, ≤1000).")] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
):  # fmt: skip
    """Play MATCHES self-play matches and print who won, why, PB and steal figures."""
    if resume is not None:
        try:
            manifest = read_manifest(resume)
        except RunDirError as exc:
            fail(str(exc))
        out, batch_size = resume, manifest["batch_size"]
        matches, agent_a, agent_b = manifest["matches"], manifest["agent_a"], manifest["agent_b"]
        half_turns, ruleset, seed = manifest["half_turns"], manifest["ruleset"], manifest["seed"]
    try:  # a level alias (`hard`) names its MCTS agent (`mcts-hard`)
        agent_a, agent_b = agent_name(agent_a), agent_name(agent_b)
    except ValueError as exc:
        fail(str(exc))
    if matches < 1 or half_turns < 1 or jobs < 1 or batch_size < 0:
        fail("--matches, --half-turns and --jobs must be at least 1, --batch-size at least 0")
    try:
        load_ruleset(ruleset)
    except RulesetError as exc:
        fail(str(exc))
    config = SimConfig(matches, agent_a, agent_b, half_turns, ruleset, seed, jobs)
    if resume is not None:
        config = config_of(manifest, jobs)
    try:
        runner = make_backend(backend, jobs, address)
    except BackendError as exc:
        fail(str(exc))
    console = Console(stderr=True)
    with tempfile.TemporaryDirectory(prefix="ball-sim-") as scratch, Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        RateColumn(), TimeElapsedColumn(), console=console, transient=True,
        disable=as_json or quiet,
    ) as bar:  # fmt: skip
        task = bar.add_task("self-play", total=matches)
        try:
            summary = run_in_dir(
                out or Path(scratch), config, runner, batch_size or auto_batch_size(matches, jobs),
                progress=lambda n: bar.advance(task, n),
            )  # fmt: skip
        except (RunDirError, BackendError) as exc:
            fail(str(exc))
    assert summary is not None  # no batch limit: every batch is stored
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


@app.command("compare")
def compare_cmd(
    ruleset: Annotated[list[str], typer.Option(help="Two rulesets: --ruleset A --ruleset B.")],
    matches: Annotated[int, typer.Option(help="Matches under each ruleset.")] = 100,
    agent_a: Annotated[str, typer.Option("--agent-a", help="Coach A's agent.")] = "greedy",
    agent_b: Annotated[str, typer.Option("--agent-b", help="Coach B's agent.")] = "greedy",
    half_turns: Annotated[int, typer.Option(help="Turn cap per half.")] = 40,
    seed: Annotated[int, typer.Option(help="Seed shared by both rulesets' matches.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
):
    """Play the same seeded matches under two rulesets; each statistic's difference (B - A)
    with a 95% confidence interval (paired design)."""
    from dataclasses import asdict

    from ball.games.ball.sim.compare import compare

    if len(ruleset) != 2:
        fail("give exactly two rulesets: --ruleset A --ruleset B")
    try:  # a level alias (`hard`) names its MCTS agent (`mcts-hard`)
        agent_a, agent_b = agent_name(agent_a), agent_name(agent_b)
    except ValueError as exc:
        fail(str(exc))
    if matches < 2 or half_turns < 1 or jobs < 1:
        fail("--matches must be at least 2, --half-turns and --jobs at least 1")
    for name in ruleset:
        try:
            load_ruleset(name)
        except RulesetError as exc:
            fail(str(exc))
    config = SimConfig(matches, agent_a, agent_b, half_turns, ruleset[0], seed, jobs)
    rows = compare(config, ruleset[0], ruleset[1])
    if as_json:
        typer.echo(json.dumps([asdict(r) for r in rows], indent=2))
        return
    table = Table(title=f"{matches} paired matches: {ruleset[1]} (B) - {ruleset[0]} (A)")
    for col in ("statistic", "A", "B", "B - A", "95% interval"):
        table.add_column(col, justify="left" if col == "statistic" else "right")
    for r in rows:
        interval = f"[{r.low:+.3f}, {r.high:+.3f}]"
        table.add_row(r.statistic, f"{r.mean_a:.3f}", f"{r.mean_b:.3f}", f"{r.diff:+.3f}", interval)
    Console().print(table)


@app.command("report")
def report_cmd(
    run: Annotated[Path, typer.Argument(help="A run directory made by 'ball sim run --out'.")],
    out: Annotated[Path | None, typer.Option(help="Folder for report.html and .pdf.")] = None,
    lang: Annotated[str, typer.Option(help="Language of the readings: en, ko or bg.")] = "en",
):  # fmt: skip
    """Write an HTML page and a PDF with plots of a run's results, each with a reading."""
    from ball.games.ball.sim.report import write_report
    from ball.i18n import LANGUAGES

    if lang not in LANGUAGES:
        fail(f"unknown --lang {lang!r}: choose one of {', '.join(LANGUAGES)}")
    try:
        html_path, pdf_path = write_report(run, out or run / "report", lang)
    except RunDirError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}")
    typer.echo(f"{html_path}\n{pdf_path}")
