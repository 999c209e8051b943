"""A throwaway PostgreSQL server for the storage tests: one per test worker, unix socket only
(no TCP port to collide on), its data in a temporary folder removed afterwards."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PORT = 5432  # names the socket file only: each server has its own socket folder
USER = "postgres"  # PostgreSQL refuses to run as root; Debian's package makes this user


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_major, reverse=True)
    return Path(found[0]).parent if found else None


def _major(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


def _unavailable(reason: str) -> None:
    """A missing install fails in CI (the set-up installs PostgreSQL); elsewhere it skips."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def _as_server_user(args: list[str]) -> list[str]:
    return ["runuser", "-u", USER, "--", *args] if os.geteuid() == 0 else args


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _as_server_user(args), cwd=cwd, capture_output=True, text=True, timeout=120
    )


class Server:
    def __init__(self, root: Path, bin_dir: Path) -> None:
        self.root, self.bin_dir = root, bin_dir
        self.data, self.socket_dir = root / "data", root / "socket"
        self._names = itertools.count(1)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{USER}@/{database}?host={self.socket_dir}&port={PORT}"

    def create_database(self) -> str:
        """A new empty database on this server; returns its SQLAlchemy URL."""
        name = f"ball_{next(self._names)}"
        psql = [str(self.bin_dir / "psql"), "-h", str(self.socket_dir), "-p", str(PORT)]
        done = _run(
            [*psql, "-U", USER, "-d", "postgres", "-c", f"CREATE DATABASE {name}"], self.root
        )
        if done.returncode != 0:
            raise RuntimeError(f"CREATE DATABASE {name} failed: {done.stderr.strip()}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server]:
    bin_dir = _bin_dir()
    if bin_dir is None:
        _unavailable("PostgreSQL is not installed (bash scripts/setup.sh installs it)")
    pytest.importorskip("psycopg", reason="the psycopg driver is not installed")
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam(USER)
        except KeyError:
            _unavailable(f"running as root and there is no {USER!r} user to run PostgreSQL")
    root = Path(tempfile.mkdtemp(prefix="ballpg-"))
    server = Server(root, bin_dir)
    server.socket_dir.mkdir()
    if os.geteuid() == 0:
        for path in (root, server.socket_dir):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(server.data)]
    try:
        done = _run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(server.data),
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
            root,
        )
        if done.returncode != 0:
            _unavailable(f"initdb failed: {done.stderr.strip()}")
        options = f"-k {server.socket_dir} -p {PORT} -c listen_addresses='' -c fsync=off"
        log = root / "server.log"
        done = _run([*pg_ctl, "-o", options, "-l", str(log), "-w", "start"], root)
        if done.returncode != 0:
            detail = log.read_text(errors="replace").strip() if log.exists() else ""
            _unavailable(f"PostgreSQL did not start: {done.stderr.strip()} {detail}".strip())
        yield server
    finally:
        if (server.data / "postmaster.pid").exists():
            _run([*pg_ctl, "-m", "immediate", "-w", "stop"], root)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_server: Server) -> str:
    """SQLAlchemy URL of a database on the throwaway server, for the whole test run."""
    return postgres_server.create_database()


@pytest.fixture
def fresh_postgres_url(postgres_server: Server) -> str:
    """A new empty database for one test, so tests never see each other's data."""
    return postgres_server.create_database()
