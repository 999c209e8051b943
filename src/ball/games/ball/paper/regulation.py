"""The figures BALL's printed regulation quotes from its rules (`Paper.regulation`): the match
times of the standard ruleset (`ball.games.ball.match.timing`) and the rest before the
second-half signal (`ball.games.ball.signal_gap`), so the regulation never states a figure
the engine, the table clocks and the desk do not play by."""

from __future__ import annotations

from ball.games.ball.match.timing import load_timing
from ball.games.ball.signal_gap import gap_minutes


def figures() -> dict[str, float]:
    """The regulation's figures by the name its Markdown quotes them (`{{ p.NAME }}`)."""
    timing = load_timing()
    return {
        "signal_gap_minutes": gap_minutes(),
        "half_minutes": timing.half_seconds / 60,
        "turn_seconds": timing.turn_seconds,
        "release_extra_seconds": timing.release_seconds,
        "opponent_release_seconds": timing.release_opponent_seconds,
    }
