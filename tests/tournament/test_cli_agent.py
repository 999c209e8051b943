"""The CLI start-up agent (issue 15, target 1): a command through the warm agent prints the
same bytes, exits with the same status and stores the same data as in-process; it uses the
client's directory, environment, standard input and terminal; signals reach it; a stale,
idle or unsafe agent is not used. Every test has a private BALL_AGENT_DIR and stops its
agent."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import agent_client
from ball.cli.agent import peer_is_owner

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
    enter = ["result", "enter", "--round", "1", "--table", "1", "--forfeit", "B", "--db"]
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
     (["--db", "x", "serve"], False)],
)  # fmt: skip
def test_only_one_shot_commands_go_through_the_agent(args, through):
    assert agent_client.eligible(args) is through
