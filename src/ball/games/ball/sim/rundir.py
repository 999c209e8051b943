"""A resumable self-play run on disk: the manifest, one SQLite shard per batch, the summary.

A run directory holds `manifest.json` (agents, ruleset, turn cap, seed, number of matches,
batch size, backend) and `shards/batch-NNNNNN.sqlite`, one per batch of consecutive match
indices. A task writes its own shard to a temporary name and renames it into place, so a
shard that exists is complete; resuming skips those batches and plays the others, so no match
is played twice or lost. The summary is read back from the shards, which is why every backend
prints the same figures for the same seeds.

SQLite rather than Parquet: it is in the standard library (no pyarrow, ~100 MB, for a few
thousand small rows per shard), a shard is one file that can be renamed atomically, and it can
be inspected with the `sqlite3` shell.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .selfplay import MatchOutcome, SimConfig, Summary, match_seeds, play_match, summarise

if TYPE_CHECKING:  # backends import play_batch from here
    from .backends import Backend

FORMAT = 1
MANIFEST = "manifest.json"
# The fields that make two runs the same experiment; the rest may differ on resume.
IDENTITY = ("agent_a", "agent_b", "ruleset", "half_turns", "seed", "matches", "batch_size")
MAX_BATCH = 1000  # about 10³ matches per task (issue 14)


class RunDirError(ValueError):
    """The run directory cannot be used as asked (the message says why, in one line)."""


@dataclass(frozen=True)
class Batch:
    number: int
    first: int
    count: int

    @property
    def indices(self) -> range:
        return range(self.first, self.first + self.count)


def auto_batch_size(matches: int, workers: int) -> int:
    """About four batches per worker (an even spread and a moving bar), at most 10³ matches."""
    return max(1, min(MAX_BATCH, math.ceil(matches / (4 * max(workers, 1)))))


def batches(matches: int, batch_size: int) -> list[Batch]:
    return [
        Batch(n, first, min(batch_size, matches - first))
        for n, first in enumerate(range(0, matches, batch_size))
    ]


def shard_path(run_dir: Path, number: int) -> Path:
    return run_dir / "shards" / f"batch-{number:06d}.sqlite"


def _manifest(config: SimConfig, batch_size: int, backend: str) -> dict:
    doc = {k: v for k, v in asdict(config).items() if k != "jobs"}
    return {"format": FORMAT, **doc, "batch_size": batch_size, "backend": backend}


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def open_run(run_dir: Path, config: SimConfig, batch_size: int, backend: str) -> dict:
    """Create the run directory, or check that the one there is the same experiment."""
    wanted = _manifest(config, batch_size, backend)
    found = read_manifest(run_dir) if (run_dir / MANIFEST).exists() else None
    if found is None:
        if run_dir.exists() and any(run_dir.iterdir()):
            raise RunDirError(f"{run_dir} is not empty and has no {MANIFEST}: not a sim run")
        (run_dir / "shards").mkdir(parents=True, exist_ok=True)
        _write_atomically(run_dir / MANIFEST, json.dumps(wanted, indent=2).encode())
        return wanted
    differ = [k for k in IDENTITY if found.get(k) != wanted[k]]
    if differ:
        shown = ", ".join(f"{k} {found.get(k)!r} not {wanted[k]!r}" for k in differ)
        raise RunDirError(f"{run_dir} holds a different run ({shown}); use another --out")
    (run_dir / "shards").mkdir(exist_ok=True)
    return found


def read_manifest(run_dir: Path) -> dict:
    """The manifest of an existing run directory (for `--resume`)."""
    try:
        doc = json.loads((run_dir / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise RunDirError(f"{run_dir} has no readable {MANIFEST}: not a sim run") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or any(
        k not in doc for k in IDENTITY
    ):
        raise RunDirError(f"{run_dir / MANIFEST} is not a sim run manifest (format {FORMAT})")
    return doc


def config_of(manifest: dict, jobs: int) -> SimConfig:
    keys = ("agent_a", "agent_b", "ruleset", "half_turns", "seed", "matches")
    return SimConfig(**{k: manifest[k] for k in keys}, jobs=jobs)


def _rows(config: SimConfig, batch: Batch) -> Iterator[tuple[int, int, int, str]]:
    for index in batch.indices:
        out = play_match(index, config)
        seed_a, seed_b = match_seeds(config, index)
        # Not asdict(out): asdict rebuilds a Counter from (key, value) pairs and so miscounts.
        doc = {**vars(out), "steals": dict(out.steals)}
        yield index, seed_a, seed_b, json.dumps(doc, sort_keys=True)


def play_batch(run_dir: str, config: SimConfig, batch: Batch) -> int:
    """Play one batch and write its shard (temporary file, then rename); return its size.

    Runs inside a worker (a process or a Ray task): only the count travels back.
    """
    final = shard_path(Path(run_dir), batch.number)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    with sqlite3.connect(tmp) as db:
        db.execute("CREATE TABLE batch (number INTEGER, first INTEGER, count INTEGER)")
        db.execute(
            "CREATE TABLE outcome (idx INTEGER PRIMARY KEY, seed_a INTEGER, seed_b INTEGER,"
            " doc TEXT NOT NULL)"
        )
        db.executemany("INSERT INTO outcome VALUES (?, ?, ?, ?)", _rows(config, batch))
        db.execute("INSERT INTO batch VALUES (?, ?, ?)", (batch.number, batch.first, batch.count))
    db.close()
    os.replace(tmp, final)
    return batch.count


def shard_complete(run_dir: Path, batch: Batch) -> bool:
    """True when the batch's shard holds exactly its matches (else it is played again)."""
    path = shard_path(run_dir, batch.number)
    if not path.exists():
        return False
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            meta = db.execute("SELECT number, first, count FROM batch").fetchall()
            idx = [r[0] for r in db.execute("SELECT idx FROM outcome ORDER BY idx")]
        db.close()
    except sqlite3.Error:
        return False
    return meta == [(batch.number, batch.first, batch.count)] and idx == list(batch.indices)


