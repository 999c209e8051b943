"""`ball play`: a hot-seat game in the terminal that writes a .bgn record when it ends.

With `--vs LEVEL` (easy|medium|hard, or any agent name) the computer plays one coach
(`--computer`, default B) through `ball.games.ball.ai`; the human types the other coach's
actions."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ball.cli.common import fail
from ball.games.ball.ai import Agent, agent, agent_name
from ball.games.ball.engine import IllegalAction, RulesetError, load_ruleset
from ball.games.ball.engine.actions import to_text
from ball.games.ball.match.flow import COACHES, Match, MatchError, other
from ball.games.ball.match.record import write
from ball.games.ball.match.timing import SystemClock

COLUMNS = "ABCDEFGHIJKLM"
ROWS = 17
SIDE_STYLE = {"S": "bold cyan", "N": "bold magenta"}
HELP = (
    "Type an action in spec 18.1 notation (Tab completes the legal ones), or: "
    "'list' legal actions, 'final-drive' the half timer ran out (untimed games), "
    "'forfeit' the coach to answer gives up the match, 'help'."
)


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)


def play_command(
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Record file to write (default: ball-<date>-<time>.bgn)."
    ),
    ruleset: str = typer.Option("standard", "--ruleset", help="Ruleset name or TOML file."),
    coach_a: str = typer.Option("A", "--coach-a", help="Name of coach A."),
    coach_b: str = typer.Option("B", "--coach-b", help="Name of coach B."),
    atk_first: str = typer.Option("A", "--atk-first", help="Coach who is ATK in half 1."),
    event: str = typer.Option("Hot-seat game", "--event", help="[Event] tag of the record."),
    untimed: bool = typer.Option(
        False, "--untimed", help="No half timer, turn limit or release time."
    ),
    vs: str | None = typer.Option(
        None, "--vs", help="Play against the computer: easy, medium, hard or an agent name."
    ),
    computer: str = typer.Option("B", "--computer", help="Coach the computer plays (--vs)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the computer player (--vs)."),
) -> None:
    """Play BALL hot-seat in this terminal; the record is written when the match ends."""
    try:
        rs = load_ruleset(ruleset)
    except (RulesetError, OSError) as exc:
        fail(f"--ruleset {ruleset}: {exc}")
    if atk_first not in COACHES:
        fail(f"--atk-first must be A or B, not {atk_first!r}")
    opponent: tuple[str, Agent] | None = None
    if vs is not None:
        if computer not in COACHES:
            fail(f"--computer must be A or B, not {computer!r}")
        try:
            opponent = (computer, agent(agent_name(vs), seed))
        except ValueError as exc:
            fail(f"--vs: {exc}")
    started = datetime.now()
    path = out or Path(f"ball-{started:%Y%m%d-%H%M%S}.bgn")
    if path.exists():
        fail(f"{path}: already exists; choose another --out")
    match = Match(
        atk_first=atk_first,
        ruleset=rs,
        clock=None if untimed else SystemClock(),
        names={"A": coach_a, "B": coach_b},
    )
    console = Console(highlight=False)
    _HotSeat(match, console, opponent).run()
    tags = {"Event": event, "Site": "hot-seat", "Date": f"{started:%Y.%m.%d}"}
    try:
        path.write_text(write(match.record(tags)), encoding="utf-8")
    except OSError as exc:
        fail(f"{path}: cannot write the record ({exc})")
    console.print(Text(f"Record written to {path}"))
    typer.echo(json.dumps(match.decision().as_dict()))


class _HotSeat:
    def __init__(
        self, match: Match, console: Console, computer: tuple[str, Agent] | None = None
    ) -> None:
        self.match = match
        self.console = console
        self.computer = computer  # (coach, agent) when playing against the computer
        self._legal: list[str] = []
        self._completion_ready = False

    def run(self) -> None:
        self.console.print(HELP)
        while not self.match.is_over:
            self.match.tick()
            if self.match.half_over:
                self._between_halves()
                continue
            self._show()
            coach, by = self._who_answers()
            if self.computer is not None and coach == self.computer[0]:
                self._computer_plays(coach, by)
                continue
            line = self._ask(coach)
            if line is None:
                self.match.forfeit(coach, "left the game (input ended)")
                break
            self._handle(line.strip(), coach, by)

    def _computer_plays(self, coach: str, by: str | None) -> None:
        m = self.match
        assert self.computer is not None
        action = to_text(self.computer[1](m.game.state))
        side = m.half.side_of(coach)
        turn = f"{m.half.number}.{m.game.turn}"
        self.console.print(Text(f"{turn} {m.names[coach]} ({side}) > {action}"))
        m.play(action, by=by)

    def _between_halves(self) -> None:
        half = self.match.half
        self.console.print(f"[bold]Half {half.number} is over ({half.end}).[/bold]")
        if not self.match.is_over:
            self.match.next_half()
            self.console.print("Half 2 begins: ends change, the other coach starts as ATK.")

    def _who_answers(self) -> tuple[str, str | None]:
        m = self.match
        coach = m.half.coach_of(m.game.actor)
        if m.release_stage == "opponent":
            return other(coach), "opponent"
        return coach, None

    def _handle(self, line: str, coach: str, by: str | None) -> None:
        m = self.match
        if not line:
            return
        word = line.lower()
        if word in ("help", "?"):
            self.console.print(HELP)
        elif word == "list":
            self.console.print(Text(", ".join(m.game.legal_actions())))
        elif word == "forfeit":
            m.forfeit(coach, "gave up")
        elif word == "final-drive":
            try:
                m.expire_half_timer()
            except MatchError as exc:
                self.console.print(Text(str(exc), style="red"))
        else:
            try:
                m.play(line, by=by)
            except (IllegalAction, MatchError) as exc:
                self.console.print(Text(f"{line}: {exc}", style="red"))

    # ------------------------------------------------------------------ prompt

    def _ask(self, coach: str) -> str | None:
        m = self.match
        self._legal = m.game.legal_actions()
        name = m.names[coach]
        side = m.half.side_of(coach)
        prompt = f"{m.half.number}.{m.game.turn} {name} ({side}) > "
        if sys.stdin.isatty():
            self._enable_completion()
            try:
                return input(prompt)
            except EOFError:
                return None
        self.console.print(Text(prompt), end="")
        line = sys.stdin.readline()
        return None if line == "" else line

    def _enable_completion(self) -> None:
        if self._completion_ready:
            return
        try:
            import readline
        except ImportError:  # no line editing on this platform: plain input still works
            return
        readline.set_completer_delims("")
        readline.set_completer(self._complete)
        readline.parse_and_bind("tab: complete")
        self._completion_ready = True

    def _complete(self, text: str, state: int) -> str | None:
        words = [*self._legal, "list", "help", "forfeit", "final-drive"]
        found = [w for w in words if w.lower().startswith(text.lower())]
        return found[state] if state < len(found) else None

    # ------------------------------------------------------------------ board

    def _show(self) -> None:
        self.console.print(board_table(self.match.game.to_json()))
        self.console.print(self._status())

    def _status(self) -> Text:
        m = self.match
        g = m.game
        atk = m.half.coach_of(g.attack)
        parts = [
            f"half {m.half.number}  turn {g.turn}  phase {g.phase}  PA {g.pa}",
            f"ATK {m.names[atk]} ({g.attack})",
            "PB "
            + "  ".join(
                f"{m.names[m.half.coach_of(s)]} {g.pb[s]['atk']}/{g.pb[s]['def']}"
                for s in ("S", "N")
            ),
        ]
        left = m.elapsed()
        if left is not None:
            remaining = max(0, int(m.timing.half_seconds) - left)
            parts.append(f"time {remaining // 60}:{remaining % 60:02d}")
        if m.in_final_drive:
            parts.append("FINAL DRIVE")
        if m.release_stage == "opponent":
            parts.append("release time up: the opponent chooses")
        return Text("   ".join(parts))


def board_table(doc: dict) -> Table:
    """The board of a position document as a Rich table (row 17 at the top)."""
    cells: dict[str, Text] = {}
    order = {"top": 0, "active": 0, "down": 0, "bottom": 1}
    for piece in sorted(doc["pieces"], key=lambda p: order.get(p["state"], 0)):
        # side letter first (S/N), piece id lower-cased when knocked down or under a stack
        pid = piece["id"] if piece["state"] in ("active", "top") else piece["id"].lower()
        text = Text(piece["side"] + pid, style=SIDE_STYLE[piece["side"]])
        if doc["ball"].get("carrier") == f"{piece['side']}:{piece['id']}":
            text.append("*", style="bold yellow")
        if piece["at"] in cells:  # a stack: top/bottom
            text = Text.assemble(cells[piece["at"]], "/", text)
        cells[piece["at"]] = text
    if "at" in doc["ball"]:
        cells[doc["ball"]["at"]] = Text("()", style="bold yellow")
    table = Table(show_header=True, box=None, pad_edge=False, padding=(0, 1))
    table.add_column("")
    for letter in COLUMNS:
        table.add_column(letter, justify="center", min_width=4)
    for row in range(ROWS, 0, -1):
        values = []
        for col, letter in enumerate(COLUMNS):
            square = f"{letter}{row}"
            playable = (col + row - 1) % 2 == 0
            values.append(cells.get(square, Text("." if playable else " ", style="dim")))
        table.add_row(Text(str(row), style="dim"), *values)
    return table
