"""pyffish (Fairy-Stockfish's Python binding, GPL: a dev-only test oracle that src/ball never
imports), loaded by the first test that calls it rather than when its test file is collected.

Every pytest worker collects every test file, so a module-level `import pyffish` cost each
worker ~0.4 s of CPU (its extension loads Fairy-Stockfish's tables) even when none of the
oracle tests ran there. A missing pyffish still gives what each file gave before, now per
test instead of per file: skipped where the file used `pytest.importorskip`, an error where
it imported pyffish outright.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pytest


class LazyPyffish:
    """Stands for the `pyffish` module: any attribute imports it then (once per process)."""

    def __init__(self, *, skip_if_missing: bool) -> None:
        self._skip_if_missing = skip_if_missing

    def _module(self) -> ModuleType:
        if self._skip_if_missing:
            return pytest.importorskip("pyffish")
        return importlib.import_module("pyffish")

    def __getattr__(self, name: str) -> Any:
        # pytest's collection probes every module-level object for its own markers
        # (`__test__`, `_pytestfixturefunction`, ...): those are not pyffish's to answer
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._module(), name)
