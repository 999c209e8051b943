"""Swiss pairing by the FIDE Dutch system (C.04.3, rules in force from 1 February 2026).

The engine is gacrux's (`gacrux.pairingdutch`, by Otto Milvang, who also wrote the FIDE
tie-break and pairing checkers). It is kept at arm's length, as lila and Sharly Chess keep
their pairing engines: its documented command line (`pairingchecker -p`) runs in a process
of its own, reads the event's TRF (see `ball.tournament.trf`) on standard input and answers
JSON. Nothing of gacrux is imported or patched here, so its module-level state cannot leak
between pairings, two events can be paired at once, and an engine that hangs is stopped
(`TIMEOUT_SECONDS`). Coach A = first-half ATK plays the role of White.

Starting Python and importing gacrux (networkx above all) costs about a second of CPU, far
more than pairing a small round. So on POSIX each toolbox process keeps one *pairing
server*: a child process that imports gacrux once and then, for every pairing, forks a
fresh copy of itself that runs the same command line (`runpy`, as `python -m` does) on the
TRF and answers. Every pairing still gets a process of its own with gacrux's module state
as it stands right after import, so the guarantees above hold; only the imports are shared.
Should the server be unavailable, the pairing runs as a plain child process as before.

Why gacrux: of the four FIDE-Dutch libraries on PyPI it is the only one that pairs a
500-entrant round in seconds *and* follows the 2026 Dutch rules its checker enforces:
py4swiss is fast but implements the rules in force until January 2026 (its pairings differ
from the checker's in a few percent of rounds), caissify-pairings agreed with the checker
but took more than ten minutes for round 2 of 500 entrants, and pairing-core's 2026 kernel
is a criteria search meant for small fields.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
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
    done = _SERVER.run(argv[3:], trf_text, TIMEOUT_SECONDS)
    if done is None:  # no pairing server here: a plain child process
        done = _run_child(trf_text, argv)
    return _answer(done)


def _run_child(trf_text: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            argv,
            input=trf_text,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise _no_answer() from None
    except OSError as exc:
        raise TournamentError(f"Swiss pairing failed: cannot start the engine: {exc}") from None


def _no_answer() -> TournamentError:
    return TournamentError(
        f"Swiss pairing failed: the pairing engine gave no answer in {TIMEOUT_SECONDS:.0f} s"
    )


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


# --- The pairing server (POSIX only). It is started with `python -c`, so it imports nothing
# of the toolbox; it talks to this process over a socket pair: each request arrives as a new
# socket (passed with SCM_RIGHTS), served by a forked copy that first sends its process id
# (so a hang can be killed), then reads the JSON request {"argv", "input", "timeout"} up to
# end-of-file and answers {"returncode", "stdout", "stderr"}. The server ends when this
# process closes its end (or dies).
_SERVER_SCRIPT = r"""
import io, json, os, runpy, signal, socket, sys, traceback
import gacrux.pairingchecker  # the costly imports, once

def serve(conn):
    conn.sendall(b"%d\n" % os.getpid())
    data = bytearray()
    while chunk := conn.recv(65536):
        data += chunk
    request = json.loads(data)
    signal.alarm(max(1, int(request["timeout"]) + 1))  # a backstop should the caller vanish
    out, err = io.BytesIO(), io.BytesIO()
    sys.argv = ["pairingchecker", *request["argv"]]
    sys.stdin = io.TextIOWrapper(io.BytesIO(request["input"].encode()), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8")
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8")
    code = 0
    try:
        runpy.run_module("gacrux.pairingchecker", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    answer = {"returncode": code, "stdout": out.getvalue().decode("utf-8", "replace"),
              "stderr": err.getvalue().decode("utf-8", "replace")}
    conn.sendall(json.dumps(answer).encode())
    conn.close()

def reap(*_):
    # waitpid, not SIG_IGN, so the copies' CPU time counts in this server's rusage
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass

signal.signal(signal.SIGCHLD, reap)
control = socket.socket(fileno=int(sys.argv[1]))
while True:
    message, fds, _, _ = socket.recv_fds(control, 1, 1)
    if not message:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        try:
            while True:
                os.wait()  # the last copies (each ends by its alarm at the latest)
        except ChildProcessError:
            break
    conn = socket.socket(fileno=fds[0])
    if os.fork() == 0:
        control.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        try:
            serve(conn)
        finally:
            os._exit(0)
    conn.close()
"""


class _PairingServer:
    """This process's pairing server, started at the first pairing; `run` answers None
    when there is none (not POSIX, or it cannot start), so the caller falls back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._owner = 0  # the process that started it: a forked toolbox starts its own

    def run(
        self, args: list[str], trf_text: str, timeout: float
    ) -> subprocess.CompletedProcess[str] | None:
        conn = self._connect()
        if conn is None:
            return None
        deadline = time.monotonic() + timeout
        with conn:
            try:
                request = {"argv": args, "input": trf_text, "timeout": timeout}
                conn.sendall(json.dumps(request).encode())
                conn.shutdown(socket.SHUT_WR)
                reply = _read_all(conn, deadline)
            except OSError:
                return None  # the server went away: the caller runs a plain child process
        pid, _, body = reply.partition(b"\n")
        if not body:
            return None
        answer = json.loads(body)
        return subprocess.CompletedProcess(
            args, answer["returncode"], answer["stdout"], answer["stderr"]
        )

    def _connect(self) -> socket.socket | None:
        """A new socket to a forked copy of the server, or None."""
        if not hasattr(socket, "send_fds") or not hasattr(os, "fork"):
            return None
        mine, theirs = socket.socketpair()
        with theirs, self._lock:
            for _ in range(2):  # a server that died is started again once
                control = self._ensure()
                if control is None:
                    break
                try:
                    socket.send_fds(control, [b"r"], [theirs.fileno()])
                    return mine
                except OSError:
                    self._stop()
        mine.close()
        return None

    def _ensure(self) -> socket.socket | None:
        if self._proc is not None and self._owner == os.getpid() and self._proc.poll() is None:
            return self._control
        self._proc = self._control = None
        ours, child = socket.socketpair()
        with child:
            try:
                self._proc = subprocess.Popen(
                    [sys.executable, "-c", _SERVER_SCRIPT, str(child.fileno())],
                    stdin=subprocess.DEVNULL,
                    pass_fds=(child.fileno(),),
                )
            except OSError:
                ours.close()
                return None
        self._control, self._owner = ours, os.getpid()
        return ours

    def _stop(self) -> None:
        if self._control is not None and self._owner == os.getpid():
            self._control.close()  # the server sees end-of-file and ends
            if self._proc is not None:
                try:
                    self._proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait()
        self._proc = self._control = None

    def close(self) -> None:
        with self._lock:
            self._stop()


def _read_all(conn: socket.socket, deadline: float) -> bytes:
    """Everything the forked copy sends; past the deadline it is killed (its id comes
    first) and the pairing is an error."""
    data = bytearray()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            _kill(bytes(data))
            raise _no_answer()
        conn.settimeout(remaining)
        try:
            chunk = conn.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            return bytes(data)
        data += chunk


def _kill(reply: bytes) -> None:
    pid, newline, _ = reply.partition(b"\n")
    if newline and pid.isdigit():
        with contextlib.suppress(OSError):  # it may have just finished
            os.kill(int(pid), signal.SIGKILL)


_SERVER = _PairingServer()
atexit.register(_SERVER.close)
