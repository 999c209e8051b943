"""The client half of the CLI start-up agent: hand one `ball` command to a warm agent.

Python, Typer and SQLAlchemy take about a second to import, longer than a tournament
command may take (issue 15, target 1: under 0.3 s). So, as Gradle, Bazel and dmypy do, a
*start-up agent* (`ball.cli.agent`) keeps those imports loaded and forks a fresh copy of
itself per command. This module is what every `ball` process runs first: it finds the
agent's Unix socket, sends the command line, working directory, environment and umask, and
passes its own standard input, output and error (SCM_RIGHTS), so the command reads and
writes exactly the files, pipes or terminal it would have in-process (isatty, colours, the
terminal's size). It then forwards Ctrl-C and termination signals, waits for the exit
status and exits with it. No agent, or an agent that refuses (its code is stale): the
command runs in-process as before, and an agent is started in the background for the next.

It imports only the standard modules a bare interpreter has already loaded or nearly
(os, sys, socket, struct, json, signal, zlib): the warm path must stay far below the
interpreter's own start-up in cost. The protocol is in `ball.cli.agent`'s docstring.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
import zlib

# The commands that run in-process: long-running or interactive ones (a server, a terminal
# game, a self-play run, a clock, a site written file by file). Every other command (the
# short, one-shot ones, a game's own group among them) goes through the agent: this module
# cannot ask the registry which groups a game brings without importing the games, which is
# the cost the agent saves.
IN_PROCESS = frozenset({"serve", "play", "sim", "clock", "publish"})
# How long to wait for a live agent to take a command (fork, then say so) before running
# it in-process; far above a fork's few milliseconds even on a loaded machine.
HANDSHAKE_SECONDS = 3.0
# Signals the client passes on to the command: the terminal's Ctrl-C and Ctrl-\, and the
# ways a job is ended (kill, a closed terminal).
FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
# Environment variables read once when Python starts (encodings, paths, modes): an agent
# started under other values would not run a command as this interpreter would.
_STARTUP_PREFIXES = ("PYTHON", "LC_", "LANG")
# Read once when a preloaded module is imported (Typer's rich_utils and core: width, colour,
# Rich or not), which in the agent is before any client's environment arrives.
_STARTUP_NAMES = frozenset(
    {"TERMINAL_WIDTH", "FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "TYPER_USE_RICH",
     "_TYPER_FORCE_DISABLE_TERMINAL"}
)  # fmt: skip
_SOCKET_PATH_MAX = 100  # sun_path is 108 bytes on Linux, 104 on macOS
# The longest JSON line either side accepts: answers and signals are a few dozen bytes, so a
# longer line is garbage and ends the conversation instead of filling memory.
LINE_MAX = 64 << 10


def enabled() -> bool:
    """The agent is used on POSIX unless BALL_AGENT=0."""
    return (
        os.name == "posix"
        and hasattr(socket, "send_fds")
        and os.environ.get("BALL_AGENT", "1") != "0"
    )


def eligible(args: list[str]) -> bool:
    """Whether `ball ARGS` goes through the agent: the top-level help, and a command named
    first that is not one of IN_PROCESS (`ball` has no option of its own but `--help`, so
    anything else first is an error the in-process run reports)."""
    if not args or args == ["--help"]:
        return True
    return not args[0].startswith("-") and args[0] not in IN_PROCESS


def package_dir() -> str:
    import ball

    return os.path.dirname(os.path.abspath(ball.__file__))


def fingerprint() -> str:
    """This interpreter, this copy of the package and the start-up environment: two venvs,
    worktrees, locales or Typer settings never share an agent."""
    parts = [sys.executable, package_dir(), str(os.getuid())]
    parts += sorted(
        f"{k}={v}"
        for k, v in os.environ.items()
        if k.startswith(_STARTUP_PREFIXES) or k in _STARTUP_NAMES
    )
    text = "\0".join(parts).encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def socket_dir(create: bool = False) -> str | None:
    """The agent's directory: $BALL_AGENT_DIR, else $XDG_RUNTIME_DIR/ball-agent, else
    /tmp/ball-agent-UID; None (no agent) unless it is a real directory (not a symlink)
    owned by this user with mode 0700, so nobody else can reach or replace the socket."""
    base = os.environ.get("BALL_AGENT_DIR")
    if base:
        base = os.path.abspath(base)  # the agent runs in "/": a relative path would move
    else:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        base = os.path.join(runtime, "ball-agent") if runtime else f"/tmp/ball-agent-{os.getuid()}"
    if create:
        try:
            os.mkdir(base, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    return base if dir_is_private(base) else None


def dir_is_private(path: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    is_dir = (st.st_mode & 0o170000) == 0o040000  # lstat: a symlink is not a directory
    return is_dir and st.st_uid == os.getuid() and (st.st_mode & 0o7777) == 0o700


def socket_path(create: bool = False) -> str | None:
    base = socket_dir(create)
    if base is None:
        return None
    path = os.path.join(base, f"agent-{fingerprint()}.sock")
    return path if len(path.encode()) <= _SOCKET_PATH_MAX else None


# --- messages: a request is a 4-byte length and a JSON object; a run's descriptors follow
# on one byte once the agent is ready; answers and signals are JSON lines.


def send_request(sock: socket.socket, request: dict, fds: list[int]) -> None:
    body = json.dumps(request).encode("utf-8", "surrogateescape")
    socket.send_fds(sock, [struct.pack("!I", len(body))], fds)
    sock.sendall(body)


class Lines:
    """JSON lines read from a socket (each at most LINE_MAX bytes)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def next(self) -> dict | None:
        """The next message; None at end of file, on a broken connection or a timeout, and
        for a line that is too long or not a JSON object."""
        while b"\n" not in self.buffer:
            if len(self.buffer) > LINE_MAX:
                return None
            try:
                chunk = self.sock.recv(4096)
            except OSError:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):  # a line of nested "[" overflows the reader
            return None
        return message if isinstance(message, dict) else None


