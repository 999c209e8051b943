"""Lateness (seed 004 articles 21-22): the pure ruling, game-agnostic.

* 21.1: the game starts on time; a late player's clock runs from the start (the result is
  then entered as usual). Whoever arrives past the event's *default time* loses by forfeit.
* 21.2: arriving before the default time (counted from reaching the table), the player
  plays on with the time left.
* 21.3: both late: both delays come off their clocks; one past the default time loses by
  forfeit; both past it: a double forfeit.
* 21.4: the record shows the winner by absence as `+` and the absent loser as `-`; in the
  final count a `+` is worth 1 for a player and 2 for a team (E-25: a team's `+` is a match
  won by the other team's absence, worth a won match's 2 match points, 14.2).
* 22.1: not arriving within the default time counts as overstepping the time.

A side arrives `minutes` late (an integer, 0 or more) or never (`None`); arriving exactly
at the default time is within it (E-19).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ball.tournament.errors import TournamentError

SIDES = ("A", "B")
MAX_MINUTES = 24 * 60


@dataclass(frozen=True)
class Ruling:
    """What the lateness at a table decides.

    `forfeit`: None (the game is played; a sheet gives the result), "A" or "B" (that side
    loses by forfeit) or "both" (a double forfeit). `articles` the articles applied,
    `text` one line for the log."""

    forfeit: str | None
    articles: tuple[str, ...]
    text: str


def check_minutes(value: int | None, side: str) -> int | None:
    if value is not None and not 0 <= value <= MAX_MINUTES:
        raise TournamentError(f"late {side}: minutes are 0 to {MAX_MINUTES}, got {value}")
    return value


def past(minutes: int | None, default_time: int | None) -> bool:
    """Whether an arrival `minutes` late (None: never) is past the default time."""
    if minutes is None:
        return True
    if default_time is None:
        raise TournamentError(
            "the event has no default time: create it with --default-time MINUTES, or give "
            "--late SIDE without minutes for a player who never came"
        )
    return minutes > default_time


def _arrival(side: str, minutes: int | None) -> str:
    return f"{side} never came" if minutes is None else f"{side} {minutes} min late"


def rule(late: Mapping[str, int | None], default_time: int | None) -> Ruling:
    """The ruling for the sides in `late` (side -> minutes late, None: never came)."""
    if not late:
        raise TournamentError("lateness names side A, B or both")
    for side, minutes in late.items():
        if side not in SIDES:
            raise TournamentError(f"a late side is A or B, got {side!r}")
        check_minutes(minutes, side)
    over = [side for side in SIDES if side in late and past(late[side], default_time)]
    arrivals = "; ".join(_arrival(side, late[side]) for side in SIDES if side in late)
    limit = "" if default_time is None else f" (default time {default_time} min)"
    if len(over) == 2:
        return Ruling(
            "both",
            ("21.3", "22.1"),
            f"{arrivals}{limit}: both past the default time, double forfeit (21.3)",
        )
    if over:
        both = len(late) == 2
        articles = ("21.3", "21.1", "22.1") if both else ("21.1", "22.1")
        return Ruling(
            over[0],
            articles,
            f"{arrivals}{limit}: {over[0]} past the default time loses by forfeit "
            f"({', '.join(articles)}); recorded + / - (21.4)",
        )
    if len(late) == 2:
        return Ruling(
            None, ("21.3",), f"{arrivals}{limit}: both delays come off their clocks (21.3)"
        )
    return Ruling(
        None,
        ("21.1", "21.2"),
        f"{arrivals}{limit}: the clock ran from the start, the game is played (21.1, 21.2)",
    )


def parse(texts: list[str]) -> dict[str, int | None]:
    """`A`, `B`, `both` (never came) or `A:12`, `B:40`, `both:35` (minutes late)."""
    out: dict[str, int | None] = {}
    for text in texts:
        side, _, minutes = text.partition(":")
        side = side.strip()
        sides = SIDES if side.lower() == "both" else (side,)
        if not set(sides) <= set(SIDES):
            raise TournamentError(f"--late {text!r}: write A, B or both, optionally :MINUTES")
        value: int | None = None
        if minutes.strip():
            if not minutes.strip().isdigit():
                raise TournamentError(f"--late {text!r}: minutes are a whole number")
            value = check_minutes(int(minutes.strip()), side)
        for one in sides:
            if one in out:
                raise TournamentError(f"--late names side {one} twice")
            out[one] = value
    return out
