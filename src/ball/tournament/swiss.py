"""Swiss pairing by the FIDE Dutch system (C.04.3, rules in force from 1 February 2026).

The engine is gacrux's (`gacrux.pairingdutch`, by Otto Milvang, who also wrote the FIDE
tie-break and pairing checkers). It is kept at arm's length, as lila and Sharly Chess keep
their pairing engines: its documented command line (`pairingchecker -p`) runs in a process
of its own, reads the event's TRF (see `ball.tournament.trf`) on standard input and answers
JSON. Nothing of gacrux is imported or patched here, so its module-level state cannot leak
between pairings, two events can be paired at once, and an engine that hangs is stopped
(`TIMEOUT_SECONDS`). Coach A = first-half ATK plays the role of White.

Why gacrux: of the four FIDE-Dutch libraries on PyPI it is the only one that pairs a
500-entrant round in seconds *and* follows the 2026 Dutch rules its checker enforces:
py4swiss is fast but implements the rules in force until January 2026 (its pairings differ
from the checker's in a few percent of rounds), caissify-pairings agreed with the checker
but took more than ten minutes for round 2 of 500 entrants, and pairing-core's 2026 kernel
is a criteria search meant for small fields.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from ball.tournament.errors import TournamentError, Unpairable

ENGINE = "gacrux Dutch (FIDE C.04.3, 2026-02-01)"
# A 500-entrant round takes seconds to a few tens of seconds on a venue laptop; ten minutes
# is far beyond any field the toolbox is meant for, and short of a request nobody answers.
TIMEOUT_SECONDS = 600.0


def engine_name() -> str:
    return f"{ENGINE}, gacrux {metadata.version('gacrux')}"


def command(round_number: int, total_rounds: int) -> list[str]:
    """gacrux's pairing checker asked for the Dutch pairing of one round (`-p`), the TRF
    read from standard input as UTF-8, the answer written as JSON to standard output."""
    return [
        sys.executable,
        "-m",
        "gacrux.pairingchecker",
        "-p",
        "-m",
        "dutch",
        "-n",
        str(round_number),
        "-N",
        str(total_rounds),
        "-b",
        "utf-8",
        "-i",
        "-",
        "-o",
        "-",
    ]


def pair_dutch(trf_text: str, round_number: int, total_rounds: int) -> list[tuple[int, int]]:
    """Pairs (White, Black) of `round_number` in board order; Black 0 is the
    pairing-allocated bye. Entrants listed on an `XXZ` line of the TRF are not paired."""
    answer = _run(trf_text, command(round_number, total_rounds))
    result = answer.get("pairingResult") or {}
    pairs = [(int(w), int(b)) for w, b in result.get("pairs") or []]
    if not pairs:
        raise Unpairable(f"round {round_number} cannot be paired by the Dutch rules")
    return pairs


def check_command(round_number: int, total_rounds: int) -> list[str]:
    """gacrux's pairing checker in check mode (`-c`): is round `round_number` of the TRF
    the one the Dutch rules give? Same input and output as `command`."""
    argv = command(round_number, total_rounds)
    argv[argv.index("-p")] = "-c"
    return argv


@dataclass(frozen=True)
class Checked:
    """The checker's verdict on one round: its own pairing and the round's, both as
    (White, Black) pairing numbers in its board order (Black 0: the bye)."""

    ok: bool
    checker: list[tuple[int, int]]
    declared: list[tuple[int, int]]


def check_dutch(trf_text: str, round_number: int, total_rounds: int) -> Checked:
    """Round `round_number` of `trf_text` (which holds it, paired) against the Dutch
    pairing of the rounds before it; `TournamentError` if the checker cannot say."""
    answer = _run(trf_text, check_command(round_number, total_rounds))
    rounds = (answer.get("pairingResult") or {}).get("roundpairing") or []
    mine = [r for r in rounds if r.get("round") == round_number]
    if not mine:
        raise TournamentError(f"the pairing checker gave no verdict on round {round_number}")
    found = mine[0]
    return Checked(
        ok=bool(found.get("check")),
        checker=[(int(w), int(b)) for w, b in found.get("pairs") or []],
        declared=[(int(w), int(b)) for w, b in found.get("current") or []],
    )


def _run(trf_text: str, argv: list[str]) -> dict[str, Any]:
    """gacrux's JSON answer; any failure (a crash, a hang, a refusal) is a one-line
    `TournamentError` and no pairing."""
    try:
        done = subprocess.run(
            argv,
            input=trf_text,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise TournamentError(
            f"Swiss pairing failed: the pairing engine gave no answer in {TIMEOUT_SECONDS:.0f} s"
        ) from None
    except OSError as exc:
        raise TournamentError(f"Swiss pairing failed: cannot start the engine: {exc}") from None
    return _answer(done)


def _answer(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        answer = None
    if done.returncode != 0 or not isinstance(answer, dict):
        last = (done.stderr.strip().splitlines() or ["no answer"])[-1]
        raise TournamentError(f"Swiss pairing failed: the engine stopped: {last}")
    status = answer.get("status") or {}
    if status.get("code", 0) >= 400:
        errors = "; ".join(str(e) for e in status.get("error") or []) or "unknown error"
        raise TournamentError(f"Swiss pairing failed: {errors}")
    return answer
