"""Times of day and countdowns as the desk and the public display print them."""

from __future__ import annotations

import time


def hms(at: float | None) -> str:
    """Wall-clock time of day at the venue (the desk's local time)."""
    return "" if at is None else time.strftime("%H:%M:%S", time.localtime(at))


def mmss(seconds: float | None) -> str:
    if seconds is None:
        return ""
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"
