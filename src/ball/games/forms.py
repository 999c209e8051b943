"""Reading a posted form's fields into a game's result document: the whole-number field
(`form_int`) every game's desk form reads, with the refusal that names the field, and the
`entry` a game's quick result form posts (`QUICK`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ball.games.errors import TournamentError

QUICK = "quick"  # the form's `entry` when it is a game's quick form (`Game.quick_form`)


def form_int(
    form: Mapping[str, Any],
    key: str,
    *,
    default: int | None = None,
    low: int = 0,
    high: int = 1_000_000_000,
) -> int | None:
    raw = (form.get(key) or "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise TournamentError(f"{key}: {raw!r} is not a whole number") from None
    if value < low:
        raise TournamentError(f"{key}: must be at least {low}, got {value}")
    if value > high:
        raise TournamentError(f"{key}: must be at most {high}, got {raw}")
    return value
