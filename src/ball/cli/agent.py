"""The CLI start-up agent: a warm process that runs `ball` commands in forked copies of itself.

`ball.cli.agent_client` explains why. This module owns the agent's life: it is started as
`python -c "from ball.cli.agent import serve; serve()" SOCKET`, leaves its starter (one
more fork), takes the lock beside the socket (one agent per socket), imports what the
commands need (Typer, the command groups, the tournament service, SQLAlchemy; no engines,
no connections, no threads: nothing that must not cross a fork), then serves until
BALL_AGENT_IDLE seconds (default 600) pass without a command, until `ball agent stop`, or
until its code changes on disk.

Protocol, per connection: the agent first checks the peer (SO_PEERCRED: same uid; anyone
else is refused before a byte is read). The client sends a 4-byte big-endian length and
that many bytes of JSON (at most REQUEST_MAX, all within HEADER_SECONDS), `{"kind": "run" |
"status" | "stop", ...}`. Every answer is a JSON line. For a run the agent checks the
request's fields, that the client is the same interpreter and package copy, and that the
package's code is unchanged since start-up (else it answers `{"refused": why}`, and exits
when the code is stale); then it answers `{"ready": true}`, the client sends one byte `F`
with its descriptors 0, 1 and 2 (SCM_RIGHTS), and the agent forks. The copy takes the
descriptors as 0, 1 and 2, the client's working directory, umask, environment and
`sys.argv`, answers `{"pid": n}` and waits for the client's `{"go": true}`: a client that
gave up waiting runs the command in-process, and its copy then ends without running it
(never twice). It runs `ball.cli.run_in_process` as the
`ball` process would, and answers `{"exit": status}` or, if a signal ended it,
`{"signal": n}`. Meanwhile a thread reads `{"signal": n}` lines the client forwards and
raises them in the copy; if the client disappears the copy is ended (SIGHUP, then SIGKILL
10 s later).
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import io
import json
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
from typing import Any

from ball.cli.agent_client import HANDSHAKE_SECONDS, IN_PROCESS, Lines, package_dir

IDLE_SECONDS = 600.0
# A client sends its request at once; a silent or trickling one is dropped after this long
# in all (the agent serves one connection at a time until it forks, so others wait).
HEADER_SECONDS = 2.0
# The largest request: Linux allows about 2 MiB of arguments and environment together, and
# JSON escaping may double that.
REQUEST_MAX = 4 << 20
# The deepest nesting a request may have: a run request is an object holding a list (argv)
# and an object (env) of strings, so 2; the bound leaves room. Deeper JSON would make the
# reader recurse (200 KB of "[" exhausts Python's stack: RecursionError), so it is refused
# before it is parsed.
DEPTH_MAX = 8
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")
# Imported by commands only when they run; loaded here so that no command pays for them.
_PRELOAD = (
    "ball.cli.front_door",
    "ball.tournament",
    "ball.tournament.service",
    "sqlalchemy.orm",
    "sqlalchemy.dialects.sqlite",
    "sqlite3",
    "ball.storage.ids",
    "ball.storage.stamp",
    "ball.games",  # the registry: every tournament command asks the event's game
    "typer._adapters",
    "typer._click.decorators",
    "typer.rich_utils",  # the help and error panels
    "pydantic.type_adapter",
    "email.parser",  # importlib.metadata (the pairing engine's version)
)


def code_fingerprint(root: str | None = None) -> tuple[int, int]:
    """(count, hash) of the package's .py files' names, sizes and mtimes, and of the
    site-packages folder beside Typer (it changes when a dependency is added or upgraded)."""
    root = root or package_dir()
    entries: list[str] = []
    stack = [root]
    while stack:
        with os.scandir(stack.pop()) as it:
            for entry in it:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith(".py"):
                    st = entry.stat()
                    entries.append(f"{entry.path}:{st.st_size}:{st.st_mtime_ns}")
    import typer

    site = os.path.dirname(os.path.dirname(os.path.abspath(typer.__file__)))
    entries.append(f"{site}:{os.stat(site).st_mtime_ns}")
    entries.sort()
    return len(entries), hash("\n".join(entries))


def peer_is_owner(conn: socket.socket, uid: int | None = None) -> bool:
    """Whether the process at the other end of `conn` runs as `uid` (default: ours)."""
    size = struct.calcsize("3i")
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size)
    except (OSError, AttributeError):
        return False  # no way to know who it is: refuse
    _pid, peer_uid, _gid = struct.unpack("3i", creds)
    return peer_uid == (os.getuid() if uid is None else uid)


def _preload() -> None:
    import importlib

    import ball.cli

    for module, group in ball.cli._GROUPS:
        if (group or module) not in IN_PROCESS:
            importlib.import_module(f"ball.cli.{module}")
    for name in _PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def _take_lock(path: str) -> int | None:
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None  # another agent serves this socket
    return fd


def serve(path: str | None = None) -> None:
    """The agent's main program (argv[1] is the socket path)."""
    path = os.path.abspath(path or sys.argv[1])
    os.chdir("/")  # hold no caller's directory (the starter sets it too; a copy takes its own)
    if os.fork() != 0:  # leave the starter: no process waits for the agent
        os._exit(0)
    lock = _take_lock(path)
    if lock is None:
        return
    _preload()
    Agent(path, lock).run()


