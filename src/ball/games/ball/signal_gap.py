"""The rest before a round's second-half signal as BALL's rules set it (R-signal, spec 15):
the standard ruleset's `[time] second_half_signal_gap_minutes`, which the desk enforces
and the printed regulation and round control quote (`BallGame.signal_gap`)."""

from __future__ import annotations

from ball.games.ball.engine import load_ruleset


def gap_minutes() -> float:
    """The minutes between the round's last first-half end and signal 2, from the standard
    ruleset: an organiser's ruleset never redefines "standard" (D-37), so every event of
    the process waits the same."""
    return float(load_ruleset().time["second_half_signal_gap_minutes"])
