"""Helpers shared by the command groups: the one-line error contract and input reading."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import typer


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line on standard error and exit (status 2 by default). Never a traceback."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    raise typer.Exit(code)


def read_text(path: str) -> str:
    """Read a file, or standard input when `path` is `-`; a missing file is a clear error."""
    if path == "-":
        return sys.stdin.read()
    p = Path(path)
    if not p.is_file():
        fail(f"{path}: no such file")
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: cannot read ({exc})")


def parse_json(text: str, what: str):
    """JSON text → value; any fault (syntax, absurd nesting) is one line naming `what`."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{what}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    except RecursionError:
        fail(f"{what}: JSON nested too deeply")


def read_json(path: str):
    """Read and parse a JSON file (or standard input for `-`)."""
    return parse_json(read_text(path), path)
