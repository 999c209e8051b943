"""Resumable run directories (issue 14): shards per batch, resume, refusal, same summary."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from ball.cli import app
from ball.games.ball.sim import SimConfig, make_backend, run, run_in_dir
from ball.games.ball.sim.backends import BackendError, ProcessBackend
from ball.games.ball.sim.rundir import (
    RunDirError,
    batches,
    read_outcomes,
    shard_indices,
    shard_path,
)

CONFIG = SimConfig(matches=12, agent_a="greedy", agent_b="random", half_turns=6, seed=7)


def test_batches_cover_every_match_once() -> None:
    got = [i for b in batches(23, 5) for i in b.indices]
    assert got == list(range(23)) and [b.count for b in batches(23, 5)] == [5, 5, 5, 5, 3]


def test_summary_from_shards_equals_the_in_memory_run(tmp_path: Path) -> None:
    summary = run_in_dir(tmp_path / "r", CONFIG, ProcessBackend(1), batch_size=5)
    assert summary == run(CONFIG)
    assert sorted(shard_indices(tmp_path / "r")) == list(range(12))
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert (manifest["agent_b"], manifest["seed"], manifest["batch_size"]) == ("random", 7, 5)


@pytest.mark.process  # a pool of worker processes
def test_two_workers_give_the_same_shards(tmp_path: Path) -> None:
    one = run_in_dir(tmp_path / "one", CONFIG, ProcessBackend(1), batch_size=3)
    two = run_in_dir(tmp_path / "two", CONFIG, ProcessBackend(2), batch_size=3)
    assert one == two
    same = read_outcomes(tmp_path / "one", 12, 3), read_outcomes(tmp_path / "two", 12, 3)
    assert list(same[0]) == list(same[1])


def test_interrupted_run_resumes_without_repeating_or_losing(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert run_in_dir(out, CONFIG, ProcessBackend(1), batch_size=4, limit=1) is None
    first = shard_path(out, 0).stat()
    # A torn shard (an interrupted write that was renamed by hand) and a temporary file.
    shard_path(out, 1).write_bytes(b"not sqlite")
    (out / "shards" / ".batch-000002.sqlite.99.tmp").write_bytes(b"half")
    seen: list[int] = []
    summary = run_in_dir(out, CONFIG, ProcessBackend(1), batch_size=4, progress=seen.append)
    assert summary == run(CONFIG)
    assert sorted(shard_indices(out)) == list(range(12))  # none repeated, none lost
    again = shard_path(out, 0).stat()
    # The stored batch was not played again (same file, same time).
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    assert seen[0] == 4 and sum(seen) == 12


def test_a_shard_with_a_missing_match_is_played_again(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run_in_dir(out, CONFIG, ProcessBackend(1), batch_size=4)
    with sqlite3.connect(shard_path(out, 2)) as db:
        db.execute("DELETE FROM outcome WHERE idx = 9")
    db.close()
    assert run_in_dir(out, CONFIG, ProcessBackend(1), batch_size=4) == run(CONFIG)
    assert sorted(shard_indices(out)) == list(range(12))


def test_a_different_experiment_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run_in_dir(out, CONFIG, ProcessBackend(1), batch_size=4, limit=1)
    other = SimConfig(matches=12, agent_a="greedy", agent_b="greedy", half_turns=6, seed=7)
    with pytest.raises(RunDirError, match="agent_b 'random' not 'greedy'"):
        run_in_dir(out, other, ProcessBackend(1), batch_size=4)
    with pytest.raises(RunDirError, match="batch_size 4 not 5"):
        run_in_dir(out, CONFIG, ProcessBackend(1), batch_size=5)
    assert sorted(shard_indices(out)) == [0, 1, 2, 3]  # nothing touched


def test_a_foreign_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(RunDirError, match="not a sim run"):
        run_in_dir(tmp_path, CONFIG, ProcessBackend(1), batch_size=4)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_backend_choice_errors() -> None:
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        make_backend("spark", 1)
    with pytest.raises(BackendError, match="--address needs --backend ray"):
        make_backend("process", 1, "ray://x:10001")


ARGS = ["sim", "run", "--matches", "8", "--half-turns", "4", "--agent-b", "random", "--json"]


def _cli(*args: str) -> Result:
    return CliRunner().invoke(app, [*ARGS, *args])


def test_cli_out_then_resume_prints_the_same_summary(tmp_path: Path) -> None:
    plain = _cli()
    first = _cli("--out", str(tmp_path / "r"), "--batch-size", "3")
    again = _cli("--resume", str(tmp_path / "r"))  # nothing left to play: read back
    assert plain.exit_code == first.exit_code == again.exit_code == 0
    assert json.loads(plain.stdout) == json.loads(first.stdout) == json.loads(again.stdout)
    assert sorted(shard_indices(tmp_path / "r")) == list(range(8))


def test_cli_refuses_a_mismatched_run_and_a_missing_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _cli("--out", str(tmp_path / "r")).exit_code == 0
    other = CliRunner().invoke(app, ["sim", "run", "--matches", "9", "--out", str(tmp_path / "r")])
    assert other.exit_code == 2 and "different run" in other.stderr
    assert other.stderr.strip().count("\n") == 0
    missing = _cli("--resume", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "not a sim run" in missing.stderr
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a)
    )
    no_ray = _cli("--backend", "ray")
    assert no_ray.exit_code == 2 and "install ball-toolbox[cluster]" in no_ray.stderr
    assert no_ray.stderr.strip().count("\n") == 0


@settings(max_examples=60, deadline=None)
@given(matches=st.integers(0, 200), size=st.integers(1, 50))
def test_batches_partition_the_matches(matches: int, size: int) -> None:
    parts = batches(matches, size)
    assert [i for b in parts for i in b.indices] == list(range(matches))
    assert all(0 < b.count <= size for b in parts) and [b.number for b in parts] == list(
        range(len(parts))
    )


@settings(max_examples=8, deadline=None)
@given(matches=st.integers(1, 7), size=st.integers(1, 4), stop=st.integers(0, 3))
def test_any_interruption_then_resume_stores_each_match_once(
    matches: int, size: int, stop: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path_factory.mktemp("run")
    config = SimConfig(matches=matches, agent_a="random", agent_b="random", half_turns=1)
    run_in_dir(out, config, ProcessBackend(1), batch_size=size, limit=stop)
    assert run_in_dir(out, config, ProcessBackend(1), batch_size=size) == run(config)
    assert sorted(shard_indices(out)) == list(range(matches))
