"""The CLI start-up agent (issue 15, target 1): a command through the warm agent prints the
same bytes, exits with the same status and stores the same data as in-process; it uses the
client's directory, environment, standard input and terminal; signals reach it; a stale,
idle or unsafe agent is not used. Every test has a private BALL_AGENT_DIR and stops its
agent."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import agent_client
from ball.cli.agent import IDLE_SECONDS, idle_seconds, peer_is_owner

BALL = [sys.executable, "-m", "ball.cli"]


def _env(agent_dir: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "BALL_AGENT": "1", "BALL_AGENT_DIR": agent_dir,
            "BALL_AGENT_IDLE": "120", **extra}  # fmt: skip


def ball(args, env, **kw) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*BALL, *args], env=env, capture_output=True, timeout=120, **kw)


def served(env) -> int | None:
    """Commands the agent has served, None when no agent answers."""
    out = ball(["agent", "status"], env).stdout.decode()
    m = re.search(r"(\d+) commands served", out)
    return int(m.group(1)) if m else None


def agent_pid(env) -> int | None:
    m = re.search(r"pid (\d+)", ball(["agent", "status"], env).stdout.decode())
    return int(m.group(1)) if m else None


def wait_for_agent(env, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while served(env) is None:
        assert time.monotonic() < end, "no agent started"
        time.sleep(0.2)


def private_dir() -> str:
    # Short, under /tmp: a socket path must fit in about a hundred bytes.
    path = tempfile.mkdtemp(prefix="ba", dir="/tmp")
    os.chmod(path, 0o700)
    return path


@pytest.fixture(scope="module")
def event_db(tmp_path_factory) -> Path:
    """A Swiss event with round 1 paired (built in-process, without the agent)."""
    from ball.cli import app

    db = tmp_path_factory.mktemp("agent") / "event.db"
    runner = CliRunner()
    steps = [["event", "create", "--db", str(db), "--name", "Agent", "--system", "swiss",
              "--rounds", "3"]]  # fmt: skip
    steps += [["event", "add-player", "--db", str(db), f"P{i}", "--rating", str(2000 - i)]
              for i in range(6)]  # fmt: skip
    steps += [["round", "pair", "--db", str(db)]]
    for step in steps:
        assert runner.invoke(app, step).exit_code == 0, step
    return db


@pytest.fixture(scope="module")
def warm():
    """The environment of a running agent (stopped at the end)."""
    agent_dir = private_dir()
    env = _env(agent_dir)
    ball(["--help"], env)  # in-process; starts the agent
    try:
        wait_for_agent(env)
        yield env
    finally:
        ball(["agent", "stop"], env)
        shutil.rmtree(agent_dir, ignore_errors=True)


def cold(env) -> dict[str, str]:
    return {**env, "BALL_AGENT": "0"}


def same_through_agent(args, env, **kw) -> subprocess.CompletedProcess[bytes]:
    before = served(env)
    through = ball(args, env, **kw)
    assert served(env) == before + 1, "the agent did not take the command"
    direct = ball(args, cold(env), **kw)
    assert (through.returncode, through.stdout, through.stderr) == (
        direct.returncode, direct.stdout, direct.stderr)  # fmt: skip
    return through


@pytest.mark.process
def test_the_same_bytes_and_status_through_the_agent(warm, event_db):
    db = str(event_db)
    assert b"standings" in same_through_agent(["--help"], warm).stdout
    assert b"Agent after round" in same_through_agent(["standings", "--db", db], warm).stdout
    rows = json.loads(same_through_agent(["standings", "--db", db, "--json"], warm).stdout)
    assert len(rows) == 6
    bad = same_through_agent(["result", "enter", "--db", db, "--round", "1", "--table", "9",
                              "--forfeit", "B"], warm)  # fmt: skip
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1
    assert same_through_agent(["standings", "--db", db, "--bogus"], warm).returncode == 2


@pytest.mark.process
def test_a_result_entered_through_the_agent_is_stored(warm, event_db, tmp_path):
    copies = [tmp_path / "a.db", tmp_path / "b.db"]
    for copy in copies:  # SQLite's backup: the event may still sit in the write-ahead log
        with sqlite3.connect(event_db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
    # every table of round 1 (three): the standings count a round once all its results are in
    for table in ("1", "2", "3"):
        enter = ["result", "enter", "--round", "1", "--table", table, "--forfeit", "B", "--db"]
        through = ball([*enter, str(copies[0])], warm)
        direct = ball([*enter, str(copies[1])], cold(warm))
        assert through.returncode == 0 and (through.stdout, through.stderr) == (
            direct.stdout, direct.stderr)  # fmt: skip
    read = [json.loads(ball(["standings", "--json", "--db", str(c)], cold(warm)).stdout)
            for c in copies]  # fmt: skip
    assert read[0] == read[1] and max(r["points"] for r in read[0]) == 1


@pytest.mark.process
def test_the_clients_directory_environment_and_stdin(warm, event_db, tmp_path):
    here = same_through_agent(["standings", "--db", event_db.name], warm, cwd=event_db.parent)
    assert b"Agent after round" in here.stdout
    from_env = same_through_agent(["standings"], {**warm, "BALL_DB": str(event_db)})
    assert from_env.stdout == here.stdout
    trf = ball(["export", "trf", "--db", str(event_db)], cold(warm)).stdout
    assert trf
    runs = (("a.db", warm), ("b.db", cold(warm)))
    imported = [ball(["event", "import", "trf", "-", "--db", str(tmp_path / name)], env,
                     input=trf) for name, env in runs]  # fmt: skip
    assert [i.returncode for i in imported] == [0, 0] and b"Agent" in imported[0].stdout
    assert imported[0].stdout == imported[1].stdout


def _on_a_terminal(args, env) -> bytes:
    """What `ball ARGS` writes to a 100-column terminal."""
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("4H", 30, 100, 0, 0))
    env = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES", "TERMINAL_WIDTH")}
    proc = subprocess.Popen([*BALL, *args], env=env, stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last writer is gone
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.wait(timeout=60) == 0
    return out


@pytest.mark.process
def test_a_terminal_gets_what_a_terminal_gets(warm):
    before = served(warm)
    through = _on_a_terminal(["--help"], warm)
    assert served(warm) == before + 1
    direct = _on_a_terminal(["--help"], cold(warm))
    assert through == direct
    assert b"\x1b[" in through  # colour: standard output is a terminal
    text = re.sub(r"\x1b\[[0-9;]*m", "", through.decode())
    assert max(len(line) for line in text.splitlines()) == 100


@pytest.mark.process
def test_two_commands_at_once(warm, event_db):
    before = served(warm)
    args = [*BALL, "standings", "--db", str(event_db), "--json"]
    procs = [subprocess.Popen(args, env=warm, stdout=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=60)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs[0] == outs[1] and len(json.loads(outs[0])) == 6
    assert served(warm) == before + 2


def _agent_children(agent_dir: str) -> list[int]:
    """Processes running the agent's program for this directory (agent and copies)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"ball.cli.agent" in cmd and agent_dir.encode() in cmd:
                found.append(int(entry))
    return found


