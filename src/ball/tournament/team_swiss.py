"""A Swiss of teams (issue 17, seed 004 articles 11.4, 13.3, 15.4): teams paired by the
FIDE Dutch system on match points through the same engine as individual Swiss events
(`swiss.pair_dutch`), each team an entrant of the pairing.

The engine reads a TRF in which every team is one "player": pairing numbers by the team's
rating (the mean of its first BOARDS players in board order; then registration), each
round the team match as a game (the first-named team White, 13.3), scored from the match
points of 14.2 as a win, a draw or a loss (2/1/0 become 1/½/0, which orders the teams the
same way). A team drawn against no one has the pairing-allocated bye worth nothing (as the
team round robin's bye, E-21), so the engine never gives it twice (E-26).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ball.tournament import swiss, trf
from ball.tournament.crosstable import Cell, Line
from ball.tournament.models import Event
from ball.tournament.scoring import Scoring

# What the engine is told: a won, drawn or lost team match, and the team bye worth nothing.
TEAM_SCORING = Scoring(win=1.0, draw=0.5, loss=0.0, pab=0.0)


@dataclass(frozen=True)
class Meeting:
    """A team match of an earlier round as the engine sees it: the first-named team's and
    the other's pairing numbers (None: a bye) and the first-named team's match points."""

    round: int
    first: int
    second: int | None
    first_match_points: int | None  # 2, 1, 0; None while a board has no result


def total_rounds(ev: Event, teams: int) -> int:
    """The rounds of a team Swiss: the event's, or enough to find a winner."""
    if ev.rounds is None:
        ev.rounds = max(1, math.ceil(math.log2(max(2, teams))))
    return ev.rounds


def lines(numbers: dict[int, tuple[str, int | None]], meetings: list[Meeting]) -> list[Line]:
    """Each team's record (pairing number -> (name, rating)) as TRF lines."""
    out = {n: Line(n, n, name, rating, "") for n, (name, rating) in numbers.items()}
    for m in sorted(meetings, key=lambda x: (x.round, x.first)):
        if m.second is None:
            out[m.first].cells.append(Cell(m.round, None, "-", "U", TEAM_SCORING.pab))
            continue
        mp = m.first_match_points
        first = " " if mp is None else {2: "1", 1: "=", 0: "0"}[mp]
        second = {"1": "0", "0": "1"}.get(first, first)
        for n, opp, colour, code in (
            (m.first, m.second, "w", first),
            (m.second, m.first, "b", second),
        ):
            out[n].cells.append(Cell(m.round, opp, colour, code, TEAM_SCORING.points(code)))
    return [out[n] for n in sorted(out)]


def pair(ev: Event, numbers: dict[int, tuple[str, int | None]], meetings: list[Meeting],
         number: int) -> list[tuple[int, int | None]]:  # fmt: skip
    """Round `number`: (first-named team, other team or None for the bye) by pairing number."""
    rounds = total_rounds(ev, len(numbers))
    text = trf.write(
        name=ev.name,
        place=ev.place,
        date_start=ev.date_start,
        date_end=ev.date_end,
        system="swiss",
        arbiter=ev.arbiter,
        rounds=rounds,
        initial_colour=ev.initial_colour,
        scoring=TEAM_SCORING,
        lines=lines(numbers, meetings),
        ranks={},
    )
    return [(w, b or None) for w, b in swiss.pair_dutch(text, number, rounds)]