def pending(run_dir: Path, matches: int, batch_size: int) -> list[Batch]:
    return [b for b in batches(matches, batch_size) if not shard_complete(run_dir, b)]


def read_outcomes(run_dir: Path, matches: int, batch_size: int) -> Iterator[MatchOutcome]:
    """Every outcome in match order, read from the shards."""
    for batch in batches(matches, batch_size):
        path = shard_path(run_dir, batch.number)
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            docs = [r[0] for r in db.execute("SELECT doc FROM outcome ORDER BY idx")]
        db.close()
        for doc in docs:
            data = json.loads(doc)
            data["steals"] = Counter(data["steals"])
            yield MatchOutcome(**data)


def shard_indices(run_dir: Path) -> list[int]:
    """Every match index stored in the shards, repeats included (for checking a run)."""
    found: list[int] = []
    for path in sorted((run_dir / "shards").glob("batch-*.sqlite")):
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            found += [r[0] for r in db.execute("SELECT idx FROM outcome")]
        db.close()
    return found


def run_in_dir(
    run_dir: Path,
    config: SimConfig,
    backend: Backend,
    batch_size: int,
    progress: Callable[[int], None] | None = None,
    limit: int | None = None,
) -> Summary | None:
    """Play the batches not yet stored, then summarise from the shards.

    `limit` stops after that many batches (an interrupted run, for tests); None is returned
    while batches remain.
    """
    manifest = open_run(run_dir, config, batch_size, backend.name)
    batch_size = manifest["batch_size"]
    todo = pending(run_dir, config.matches, batch_size)
    if progress:
        progress(config.matches - sum(b.count for b in todo))
    if limit is not None:
        todo = todo[:limit]
    for count in backend.map_batches(str(run_dir), config, todo):
        if progress:
            progress(count)
    if pending(run_dir, config.matches, batch_size):
        return None
    return summarise(read_outcomes(run_dir, config.matches, batch_size), config)