@pytest.mark.process
def test_changed_code_refuses_and_restarts_the_agent(event_db):
    agent_dir = private_dir()
    env = _env(agent_dir)
    source = Path(agent_client.__file__)
    stat = source.stat()
    try:
        ball(["standings", "--db", str(event_db)], env)
        wait_for_agent(env)
        old = agent_pid(env)
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        done = ball(["standings", "--db", str(event_db)], env)  # refused: runs in-process
        assert done.returncode == 0 and b"Agent after round" in done.stdout
        wait_for_agent(env)
        assert agent_pid(env) not in (None, old)
        assert old not in _agent_children(agent_dir)
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        ball(["agent", "stop"], env)
        shutil.rmtree(agent_dir, ignore_errors=True)


def _unsafe_dirs(base: Path):
    loose = base / "loose"
    loose.mkdir(mode=0o755)
    os.chmod(loose, 0o755)
    yield str(loose)
    private = base / "private"
    private.mkdir(mode=0o700)
    link = base / "link"
    link.symlink_to(private)
    yield str(link)
    if os.getuid() == 0:
        foreign = base / "foreign"
        foreign.mkdir(mode=0o700)
        os.chown(foreign, 12345, 12345)
        yield str(foreign)


@pytest.mark.process
def test_an_unsafe_agent_directory_means_no_agent(event_db):
    base = Path(private_dir())
    try:
        for agent_dir in _unsafe_dirs(base):
            env = _env(agent_dir)
            done = ball(["standings", "--db", str(event_db)], env)
            assert done.returncode == 0 and b"Agent after round" in done.stdout
            time.sleep(1)
            assert not any(p.suffix == ".sock" for p in Path(agent_dir).iterdir()), agent_dir
            assert served(env) is None
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.process
def test_an_idle_agent_exits():
    agent_dir = private_dir()
    env = _env(agent_dir, BALL_AGENT_IDLE="1")
    try:
        ball(["--help"], env)
        end = time.monotonic() + 60
        while not any(p.suffix == ".sock" for p in Path(agent_dir).iterdir()):
            assert time.monotonic() < end, "no agent started"
            time.sleep(0.05)
        end = time.monotonic() + 30
        while _agent_children(agent_dir) or any(
            p.suffix == ".sock" for p in Path(agent_dir).iterdir()
        ):
            assert time.monotonic() < end, "the idle agent is still there"
            time.sleep(0.1)
    finally:
        ball(["agent", "stop"], env)
        shutil.rmtree(agent_dir, ignore_errors=True)


