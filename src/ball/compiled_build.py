"""Which build of the engine and the search a process runs: compiled (mypyc) or pure Python.

`scripts/compile.py` compiles the packages in `COMPILED` into extension modules beside their
sources (`src/ball/engine/game.cpython-311-...so` next to `game.py`) and writes the digest of
the sources it compiled to `STAMP`. Python's importer prefers an extension module to a `.py`
of the same name, so the compiled build is what `import ball.engine` finds. `choose()` (run
by `ball/__init__.py`, before any of those packages is imported) sends their imports to the
`.py` sources instead when:

- `BALL_PURE=1` is set (the pure lane of `scripts/test.sh`, the property tests' reference);
- the sources no longer match the digest (someone edited engine code since the build, or a
  build stopped half way): an edit is never shadowed by an older `.so`.

Reading and hashing the sources costs well under a millisecond per process.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

COMPILED = ("ball.engine", "ball.ai.mcts")
SRC = Path(__file__).resolve().parent.parent
STAMP = SRC / "ball" / ".compiled-sources"
PURE_VARIABLE = "BALL_PURE"

# What this process runs: "compiled" or "pure" (set by `choose`).
build = "pure"


def package_dir(package: str) -> Path:
    return SRC.joinpath(*package.split("."))


def sources() -> list[Path]:
    """Every `.py` of the compiled packages, in a fixed order (so the digest is stable)."""
    return sorted(path for package in COMPILED for path in package_dir(package).rglob("*.py"))


def digest() -> str:
    """The sources' digest (path and bytes of each file) and the interpreter they build for."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in sources():
        h.update(path.relative_to(SRC).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def stamp_matches() -> bool:
    try:
        return STAMP.read_text(encoding="ascii").strip() == digest()
    except OSError:
        return False


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
