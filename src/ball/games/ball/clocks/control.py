"""The BALL clock of a ruleset (spec 14): the half timer with its Final Drive, the action
phase's limit and the release-phase windows, from the ruleset's `[time]` table, so the match,
the desk, the printed rules and the table clock all read the same figures."""

from __future__ import annotations

import re
from collections.abc import Callable

from ball.clocks.controls import TimeControl, control_from
from ball.games.ball.engine import load_ruleset
from ball.i18n import N_

# The title `ball_control` writes, as the clock pages find it again to show it in the
# reader's words with the ruleset's figures.
_TITLE = re.compile(r"BALL: (\d+)-minute halves, (\d+) s per action phase, release-phase protocol")
TITLE = N_("BALL: %(half)s-minute halves, %(turn)s s per action phase, release-phase protocol")


def controls() -> dict[str, TimeControl]:
    """BALL's built-in controls by name: the clock of the standard ruleset."""
    return {"ball-standard": ball_control("standard")}


def title(text: str, gettext: Callable[[str], str]) -> str | None:
    """The title of a BALL clock (of any ruleset) in the reader's words, else None."""
    found = _TITLE.fullmatch(text)
    if found is None:
        return None
    return gettext(TITLE) % {"half": found.group(1), "turn": found.group(2)}


def ball_control(ruleset_name: str = "standard") -> TimeControl:
    """The BALL clock of a ruleset, built from its `[time]` table (spec 14): the match, the
    desk, the printed rules and the table clock all read the same figures."""
    rs = load_ruleset(ruleset_name)
    t = rs.time
    raw = {
        "name": f"ball-{rs.name}",
        "game": "ball",
        "title": (
            f"BALL: {t['half_minutes']}-minute halves, {t['turn_seconds']} s per action "
            "phase, release-phase protocol"
        ),
        "source": f"ruleset {rs.name!r} [time] (spec 14: D-20, D-21, R-release)",
        "players": ["A", "B"],
        "period": "half",
        "periods": 2,
        # The half timer runs on real time from the start signal; a pause does not stop it.
        "half_timer": {
            "time": f"{t['half_minutes']}m",
            "stops_on_pause": False,
            "final_drive": True,
        },
        # Each action phase has its own limit; an overrun is recorded for the ladder, and a
        # coach who stays on overruns again every further limit, as `Match` sanctions it.
        "turn_limit": {
            "time": f"{t['turn_seconds']}s",
            "phase": "action",
            "penalty_points": 0,
            "per": f"{t['turn_seconds']}s",
        },
        # Release phase: the mover's time, then the opponent's, then the referee decides.
        "release": {
            "windows": [
                {"who": "mover", "time": f"{t['release_extension_seconds']}s"},
                {"who": "opponent", "time": f"{t['release_opponent_seconds']}s"},
            ]
        },
    }
    return control_from(raw, f"ruleset {rs.name!r} [time]")
