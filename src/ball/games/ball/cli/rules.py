"""`ball rules …`: the engine on the command line (legal actions, apply, perft).

FILE is a position document (spec §18.2), `-` for standard input, or `--standard` for the
standard start. Bad documents and illegal actions exit with status 2 and one line.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ball.cli.common import fail, read_json
from ball.games.ball.engine import (
    Game,
    IllegalAction,
    InvalidPosition,
    RulesetError,
    load_ruleset,
    perft,
)

app = typer.Typer(
    help="The rules engine: legal actions, applying actions, perft.", no_args_is_help=True
)

FileArg = Annotated[str | None, typer.Argument(help="Position document (JSON), or - for stdin.")]
StandardOpt = Annotated[bool, typer.Option("--standard", help="Use the standard start position.")]
RulesetOpt = Annotated[
    str | None, typer.Option("--ruleset", help="Ruleset name or TOML file (default: standard).")
]


def load_game(file: str | None, standard: bool, ruleset: str | None = None) -> Game:
    """The game a `ball rules` command works on; exits 2 with one line on bad input."""
    try:
        # --ruleset is the local user's own choice: a name or a TOML file on this machine
        rules = load_ruleset(ruleset) if ruleset else None
        if standard or file == "--standard":
            return Game.new(rules)
        if file is None:
            fail("give a position FILE, - for standard input, or --standard")
        doc = read_json(file)
        return Game.from_json(doc, rules)
    except (InvalidPosition, RulesetError) as exc:
        fail(f"{file or 'position'}: {exc}")


@app.command("legal")
def legal_cmd(file: FileArg = None, standard: StandardOpt = False, ruleset: RulesetOpt = None):
    """Print the legal actions, one per line, sorted."""
    game = load_game(file, standard, ruleset)
    for action in game.legal_actions():
        typer.echo(action)


ArgsArg = Annotated[list[str] | None, typer.Argument(metavar="[FILE] ARGS...", show_default=False)]


def _split_file(args: list[str] | None, standard: bool) -> tuple[str | None, list[str]]:
    """FILE is the first argument unless --standard was given."""
    args = list(args or [])
    if standard:
        return None, args
    if not args:
        fail("give a position FILE, - for standard input, or --standard")
    return args[0], args[1:]


@app.command("apply")
def apply_cmd(args: ArgsArg = None, standard: StandardOpt = False, ruleset: RulesetOpt = None):
    """Apply actions in order to FILE (or --standard) and print the resulting position document.

    Example: ball rules apply --standard F10-E9 D10-C11
    """
    file, actions = _split_file(args, standard)
    game = load_game(file, standard, ruleset)
    for k, action in enumerate(actions, 1):
        try:
            game.apply(action)
        except IllegalAction as exc:
            fail(f"action {k} ({action}): {exc}")
    typer.echo(json.dumps(game.to_json(), indent=2, ensure_ascii=False))


@app.command("perft")
def perft_cmd(args: ArgsArg = None, standard: StandardOpt = False, ruleset: RulesetOpt = None):
    """Count the action sequences of length DEPTH from FILE (or --standard): FILE DEPTH."""
    file, rest = _split_file(args, standard)
    if len(rest) != 1:
        fail("give exactly one DEPTH (ball rules perft FILE DEPTH)")
    try:
        depth = int(rest[0])
    except ValueError:
        fail(f"DEPTH must be a whole number, got {rest[0]!r}")
    if depth < 0:
        fail(f"DEPTH must be 0 or more, got {depth}")
    game = load_game(file, standard, ruleset)
    typer.echo(perft(game, depth))