def connect(path: str, timeout: float = HANDSHAKE_SECONDS) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    return sock


def _request(argv: list[str]) -> dict:
    mask = os.umask(0o022)
    os.umask(mask)
    main = sys.modules.get("__main__")
    return {
        "kind": "run",
        "argv": argv,
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "umask": mask,
        "main_package": getattr(main, "__package__", None),
        "executable": sys.executable,
        "package": package_dir(),
    }


def run(argv: list[str]) -> int | None:
    """Run `argv` (sys.argv) through the agent and return its exit status; None when no
    agent took the command (then the caller runs it in-process)."""
    path = socket_path()
    if path is None:
        return None
    sock = connect(path)
    if sock is None:
        return None
    try:
        send_request(sock, _request(argv), [])
        lines = Lines(sock)
        ready = lines.next()
        taken = None
        if ready is not None and ready.get("ready") is True:
            socket.send_fds(sock, [b"F"], [0, 1, 2])  # our standard streams, only now
            taken = lines.next()
    except (OSError, ValueError, TypeError):
        taken = None
    if not taken or "pid" not in taken:  # refused (stale code), or no answer in time
        sock.close()  # the copy then gets no "go" and ends without running the command
        return None
    sock.settimeout(None)  # the command itself may take as long as it takes
    return _wait(sock, lines)


def _wait(sock: socket.socket, lines: Lines) -> int | None:
    """Start the command, forward signals until its exit status arrives."""
    import signal

    def forward(signum: int, _frame: object) -> None:
        try:  # noqa: SIM105 - contextlib is one import more on the warm path
            sock.sendall(json.dumps({"signal": signum}).encode() + b"\n")
        except OSError:
            pass

    # An ignored signal (`nohup`, a background job of a script) stays ignored, as it would
    # be for the command in-process. The others wait (blocked) until the copy has its "go":
    # a Ctrl-C from then on reaches the command, never a half-started client.
    signums = {getattr(signal, name) for name in FORWARDED}
    signums = {s for s in signums if signal.getsignal(s) != signal.SIG_IGN}
    signal.pthread_sigmask(signal.SIG_BLOCK, signums)
    try:
        # The command starts only now: a client that gave up before never runs it twice.
        sock.sendall(b'{"go": true}\n')
        for signum in signums:
            signal.signal(signum, forward)
    except OSError:  # the copy got no "go" and ran nothing: the caller runs it in-process
        sock.close()
        return None
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signums)
    answer = lines.next()
    sock.close()
    if answer is None or not isinstance(answer.get("exit", answer.get("signal")), int):
        sys.stderr.write("error: the start-up agent lost the command (BALL_AGENT=0 avoids it)\n")
        return 1
    if "signal" in answer:  # the command was ended by a signal: end the same way
        signum = answer["signal"]
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return 128 + signum
    return int(answer["exit"])


def start_agent() -> None:
    """Start an agent in the background for the next command: its own session, standard
    streams on /dev/null, no other descriptor (a lock the caller's script holds on fd 9
    must not outlive the script: issue 30 item 13), working directory `/` (it must not pin
    the caller's directory or mount; each command runs in its client's directory), and
    without the current directory on its import path (`-P`). It forks once more itself, so
    it is no child of this process."""
    path = socket_path(create=True)
    if path is None:
        return
    import subprocess  # the cold path only: this command runs in-process anyway

    code = "from ball.cli.agent import serve; serve()"
    try:  # noqa: SIM105 - as above
        subprocess.Popen(
            [sys.executable, "-P", "-c", code, path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,  # every descriptor above 2, inheritable or not
            cwd="/",
            start_new_session=True,
        )
    except (OSError, ValueError):
        pass  # no agent: every command runs in-process, as with BALL_AGENT=0


def control(action: str) -> dict | None:
    """Ask the agent for its `status`, or to `stop`; None when none answers."""
    path = socket_path()
    sock = connect(path) if path else None
    if sock is None:
        return None
    try:
        send_request(sock, {"kind": action}, [])
        return Lines(sock).next()
    except OSError:
        return None
    finally:
        sock.close()


def agent_command(args: list[str]) -> int:
    """`ball agent status|stop`: see or stop this installation's agent."""
    if args not in (["status"], ["stop"]):
        # ball.cli.common.fail's one line, without importing Typer for it
        sys.stderr.write("error: usage: ball agent status|stop\n")
        return 2
    if not enabled():
        print("agent: disabled (BALL_AGENT=0 or not POSIX)")
        return 0
    answer = control(args[0])
    if answer is None:
        print("agent: not running")
        return 0 if args[0] == "stop" else 1
    if args[0] == "stop":
        print(f"agent: stopped (pid {answer.get('pid')})")
    else:
        print(
            f"agent: running (pid {answer.get('pid')}, {answer.get('served')} commands served, "
            f"idle exit after {answer.get('idle')} s, socket {answer.get('socket')})"
        )
    return 0