class Agent:
    def __init__(self, path: str, lock: int) -> None:
        self.path = path
        self.lock = lock
        self.idle = idle_seconds(os.environ.get("BALL_AGENT_IDLE"))
        self.started = time.time()
        self.served = 0
        self.code = code_fingerprint()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a dead agent's socket (we hold the lock: no live one)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.inode = os.stat(path).st_ino
        self.listener.listen(64)

    def run(self) -> None:
        signal.signal(signal.SIGCHLD, _reap)
        signal.signal(signal.SIGTERM, _exit_on_signal)
        try:
            while True:
                self.listener.settimeout(self.idle)
                try:
                    conn, _ = self.listener.accept()
                except TimeoutError:
                    break  # idle: the next command starts a new agent
                with conn:
                    if not self.handle(conn):
                        break
        except SystemExit:
            pass
        finally:
            self.close()

    def close(self) -> None:
        """Stop serving: unlink the socket (if it is still ours) and release the lock, so a
        new agent can start at once; the running copies finish on their own."""
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        self.listener.close()
        with contextlib.suppress(OSError):
            os.close(self.lock)

    def handle(self, conn: socket.socket) -> bool:
        """Serve one connection; False when the agent should stop."""
        if not peer_is_owner(conn):
            _send(conn, {"refused": "not a client of this user"})
            return True
        request, fds = _read_request(conn, time.monotonic() + HEADER_SECONDS)
        try:
            if isinstance(request, str):
                _send(conn, {"refused": request})
                return True
            kind = request.get("kind")
            if kind == "status":
                _send(conn, self.status())
                return True
            if kind == "stop":
                self.close_and_answer(conn, {"pid": os.getpid()})
                return False
            if kind != "run":
                _send(conn, {"refused": "unknown request"})
                return True
            if (wrong := bad_run_request(request)) is not None:
                _send(conn, {"refused": f"bad run request: {wrong}"})
                return True
            return self.run_command(conn, request, fds)
        finally:
            for fd in fds:
                os.close(fd)

    def status(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "served": self.served,
            "idle": self.idle,
            "socket": self.path,
            "started": self.started,
        }

    def close_and_answer(self, conn: socket.socket, answer: dict[str, Any]) -> None:
        self.close()  # first, so that the socket is gone once the client has the answer
        _send(conn, answer)

    def code_unchanged(self) -> bool:
        try:
            return code_fingerprint() == self.code
        except OSError:  # a file went away while being looked at: changed, too
            return False

    def run_command(self, conn: socket.socket, request: dict, fds: list[int]) -> bool:
        if request.get("executable") != sys.executable or request.get("package") != package_dir():
            _send(conn, {"refused": "another interpreter or package copy"})
            return True
        if not self.code_unchanged():  # this agent is stale
            self.close_and_answer(conn, {"refused": "the code changed since the agent started"})
            return False
        # Only now does the client pass its descriptors: a request queued at a hung agent
        # holds none of them (a pipe the client writes to ends when the client does).
        _send(conn, {"ready": True})
        fds += _read_fds(conn, time.monotonic() + HEADER_SECONDS)  # handle() closes them
        if len(fds) != 3:
            _send(conn, {"refused": "a run takes the client's descriptors 0, 1 and 2"})
            return True
        # Python's cyclic collector writes to every object it scans: in a copy, that would copy
        # the agent's whole heap page by page. Frozen objects are never scanned.
        gc.freeze()
        try:
            pid = os.fork()
        except OSError as exc:  # no process left (ulimit): the client runs it in-process
            _send(conn, {"refused": f"cannot fork: {exc.strerror}"})
            return True
        if pid == 0:
            self.listener.close()
            os.close(self.lock)
            _child(conn, request, fds)  # never returns
        self.served += 1
        return True