def test_only_the_same_user_is_served():
    a, b = socket.socketpair()
    with a, b:
        assert peer_is_owner(a)
        assert not peer_is_owner(a, uid=os.getuid() + 1)


def test_the_agent_directory_must_be_private(tmp_path):
    private = tmp_path / "p"
    private.mkdir(mode=0o700)
    os.chmod(private, 0o700)
    assert agent_client.dir_is_private(str(private))
    os.chmod(private, 0o750)
    assert not agent_client.dir_is_private(str(private))
    (tmp_path / "l").symlink_to(private)
    os.chmod(private, 0o700)
    assert not agent_client.dir_is_private(str(tmp_path / "l"))
    assert not agent_client.dir_is_private(str(tmp_path / "missing"))


@pytest.mark.parametrize(
    ("args", "through"),
    [([], True), (["--help"], True), (["standings"], True), (["result", "enter"], True),
     (["serve"], False), (["play"], False), (["sim", "run"], False), (["clock", "x"], False),
     (["--db", "x", "serve"], False), (["publish", "out"], False),
     # a game's own group goes through like the shared ones, whatever the game
     (["xiangqi", "perft"], True), (["tictactoe", "judge"], True)],
)  # fmt: skip
def test_only_one_shot_commands_go_through_the_agent(args, through):
    assert agent_client.eligible(args) is through


# --- safety: garbage on the socket, foreign peers, crashes, clients that give up or die


def agent_socket(env) -> str:
    m = re.search(r"socket (\S+)\)", ball(["agent", "status"], env).stdout.decode())
    assert m, "no agent answers"
    return m.group(1)


def raw_answer(path: str, payload: bytes, fds: tuple[int, ...] = ()) -> dict:
    """What the agent answers to `payload` sent as is (the first 4 bytes carry `fds`)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        socket.send_fds(sock, [payload[:4]], list(fds))
        with contextlib.suppress(BrokenPipeError):  # refused at its length: the rest is unread
            sock.sendall(payload[4:])
        lines = agent_client.Lines(sock)
        answer = lines.next()
        assert answer is not None, payload[:40]
        return answer


def raw_run(path: str, request: dict, byte: bytes = b"F", fds: tuple[int, ...] = ()) -> dict:
    """The agent's answer after its `ready` to a run request, when `byte` (none if empty)
    comes with `fds`; the connection then closes without a `go`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        sock.sendall(framed(request))
        lines = agent_client.Lines(sock)
        assert lines.next() == {"ready": True}
        if byte:
            socket.send_fds(sock, [byte], list(fds))
        else:
            sock.shutdown(socket.SHUT_WR)
        answer = lines.next()
        assert answer is not None
        return answer


