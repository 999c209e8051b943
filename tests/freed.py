"""Whether an object a test dropped is freed, collecting as little of the heap as will do.

A full `gc.collect()` walks the test worker's whole heap (over a second late in a quick-lane
worker, docs/testing.md "Fast lane"). What a test just dropped is young, so the young
generations usually free it; the whole heap is collected only when they did not."""

from __future__ import annotations

import gc
import weakref
from typing import Any


def is_freed(ref: weakref.ref[Any]) -> bool:
    """True once nothing holds the object behind `ref` (after garbage collection)."""
    gc.collect(1)
    if ref() is not None:
        gc.collect()
    return ref() is None