def _reap(_signum: int, _frame: object) -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _exit_on_signal(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def _send(conn: socket.socket, message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        conn.sendall(json.dumps(message).encode() + b"\n")


def idle_seconds(text: str | None) -> float:
    """BALL_AGENT_IDLE: seconds, positive; anything else means the default."""
    try:
        value = float(text or IDLE_SECONDS)
    except ValueError:
        return IDLE_SECONDS
    return value if 0 < value < 1e9 else IDLE_SECONDS


def _read_request(conn: socket.socket, deadline: float) -> tuple[dict | str, list[int]]:
    """The request and the descriptors that came with it; instead of the request, why it is
    refused for anything but a JSON object of at most REQUEST_MAX bytes, nested at most
    DEPTH_MAX deep, that arrived whole before `deadline`."""
    malformed = "not a well-formed request"
    fds: list[int] = []
    try:
        conn.settimeout(max(deadline - time.monotonic(), 0.001))
        head, fds, _flags, _addr = socket.recv_fds(conn, 4, 3)
        head += _recv_exactly(conn, 4 - len(head), deadline)  # a stream may split the 4
        size = struct.unpack("!I", head)[0]
        if size > REQUEST_MAX:
            return malformed, fds
        text = _recv_exactly(conn, size, deadline).decode("utf-8", "surrogateescape")
        if too_deep(text):
            return f"a request nests at most {DEPTH_MAX} deep", fds
        request = json.loads(text)
    except (OSError, ValueError, struct.error, RecursionError):  # a timeout is an OSError
        return malformed, fds
    return (request if isinstance(request, dict) else malformed), fds


def too_deep(text: str, limit: int = DEPTH_MAX) -> bool:
    """Whether the JSON `text` nests lists and objects more than `limit` deep (brackets inside
    strings do not count). Stops at the first bracket past the limit, so 4 MiB of "[" costs
    no more than a well-formed request."""
    depth = 0
    for match in _JSON_BRACKET.finditer(_JSON_STRING.sub('""', text)):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
            return True
    return False


def _read_fds(conn: socket.socket, deadline: float) -> list[int]:
    """The descriptors that come with the client's one-byte `F` (none on anything else)."""
    try:
        conn.settimeout(max(deadline - time.monotonic(), 0.001))
        data, fds, _flags, _addr = socket.recv_fds(conn, 1, 3)
    except OSError:
        return []
    if data != b"F":
        for fd in fds:
            os.close(fd)
        return []
    return fds


def _recv_exactly(conn: socket.socket, size: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        conn.settimeout(max(deadline - time.monotonic(), 0.001))
        chunk = conn.recv(min(size, 1 << 16))
        if not chunk:
            raise ValueError("the client hung up mid-request")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def bad_run_request(request: dict) -> str | None:
    """What is wrong with a run request's fields (their types), None when nothing is."""

    def strings(value: object) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    env = request.get("env")
    checks = {
        "argv": strings(request.get("argv")) and len(request["argv"]) >= 1,
        "cwd": isinstance(request.get("cwd"), str),
        "env": isinstance(env, dict) and strings(list(env)) and strings(list(env.values())),
        "umask": type(request.get("umask")) is int and 0 <= request["umask"] <= 0o777,
        "main_package": request.get("main_package") is None
        or isinstance(request["main_package"], str),
    }
    wrong = [name for name, ok in checks.items() if not ok]
    return ", ".join(wrong) if wrong else None


# --- the forked copy that runs one command


def _child(conn: socket.socket, request: dict, fds: list[int]) -> None:
    code = 1
    try:
        _start_dispositions()
        if not _take_over(request, fds):
            _send(conn, {"refused": "cannot enter the client's working directory"})
            os._exit(1)
        conn.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")
        conn.settimeout(HANDSHAKE_SECONDS)
        lines = Lines(conn)
        if lines.next() != {"go": True}:  # the client gave up: it runs the command itself
            os._exit(0)
        conn.settimeout(None)
        watcher = _Watcher(lines)
        outcome = _run(request["argv"])
        watcher.send(outcome)
        code = outcome.get("exit", 128 + outcome.get("signal", 0))
    except BaseException:  # noqa: BLE001 - nothing may escape a forked copy
        pass
    os._exit(code)


def _start_dispositions() -> None:
    """Signals as a freshly started `ball` has them, whatever the agent inherited (an agent
    started from a background job begins with SIGINT ignored): Ctrl-C is a
    KeyboardInterrupt, the others end the process. A signal the client ignores is never
    forwarded, so it stays without effect, as it would in-process."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, signal.SIG_DFL)


def _take_over(request: dict, fds: list[int]) -> bool:
    """Become the client's process: its standard streams, directory, umask, environment."""
    for number, fd in enumerate(fds):
        os.dup2(fd, number)  # inheritable, as a process's 0, 1 and 2 are
    for fd in set(fds) - {0, 1, 2}:
        os.close(fd)  # received inheritable: no program the command starts gets them
    try:
        os.chdir(request["cwd"])
    except OSError:
        return False
    os.umask(int(request["umask"]))
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = list(request["argv"])
    main = sys.modules.get("__main__")
    if main is not None:  # Click names the program after `python -m PACKAGE` from it
        main.__package__ = request.get("main_package")
    _reopen_stdio()
    return True


def _reopen_stdio() -> None:
    """New sys.stdin/stdout/stderr on descriptors 0-2, built as Python builds them at start-up
    (line-buffered output on a terminal, newline "\\n", the agent's encoding: the locale and
    PYTHONIOENCODING are part of the socket's name, so they are the client's)."""
    out, err = sys.__stdout__, sys.__stderr__
    encoding = out.encoding if out else "utf-8"
    errors = (out.errors if out else None) or "strict"
    sys.stdin = _stream(0, encoding, errors, line_buffering=False)
    sys.stdout = _stream(1, encoding, errors, line_buffering=os.isatty(1))
    err_errors = (err.errors if err else None) or "backslashreplace"
    sys.stderr = _stream(2, encoding, err_errors, line_buffering=True)


def _stream(fd: int, encoding: str, errors: str, line_buffering: bool) -> io.TextIOWrapper:
    binary = io.open(fd, "rb" if fd == 0 else "wb", closefd=False)  # noqa: SIM115, UP020
    return io.TextIOWrapper(
        binary, encoding=encoding, errors=errors, newline="\n", line_buffering=line_buffering
    )


class _Watcher:
    """Reads the client's forwarded signals; ends the copy if the client goes away."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.conn = lines.sock
        self.lock = threading.Lock()
        threading.Thread(target=self._loop, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            _send(self.conn, message)

    def _loop(self) -> None:
        while (message := self.lines.next()) is not None:
            signum = message.get("signal")
            if isinstance(signum, int) and 0 < signum < signal.NSIG:
                self._raise(signum)
        self._raise(signal.SIGHUP)  # the client is gone: so is its command
        time.sleep(10)
        os.kill(os.getpid(), signal.SIGKILL)

    def _raise(self, signum: int) -> None:
        if signal.getsignal(signum) == signal.SIG_DFL:
            self.send({"signal": signum})  # it will end the copy: the client ends alike
        # Aimed at the main thread, which runs the command: a signal sent to the process
        # may be taken by this thread instead, and then a main thread blocked in a read
        # (a prompt, `-` on standard input) is not interrupted and Ctrl-C is lost.
        signal.pthread_kill(threading.main_thread().ident or 0, signum)


def _run(argv: list[str]) -> dict[str, int]:
    """Run the command as the `ball` process would, to its exit status."""
    import atexit
    import traceback

    from ball.cli import run_in_process

    outcome: dict[str, int] = {"exit": 0}
    try:
        run_in_process(argv[1:])
    except SystemExit as exc:
        outcome = {"exit": _exit_status(exc.code)}
    except KeyboardInterrupt:  # Python's own end: the traceback, then death by SIGINT
        traceback.print_exc()
        outcome = {"signal": int(signal.SIGINT)}
    except BaseException:  # noqa: BLE001 - as the interpreter: the traceback, status 1
        traceback.print_exc()
        outcome = {"exit": 1}
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            outcome = {"exit": 120}  # what Python exits with when flushing fails
    return outcome


def _exit_status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