def _null_fds(pid: int) -> list[str]:
    """The descriptors of process `pid` open on /dev/null."""
    fds = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/fd/{fd}") == os.devnull:
                fds.append(fd)
    return sorted(fds)


def framed(message: object) -> bytes:
    body = json.dumps(message).encode() if not isinstance(message, bytes) else message
    return struct.pack("!I", len(body)) + body


@pytest.mark.process
def test_garbage_on_the_socket_is_refused_and_the_agent_carries_on(warm):
    path = agent_socket(warm)
    before, pid = served(warm), agent_pid(warm)
    held = _null_fds(pid)  # its own 0, 1 and 2; every case below passes /dev/null
    good = {"kind": "run", "argv": ["ball", "--help"], "cwd": "/", "env": {}, "umask": 0o22,
            "executable": sys.executable, "package": agent_client.package_dir()}  # fmt: skip
    with open(os.devnull, "rb") as null:
        fds = (null.fileno(),) * 3
        cases = [
            (b"\xff\xff\xff\xff" + b"x" * 64, (), "not a well-formed request"),  # 4 GiB claimed
            (framed(b"{not json"), (), "not a well-formed request"),
            (framed(b"\xff\xfe"), (), "not a well-formed request"),
            (framed([1, 2, 3]), (), "not a well-formed request"),
            (framed({"kind": "explode"}), (), "unknown request"),
            (framed({**good, "argv": "ball --help", "umask": -1}), fds,
             "bad run request: argv, umask"),
            (framed({**good, "env": {"A": 1}, "cwd": None}), fds, "bad run request: cwd, env"),
            (framed({**good, "argv": []}), fds, "bad run request: argv"),
        ]  # fmt: skip
        for payload, with_fds, why in cases:
            assert raw_answer(path, payload, with_fds) == {"refused": why}
        # a good run request, then no descriptors, or too few, or another byte with them
        no_fds = "a run takes the client's descriptors 0, 1 and 2"
        for byte, with_fds in ((b"", ()), (b"F", ()), (b"F", fds[:2]), (b"X", fds)):
            assert raw_run(path, good, byte, with_fds) == {"refused": no_fds}
    # a request cut short, and a silent client: dropped after the agent's deadline
    assert raw_answer(path, framed(good)[:-3]) == {"refused": "not a well-formed request"}
    assert raw_answer(path, b"") == {"refused": "not a well-formed request"}
    assert served(warm) == before  # nothing ran, and the agent still answers
    end = time.monotonic() + 30  # (it answers first, then closes)
    while _null_fds(pid) != held:  # every descriptor passed is closed
        assert time.monotonic() < end, "the agent keeps descriptors it was passed"
        time.sleep(0.05)


@pytest.mark.process
def test_a_request_may_arrive_in_pieces(warm):
    path = agent_socket(warm)
    payload = framed({"kind": "status"})
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        for i in range(0, len(payload), 3):  # the length itself split, then the body
            sock.sendall(payload[i : i + 3])
            time.sleep(0.01)
        answer = agent_client.Lines(sock).next()
    assert answer is not None and answer["socket"] == path


