"""A ruleset named in a request is a name, never a file (issue 11, items 1 and 10).

Against a live `ball serve` process: every place a request can name a ruleset (a position
document's `ruleset` field in `/api/positions/check` and `/api/games`, the `ruleset` field of
`/api/games`, a record's `[Ruleset "..."]` tag in `/api/records/replay`) is tried with paths
to files that exist (the live database, a TOML file, the process's own files) and to files that
do not. No answer may carry a byte of any file, every answer is a 4xx saying "unknown ruleset",
and the answer for an existing file is the answer for a missing one (no existence oracle).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

SHIPPED = Path(__file__).resolve().parents[2] / "src/ball/games/ball/engine/rulesets"


def test_the_shipped_files_named_by_path_below_are_real():
    # a path to a real shipped file must be refused too, not only a path to nowhere
    assert (SHIPPED / "standard.toml").is_file() and not (SHIPPED / "absent.toml").exists()


def _post(url: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _requests(name: str) -> list[tuple[str, dict]]:
    """Every request body that names a ruleset, naming `name`."""
    doc = {"format": "ball-position/1", "ruleset": name}
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    record = f'[Ruleset "{quoted}"]\n'
    return [
        ("/api/positions/check", {"position": doc}),
        ("/api/games", {"position": doc}),
        ("/api/games", {"ruleset": name[:100]}),  # the field itself is capped at 100
        ("/api/records/replay", {"bgn": record}),
    ]


def _attacks(server, tmp_path: Path) -> dict[str, tuple[str, str]]:
    """label -> (a name pointing at a file that exists, the same shape pointing nowhere)."""
    db = Path(server.db).resolve()
    toml = tmp_path / "secret.toml"
    toml.write_text('token = "s3cr3t-toml-value"\n[turn]\npa = 2\n')
    cwd = Path.cwd()
    relative_db = os.path.relpath(db, cwd)
    ups = "../" * len(cwd.parts)
    return {
        "absolute db": (str(db), str(db) + "-absent"),
        "relative db": (relative_db, relative_db + "-absent"),
        "proc cwd": (f"/proc/self/cwd/{relative_db}", f"/proc/self/cwd/{relative_db}-absent"),
        "dot-dot to db": (f"{ups}{str(db).lstrip('/')}", f"{ups}{str(db).lstrip('/')}-absent"),
        "toml file": (str(toml), str(tmp_path / "absent.toml")),
        "toml without suffix": (str(toml.with_suffix("")), str(tmp_path / "absent")),
        "shipped by path": (str(SHIPPED / "standard.toml"), str(SHIPPED / "absent.toml")),
        "dot-dot from shipped": ("../rulesets/standard", "../rulesets/absent"),
        "passwd": ("../../../../../../../../etc/passwd", "../../../../../../../../etc/absent"),
        "proc environ": ("/proc/self/environ", "/proc/self/absent"),
    }


def _normalised(text: str, name: str) -> str:
    """`text` with the name it answers (or the start of it, as a message cuts a long name
    short) taken out, so two answers that differ only in the name they echo compare equal."""
    for k in range(len(name), min(len(name), 12) - 1, -1):
        if name[:k] in text:
            return text.replace(name[:k], "NAME")
    return text


def test_no_request_reads_a_file_through_a_ruleset_name(server_process, tmp_path):
    server = server_process()
    # a game and a result make the database hold something worth stealing
    assert _post(server.url + "/api/games", {"title": "s3cr3t-title"})[0] == 201
    db_bytes = Path(server.db).read_bytes()
    for label, (existing, absent) in _attacks(server, tmp_path).items():
        for (path, body), (_, twin) in zip(_requests(existing), _requests(absent), strict=True):
            status, text = _post(server.url + path, body)
            where = f"{label} via {path}: {text[:300]}"
            assert 400 <= status < 500, where
            assert "unknown ruleset" in text, where
            for secret in ("SQLite format", "s3cr3t", "token", "root:", "PATH="):
                assert secret not in text, where
            assert db_bytes[:100].decode("latin-1") not in text, where
            twin_status, twin_text = _post(server.url + path, twin)
            # the same answer whether the file exists or not (names aside)
            assert (status, _normalised(text, existing)) == (
                twin_status,
                _normalised(twin_text, absent),
            ), where


BAD_NAMES = {
    "200k": "x" * 200_000,
    "nul": "stan\x00dard",
    "nul-suffix": "standard\x00.toml",
    "empty": "",
    "space": " standard",
    "slash": "standard/",
    "dot": ".",
}


def test_bad_ruleset_names_are_a_4xx_naming_the_field(server_process, tmp_path):
    organiser = tmp_path / "rulesets"
    organiser.mkdir()
    (organiser / "club.toml").write_text('extends = "standard"\n[turn]\npa = 3\n')
    (tmp_path / "outside.toml").write_text('extends = "standard"\n[turn]\npa = 5\n')
    # one server for every name (starting one is slow), with the organiser's directory
    server = server_process(extra=("--rulesets", str(organiser)))
    status, text = _post(server.url + "/api/games", {"ruleset": "club"})
    assert status == 201 and json.loads(text)["position"]["pa"] == 3, text[:300]
    for label, name in {**BAD_NAMES, "outside": "../outside"}.items():
        for path, body in _requests(name):
            status, text = _post(server.url + path, body)
            where = f"{label} via {path}: {text[:300]}"
            assert status in (400, 422), where
            assert "ruleset" in text.lower(), where
            assert len(text) < 2_000, where  # a 200,000-character name is not echoed back


@pytest.mark.process  # runs `ball serve` as a child process
def test_serve_refuses_a_rulesets_option_that_is_no_directory(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "ball.cli", "serve", "--db", str(tmp_path / "x.sqlite"),
         "--rulesets", str(tmp_path / "absent")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "--rulesets" in done.stderr
    assert not (tmp_path / "x.sqlite").exists()
