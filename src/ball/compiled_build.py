"""Which build of the engine and the search a process runs: compiled (mypyc) or pure Python.

`scripts/compile.py` compiles the packages in `COMPILED` into extension modules beside their
sources (`src/ball/games/ball/engine/game.cpython-311-...so` next to `game.py`) and writes the
digest of the sources it compiled to `STAMP`. Python's importer prefers an extension module to a
`.py` of the same name, so the compiled build is what `import ball.games.ball.engine` finds.
`choose()` (run by `ball/__init__.py`, before any of those packages is imported) sends their imports
to the `.py` sources instead when:

- `BALL_PURE=1` is set (the pure lane of `scripts/test.sh`, the property tests' reference);
- the sources no longer match the digest (someone edited engine code since the build, or a
  build stopped half way): an edit is never shadowed by an older `.so`.

The test costs a stat of each source per process; the sources are read and hashed only
when a size or time differs from the build's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

COMPILED = ("ball.games.ball.engine", "ball.games.ball.ai.mcts")
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP = os.path.join(SRC, "ball", ".compiled-sources")
PURE_VARIABLE = "BALL_PURE"

# What this process runs: "compiled" or "pure" (set by `choose`).
build = "pure"


def package_dir(package: str) -> str:
    return os.path.join(SRC, *package.split("."))


def sources() -> list[str]:
    """Every `.py` of the compiled packages, in a fixed order (so the digest is stable)."""
    found: list[str] = []
    for package in COMPILED:
        for folder, _, files in os.walk(package_dir(package)):
            found.extend(os.path.join(folder, f) for f in files if f.endswith(".py"))
    return sorted(found)


def _relative(path: str) -> str:
    return os.path.relpath(path, SRC).replace(os.sep, "/")


def digest() -> str:
    """The sources' digest (path and bytes of each file) and the interpreter they build for."""
    import hashlib  # only when the quick test below fails (its import is ~2 ms)

    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in sources():
        h.update(_relative(path).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read() + b"\0")
    return h.hexdigest()


def file_stats() -> list[str]:
    """Each source's path, size and modification time: the quick test of the stamp."""
    return [_stat_line(path, os.stat(path)) for path in sources()]


def _stat_line(path: str, stat: os.stat_result) -> str:
    return f"{_relative(path)} {stat.st_size} {stat.st_mtime_ns}"


def write_stamp(sources_digest: str, stats: list[str]) -> None:
    """Written by the build, last, with the digest and stats taken before it compiled (an
    edit made while it compiled then does not match)."""
    with open(STAMP, "w", encoding="utf-8") as f:
        f.write("\n".join([sources_digest, *stats]) + "\n")


def read_stamp() -> tuple[str, list[str]] | None:
    """The build's digest and file stats, or None where no build finished."""
    try:
        with open(STAMP, encoding="utf-8") as f:
            recorded, *stats = f.read().splitlines()
    except (OSError, ValueError):
        return None
    return recorded, stats


def stamp_matches() -> bool:
    """Whether the built extensions were compiled from the sources as they are: the same
    sizes and times (a few stats), else the same bytes (a checkout that only touched them)."""
    stamp = read_stamp()
    return stamp is not None and (stamp[1] == file_stats() or stamp[0] == digest())


def is_compiled(package: str) -> bool:
    """Whether `package` was imported from an extension module (not from a `.py`)."""
    module = sys.modules[package]
    return not (getattr(module, "__file__", None) or "").endswith(".py")


class SourceOnlyFinder:
    """Finds the compiled packages' modules among `.py` files only, skipping extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not any(fullname == p or fullname.startswith(p + ".") for p in COMPILED):
            return None
        entries = path if path is not None else sys.path
        for entry in entries:
            finder = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def choose() -> str:
    """Installs the source-only finder unless an up-to-date compiled build may be used."""
    global build
    pure = os.environ.get(PURE_VARIABLE, "") not in ("", "0") or not stamp_matches()
    if pure and not any(isinstance(f, SourceOnlyFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceOnlyFinder())
    build = "pure" if pure else "compiled"
    return build
