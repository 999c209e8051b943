"""Swiss pairing by the FIDE Dutch system (C.04.3, rules in force from 1 February 2026).

The engine is gacrux's (`gacrux.pairingdutch`, by Otto Milvang, who also wrote the FIDE
tie-break and pairing checkers); it is driven in-process through the same entry points as
its `pairingchecker -p` command, fed with the event's TRF (see `ball.tournament.trf`).
Coach A = first-half ATK plays the role of White.

Why gacrux: of the four FIDE-Dutch libraries on PyPI it is the only one that pairs a
500-entrant round in seconds *and* follows the 2026 Dutch rules its checker enforces:
py4swiss is fast but implements the rules in force until January 2026 (its pairings differ
from the checker's in a few percent of rounds), caissify-pairings agreed with the checker
but took more than ten minutes for round 2 of 500 entrants, and pairing-core's 2026 kernel
is a criteria search meant for small fields.
"""

from __future__ import annotations

import contextlib
import io
import threading

from ball.tournament.errors import TournamentError

ENGINE = "gacrux Dutch (FIDE C.04.3, 2026-02-01)"
_LOCK = threading.Lock()  # gacrux keeps state on module-level objects; one pairing at a time


def engine_name() -> str:
    from gacrux import version

    return f"{ENGINE}, gacrux {version.version()['version']}"


def pair_dutch(trf_text: str, round_number: int, total_rounds: int) -> list[tuple[int, int]]:
    """Pairs (White, Black) of `round_number` in board order; Black 0 is the
    pairing-allocated bye. Entrants listed on an `XXZ` line of the TRF are not paired."""
    from gacrux.pairingchecker import pairingchecker

    argv = ["-p", "-m", "dutch", "-n", str(round_number), "-N", str(total_rounds)]
    with _LOCK, contextlib.redirect_stdout(io.StringIO()):
        checker = pairingchecker()
        parse = checker.parser.parse_args
        checker.parser.parse_args = lambda *_a, **_k: parse(argv)
        checker.read_command_line()
        checker.params["jch"] = trf_text
        for step in (
            checker.read_input_file,
            checker.prepare_tournament,
            checker.do_checker,
            checker.apply_result,
        ):
            try:
                step()
            except TournamentError:
                raise
            except Exception as exc:  # gacrux reports bad input by raising its own types
                raise TournamentError(f"Swiss pairing failed: {exc}") from None
            _raise_on_error(checker)
        result = checker.chessfile.result
    pairs = [(int(w), int(b)) for w, b in result.get("pairs") or []]
    if not pairs:
        raise TournamentError(f"round {round_number} cannot be paired by the Dutch rules")
    return pairs


def _raise_on_error(checker) -> None:
    status = checker.resultjson["status"]
    file_status = checker.chessfile.chessjson["status"]
    for st in (status, file_status):
        if st.get("code", 0) >= 400 or checker.exit:
            errors = "; ".join(str(e) for e in st.get("error", [])) or "unknown error"
            raise TournamentError(f"Swiss pairing failed: {errors}")
