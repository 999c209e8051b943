"""BALL's printed regulation (`Paper.regulation`, a `ball.games.protocol.Regulation`): its text
in each language (`content/{lang}/regulation.md`, Markdown with `{{ p.NAME }}` placeholders)
and the parameters it and BALL's forms read (`regulation.toml`: the figures it quotes, the
blank forms' sizes, a blank standings' tie-break columns), with the figures it quotes from
BALL's rules: the match times of the standard ruleset (`ball.games.ball.match.timing`) and the
rest before the second-half signal (`ball.games.ball.signal_gap`), so the regulation never
states a figure the engine, the table clocks and the desk do not play by."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from ball.games.ball.match.timing import load_timing
from ball.games.ball.signal_gap import gap_minutes


def _file(*parts: str) -> str:
    return resources.files(__package__ or "").joinpath(*parts).read_text(encoding="utf-8")


def text(lang: str) -> str:
    """The regulation's source in `lang` (one of the printing's languages)."""
    return _file("content", lang, "regulation.md")


def parameters() -> dict[str, Any]:
    """What the regulation and BALL's forms read: `regulation.toml` (`blank` sizes of the
    forms, `standings.tiebreaks` of a blank standings) and the figures from the rules."""
    params = tomllib.loads(_file("regulation.toml"))
    params.update({name: _whole(value) for name, value in figures().items()})
    return params


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


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value