@pytest.mark.process
@pytest.mark.skipif(os.getuid() != 0, reason="needs root to run a client as another user")
def test_a_client_of_another_user_is_refused(warm):
    path = agent_socket(warm)
    folder = os.path.dirname(path)
    mode = os.stat(path).st_mode & 0o777
    # The stranger only listens: the agent refuses before it reads a byte.
    code = ("import socket, sys\n"
            "s = socket.socket(socket.AF_UNIX); s.settimeout(30); s.connect(sys.argv[1])\n"
            "print(s.recv(4096).decode(), end='')\n")  # fmt: skip
    python = "/usr/bin/python3"  # the system's, which any user may run
    if not os.access(python, os.X_OK):
        pytest.skip("no system python3 for another user")
    try:  # let the stranger reach the socket: the agent's own check is what is tested
        os.chmod(folder, 0o711)
        os.chmod(path, 0o777)
        out = subprocess.run([python, "-I", "-c", code, path], user=12345, capture_output=True,
                             timeout=60, cwd="/")  # fmt: skip
    finally:
        os.chmod(folder, 0o700)
        os.chmod(path, mode)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"refused": "not a client of this user"}


@pytest.mark.process
def test_a_crashed_agents_socket_is_replaced(event_db):
    agent_dir = private_dir()
    env = _env(agent_dir)
    try:
        ball(["--help"], env)
        wait_for_agent(env)
        old, path = agent_pid(env), agent_socket(env)
        os.kill(old, signal.SIGKILL)
        _wait_gone(old)
        assert os.path.exists(path)  # a crash leaves the socket file behind
        done = ball(["standings", "--db", str(event_db)], env)  # refused connection: in-process
        assert done.returncode == 0 and b"Agent after round" in done.stdout
        wait_for_agent(env)
        assert agent_pid(env) not in (None, old)
        assert same_through_agent(["standings", "--db", str(event_db)], env).returncode == 0
    finally:
        ball(["agent", "stop"], env)
        shutil.rmtree(agent_dir, ignore_errors=True)


def _wait_gone(pid: int, timeout: float = 60) -> None:
    """Until process `pid` has ended and been reaped (no zombie left)."""
    end = time.monotonic() + timeout
    while os.path.exists(f"/proc/{pid}"):
        assert time.monotonic() < end, f"process {pid} is still there"
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


@pytest.mark.process
def test_a_client_that_gave_up_never_runs_the_command_twice(event_db, tmp_path):
    agent_dir = private_dir()
    env = _env(agent_dir)
    db = tmp_path / "late.db"
    with sqlite3.connect(event_db) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    try:
        ball(["--help"], env)
        wait_for_agent(env)
        pid = agent_pid(env)
        os.kill(pid, signal.SIGSTOP)  # a hung agent: the connection waits in its backlog
        try:  # (its output pipe ends with it: the hung agent was given no descriptor)
            added = ball(["event", "add-player", "--db", str(db), "Late"], env)
        finally:
            os.kill(pid, signal.SIGCONT)
        assert added.returncode == 0 and added.stdout.endswith(b"Late\n"), added.stderr
        end = time.monotonic() + 60
        while _children(pid) or served(env) is None:  # it takes the stale request late
            assert time.monotonic() < end, "the agent is stuck"
            time.sleep(0.1)
        assert served(env) == 0  # the client had gone: no descriptors, no copy
        rows = json.loads(ball(["standings", "--json", "--db", str(db)], cold(env)).stdout)
        assert sorted(r["name"] for r in rows).count("Late") == 1
    finally:
        ball(["agent", "stop"], env)
        shutil.rmtree(agent_dir, ignore_errors=True)


def _waiting_on_stdin(env, db: Path, **popen) -> tuple[subprocess.Popen[bytes], int]:
    """`ball event import trf -` started and blocked reading its standard input (a pipe);
    the client and the process that reads (the client itself in-process, else its copy)."""
    agent = agent_pid(env) if env["BALL_AGENT"] != "0" else None
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    proc = subprocess.Popen([*BALL, "event", "import", "trf", "-", "--db", str(db)], env=env,
                            **pipes, **popen)  # fmt: skip
    end = time.monotonic() + 60
    while True:
        assert time.monotonic() < end and proc.poll() is None, "the command never read stdin"
        for pid in [proc.pid, *(_children(agent) if agent else [])]:
            try:
                if "pipe_read" in Path(f"/proc/{pid}/wchan").read_text():
                    return proc, pid
            except OSError:
                pass
        time.sleep(0.05)


