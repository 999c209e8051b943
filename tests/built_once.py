"""Test databases built once per test process and copied for each test that asks for one.

Some fixtures build the same event through the service for every test (seat 16 Mahjong
players, pair and score a Swiss round: ~0.2 s of CPU each, paid by dozens of quick-lane tests).
`copy_of_built` runs such a builder once per process and arguments, on a file of its own, and
copies that file to each test's path: the same rows, ids and revisions, for a few milliseconds.
See docs/testing.md, "Fast lane"."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

_BUILT: dict[tuple[Any, ...], tuple[str, Any]] = {}  # (builder, args) -> (file, its result)


def copy_of_built(path: str, build: Callable[..., T], *args: Hashable) -> T:
    """`build(path, *args)`'s database at `path`, and its result. `build` must be a pure
    function of its arguments, close every connection it opened (so its WAL is checkpointed
    into the file) and return plain data (an id), never a live object. A `path` that already
    exists, or whose folder does not, is built on directly, as without the copy."""
    if os.path.exists(path) or not os.path.isdir(os.path.dirname(path) or "."):
        return build(path, *args)
    key = (build, args)
    if key not in _BUILT:
        folder = tempfile.mkdtemp(prefix="built-once-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = os.path.join(folder, "built.sqlite")
        result = build(template, *args)
        if os.path.exists(f"{template}-wal"):
            raise RuntimeError(f"{build.__qualname__} left a connection open: its WAL is "
                               "not in the file")
        _BUILT[key] = (template, result)
    template, result = _BUILT[key]
    shutil.copyfile(template, path)
    return result
