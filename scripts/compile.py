"""Compiles ball.games.ball.engine and ball.games.ball.ai.mcts with mypyc, beside their sources (run
by setup.sh).

The editable install puts `src/` on `sys.path`, so an extension module built in place
(`src/ball/games/ball/engine/game.cpython-311-x86_64-linux-gnu.so` next to `game.py`, and the shared
library `src/ball_compiled__mypyc...so` the modules call into) is what `import` finds, with
no second path to keep in order. The sources' digest goes to `ball.compiled_build.STAMP`
last, and `ball/__init__.py` uses the extensions only while it matches (see that module).

- Nothing changed since the last build (same digest, every extension present): exits at
  once, before importing mypyc or setuptools.
- No C compiler or no Python headers: removes any old build, prints one line, exits 0; the
  package runs as pure Python.
- mypyc or the compiler fails: removes the build, prints the error and exits 1 (the code
  needs fixing; `BALL_PURE=1 bash scripts/setup.sh` skips the build meanwhile).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ball import compiled_build  # noqa: E402  (after the path: this runs from any cwd)

SRC = ROOT / "src"
BUILD_DIR = ROOT / "build" / "mypyc"  # C sources and objects (gitignored)
GROUP = "ball_compiled"  # the shared library's name: ball_compiled__mypyc.<abi>.so
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def module_names() -> list[str]:
    names = []
    for path in compiled_build.sources():
        parts = list(Path(path).relative_to(compiled_build.SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def built_files() -> list[Path]:
    """Every extension this script makes (also those of modules since deleted)."""
    found = list(SRC.glob(f"{GROUP}__mypyc*{SUFFIX}"))
    for package in compiled_build.COMPILED:
        found.extend(Path(compiled_build.package_dir(package)).rglob(f"*{SUFFIX}"))
    return found


def expected_files() -> list[Path]:
    src = SRC
    files = [src / f"{GROUP}__mypyc{SUFFIX}"]
    for name in module_names():
        path = src.joinpath(*name.split("."))
        is_package = (path / "__init__.py").exists()
        files.append(path / f"__init__{SUFFIX}" if is_package else path.with_suffix(SUFFIX))
    return files


def remove_build() -> None:
    Path(compiled_build.STAMP).unlink(missing_ok=True)  # first: a half-removed build is unused
    for path in built_files():
        path.unlink()


def toolchain_missing() -> str | None:
    """Why no extension can be built here, or None when a compiler and headers exist."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers})"
    return None


def build() -> None:
    """mypyc's C for the packages, compiled by setuptools' build_ext in place under src/."""
    from mypyc.build import mypycify  # noqa: PLC0415  (dear imports: only when building)
    from setuptools import setup  # noqa: PLC0415

    os.chdir(SRC)  # build_ext --inplace writes ball/games/ball/engine/x.so from here
    paths = [Path(p).relative_to(SRC).as_posix() for p in compiled_build.sources()]
    extensions = mypycify(
        ["--config-file", "", "--cache-dir", str(BUILD_DIR / "mypy_cache"), *paths],
        opt_level="3",
        group_name=GROUP,
        target_dir=str(BUILD_DIR),
    )
    setup(
        name="ball-compiled",
        ext_modules=extensions,
        script_args=["--quiet", "build_ext", "--inplace", "--build-temp", str(BUILD_DIR / "temp"),
                     "--build-lib", str(BUILD_DIR / "lib")],
    )


def main() -> int:
    digest, stats = compiled_build.digest(), compiled_build.file_stats()
    up_to_date = compiled_build.stamp_matches() and all(p.exists() for p in expected_files())
    if up_to_date:
        stamp = compiled_build.read_stamp()
        if stamp is not None and stamp[1] != stats:  # same bytes, new times (a checkout):
            compiled_build.write_stamp(digest, stats)  # the quick test is quick again
        return 0
    remove_build()
    missing = toolchain_missing()
    if missing is not None:
        print(f"setup: {missing}: the engine and the search run as pure Python")
        return 0
    started = time.perf_counter()
    # In a child process: setuptools' and mypyc's output is kept and shown only on failure.
    child = subprocess.run(
        [sys.executable, __file__, "--build"], capture_output=True, text=True, check=False
    )
    if child.returncode != 0 or not all(p.exists() for p in expected_files()):
        remove_build()
        sys.stderr.write(child.stdout + child.stderr)
        print("setup: mypyc could not compile BALL's engine and search (above); "
              "BALL_PURE=1 bash scripts/setup.sh skips the build", file=sys.stderr)
        return 1
    compiled_build.write_stamp(digest, stats)
    print(f"setup: compiled ball.games.ball.engine and ball.games.ball.ai.mcts with mypyc "
          f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--build"]:
        build()
        sys.exit(0)
    sys.exit(main())