def _ctrl_c_as_on_a_terminal() -> None:
    """A command typed at a terminal starts with SIGINT at its default. A suite run as a
    background job of a non-interactive shell (`.ci/run &`) starts with SIGINT ignored,
    which Python and the agent's client then rightly leave ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.process
def test_ctrl_c_ends_the_command_as_in_process(warm, tmp_path):
    ends = []
    for name, env in (("cold.db", cold(warm)), ("warm.db", warm)):
        before = served(env) if env is warm else None
        proc, reader = _waiting_on_stdin(env, tmp_path / name, preexec_fn=_ctrl_c_as_on_a_terminal)
        assert (reader != proc.pid) == (env is warm)  # through the agent, a copy reads
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        ends.append((proc.returncode, out, err))
        if env is warm:
            assert served(env) == before + 1
            _wait_gone(reader)
    # Typer turns a KeyboardInterrupt inside a command into a quiet exit 130
    assert ends[0] == ends[1] == (130, b"", b"")


@pytest.mark.process
def test_a_killed_client_takes_its_command_with_it(warm, tmp_path):
    proc, child = _waiting_on_stdin(warm, tmp_path / "killed.db")
    assert child != proc.pid
    fd_dir = f"/proc/{child}/fd"
    links = {int(fd): os.readlink(f"{fd_dir}/{fd}") for fd in os.listdir(fd_dir)}
    streams = {links[0], links[1], links[2]}  # the client's three pipes ...
    assert sorted(fd for fd, link in links.items() if link in streams) == [0, 1, 2]  # ... as 0-2
    proc.kill()
    proc.wait(timeout=60)
    _wait_gone(child)  # ended (SIGHUP from the copy's watcher) and reaped by the agent
    proc.stdin.close()
    proc.stdout.close()
    proc.stderr.close()
    assert served(warm) is not None  # the agent itself carries on


@pytest.mark.process
def test_a_copy_without_the_clients_go_runs_nothing(warm, event_db, tmp_path):
    db = tmp_path / "nogo.db"
    with sqlite3.connect(event_db) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    argv = ["ball", "event", "add-player", "--db", str(db), "Ghost"]
    request = {"kind": "run", "argv": argv, "cwd": "/", "env": dict(warm), "umask": 0o22,
               "executable": sys.executable, "package": agent_client.package_dir()}  # fmt: skip
    with open(os.devnull, "r+b") as null:
        answer = raw_run(agent_socket(warm), request, b"F", (null.fileno(),) * 3)  # hangs up
    assert isinstance(answer.get("pid"), int)  # the copy was made ...
    _wait_gone(answer["pid"])
    rows = json.loads(ball(["standings", "--json", "--db", str(db)], cold(warm)).stdout)
    assert "Ghost" not in [r["name"] for r in rows]  # ... and ended without running it


@pytest.mark.process
def test_an_ignored_hangup_stays_ignored(warm, event_db, tmp_path):
    """`nohup ball …`: the client does not forward a SIGHUP it ignores, so the command
    carries on as it would in-process."""
    trf = ball(["export", "trf", "--db", str(event_db)], cold(warm)).stdout
    ignore = {"preexec_fn": lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN)}
    proc, child = _waiting_on_stdin(warm, tmp_path / "nohup.db", **ignore)
    assert child != proc.pid
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(trf, timeout=60)
    assert proc.returncode == 0, err
    assert b"Agent" in out


@pytest.mark.process
def test_typers_import_time_switches_are_the_clients(warm):
    """Typer reads TERMINAL_WIDTH, FORCE_COLOR and a few more when it is imported, which in
    the agent is long before the client's environment arrives: clients that set them
    differently get an agent of their own, so their output is what in-process gives."""
    env = {**warm, "FORCE_COLOR": "1", "TERMINAL_WIDTH": "60"}
    args = ["standings", "--help"]
    try:
        ball(args, env)  # no agent for these switches yet: in-process, and one starts
        wait_for_agent(env)
        assert agent_pid(env) != agent_pid(warm)
        through = same_through_agent(args, env)
        assert b"\x1b[" in through.stdout  # coloured although standard output is a pipe
    finally:
        ball(["agent", "stop"], env)


@pytest.mark.parametrize("args", [[], ["bogus"], ["status", "extra"], ["--help"]])
def test_a_bad_agent_command_is_one_line_and_status_2(args, capsys):
    assert agent_client.agent_command(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "error: usage: ball agent status|stop\n"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [(None, IDLE_SECONDS), ("", IDLE_SECONDS), ("1.5", 1.5), ("30", 30.0),
     ("soon", IDLE_SECONDS), ("-5", IDLE_SECONDS), ("0", IDLE_SECONDS), ("nan", IDLE_SECONDS),
     ("inf", IDLE_SECONDS)],
)  # fmt: skip
def test_ball_agent_idle_falls_back_to_the_default(text, seconds):
    assert idle_seconds(text) == seconds


def test_an_overlong_line_ends_the_conversation():
    a, b = socket.socketpair()
    with a, b:
        b.settimeout(30)
        a.sendall(b'{"signal": 2}\n' + b" " * (agent_client.LINE_MAX + 4096))
        lines = agent_client.Lines(b)
        assert lines.next() == {"signal": 2}
        assert lines.next() is None  # no newline within LINE_MAX: refused, not buffered on


@pytest.mark.process
def test_the_agent_holds_none_of_its_starters_descriptors_nor_its_directory(event_db):
    """Issue 30 item 13: `( flock 9 && ball ... ) 9>script.lock` must not leave the lock held
    by the agent the command started, nor the agent sitting in the script's directory; a
    later command's relative paths still resolve against its own directory."""
    agent_dir = private_dir()
    env = _env(agent_dir)
    work = Path(tempfile.mkdtemp(prefix="bw", dir="/tmp"))
    try:
        # SQLite's backup: the event may still sit in the write-ahead log
        with sqlite3.connect(event_db) as src, sqlite3.connect(work / "event.db") as dst:
            src.backup(dst)
        lock = work / "script.lock"
        script = f"( flock 9 && {' '.join(BALL)} standings --db event.db >/dev/null ) 9>script.lock"
        assert subprocess.run(["sh", "-c", script], env=env, cwd=work, timeout=120).returncode == 0
        wait_for_agent(env)
        pid = agent_pid(env)
        assert pid is not None
        held = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        assert str(lock) not in held
        assert subprocess.run(["flock", "-n", str(lock), "true"], timeout=30).returncode == 0
        assert os.readlink(f"/proc/{pid}/cwd") == "/"
        # a relative --db through the agent is the caller's file, not one under /
        same_through_agent(["standings", "--db", "event.db"], env, cwd=work)
    finally:
        ball(["agent", "stop"], env)
        shutil.rmtree(agent_dir, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.process
def test_deeply_nested_requests_are_refused_and_the_agent_carries_on(warm):
    """Issue 30 item 14: 200 KB of "[" used to end the agent with a RecursionError."""
    path = agent_socket(warm)
    pid = agent_pid(warm)
    depth = "a request nests at most 8 deep"
    deep = b"[" * 200_000 + b"]" * 200_000
    for body in (b"[" * 200_000, b'{"kind": "status", "x": ' + deep + b"}"):
        assert raw_answer(path, framed(body)) == {"refused": depth}
    # brackets inside strings are text, not nesting
    assert raw_answer(path, framed({"kind": "status", "x": "[" * 100_000}))["pid"] == pid
    assert agent_pid(warm) == pid  # the same agent still answers


def test_a_deeply_nested_line_is_no_message():
    a, b = socket.socketpair()
    with a, b:
        b.settimeout(30)
        a.sendall(b"[" * 60_000 + b"\n" + b'{"signal": 2}\n')
        lines = agent_client.Lines(b)
        assert lines.next() is None
