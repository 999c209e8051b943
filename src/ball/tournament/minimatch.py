"""A knockout tie played as a mini-match (seed 004, articles 6 and 13.5): its policy, the
colours of each game, and its state as a fold over the game results.

The two sides of a tie are "A" (the first colour in game 1: the red card of the drawing of
lots, or coach A of a seeded bracket) and "B". Colours alternate from game to game (13.5),
extra games and the Armageddon game included (E-03). A tie is `games` games (best of 3 in
article 6); level after them, it goes to `extra_games` more games scored on their own
(E-02), and level after those, to the event's final tie-break: a drawing of lots, or one
Armageddon game in which a draw goes to the side with the second colour (E-04). A block
of games is decided as soon as the lead is larger than the games left in it. A double
forfeit ends the tie with nobody going through. Pure: the results are the only input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ball.tournament.errors import TournamentError

TIE_BREAKS = ("lots", "armageddon")
RESULTS = ("A", "B", "D", "N")  # side A wins, side B wins, draw, nobody (double forfeit)
MAX_GAMES = 99  # per block: more is a typing slip, not an event


class MiniMatchError(TournamentError):
    """A policy or a sequence of game results no mini-match can have."""


@dataclass(frozen=True)
class Policy:
    """The event's rules for a tie, as data: N games, E extra games, then lots or
    Armageddon."""

    games: int = 1
    extra_games: int = 0
    tie_break: str = "lots"

    def __post_init__(self) -> None:
        if not 1 <= self.games <= MAX_GAMES:
            raise MiniMatchError(f"games per tie must be 1 to {MAX_GAMES}, got {self.games}")
        if not 0 <= self.extra_games <= MAX_GAMES:
            raise MiniMatchError(f"extra games must be 0 to {MAX_GAMES}, got {self.extra_games}")
        if self.tie_break not in TIE_BREAKS:
            raise MiniMatchError(
                f"unknown tie-break {self.tie_break!r} for a tie; choose {' or '.join(TIE_BREAKS)}"
            )

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "extra_games": self.extra_games, "tie_break": self.tie_break}


def first_colour(game: int) -> str:
    """The side with the first colour in game `game` (1-based): A in odd games (13.5)."""
    if game < 1:
        raise MiniMatchError(f"games of a tie are numbered from 1, got {game}")
    return "A" if game % 2 else "B"


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class TieState:
    """Where a tie stands after the results so far.

    `phase`: games | extra | armageddon | lots (a drawing of lots is due) | decided.
    `points` and `extra_points` score the games and the extra games (win 1, draw 1/2).
    `next_game` is the number of the game to play next (None when decided or lots due).
    `how`: games, extra games, armageddon, lots or double forfeit, once decided."""

    phase: str
    played: int
    points: dict[str, float] = field(default_factory=lambda: {"A": 0.0, "B": 0.0})
    extra_points: dict[str, float] = field(default_factory=lambda: {"A": 0.0, "B": 0.0})
    winner: str | None = None
    how: str | None = None

    @property
    def decided(self) -> bool:
        return self.phase == "decided"

    @property
    def level_after_games(self) -> bool:
        """Whether the games left the tie level (extra games, lots or Armageddon came)."""
        return self.phase in ("extra", "lots", "armageddon") or self.how in (
            "extra games",
            "lots",
            "armageddon",
        )

    @property
    def next_game(self) -> int | None:
        return None if self.phase in ("decided", "lots") else self.played + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "played": self.played,
            "points": dict(self.points),
            "extra_points": dict(self.extra_points),
            "next_game": self.next_game,
            "level_after_games": self.level_after_games,
            "next_first": first_colour(self.next_game) if self.next_game else None,
            "winner": self.winner,
            "how": self.how,
        }


def _block_state(score: dict[str, float], left: int) -> str | None:
    """The side that has won a block (its lead exceeds the games left), else None."""
    lead = score["A"] - score["B"]
    if abs(lead) > left:
        return "A" if lead > 0 else "B"
    return None


def fold(policy: Policy, results: Sequence[str], lots_winner: str | None = None) -> TieState:
    """The state of a tie after `results` (one of `RESULTS` per game, in order, from the
    tie's sides' view) and, when a drawing of lots decided it, its winner. A result after
    the tie is decided, or lots before they are due, is a `MiniMatchError`."""
    state = TieState("games", 0)
    for number, result in enumerate(results, start=1):
        if result not in RESULTS:
            raise MiniMatchError(f"game {number}: {result!r} is not a result ({'/'.join(RESULTS)})")
        if state.phase in ("decided", "lots"):
            raise MiniMatchError(_no_more_games(state, number))
        state = _step(policy, state, number, result)
    if lots_winner is not None:
        if lots_winner not in ("A", "B"):
            raise MiniMatchError(f"the lots are won by side A or B, got {lots_winner!r}")
        if state.phase != "lots":
            raise MiniMatchError("no drawing of lots is due in this tie")
        state = TieState(
            "decided", state.played, state.points, state.extra_points, lots_winner, "lots"
        )
    return state


def _no_more_games(state: TieState, number: int) -> str:
    if state.phase == "lots":
        return f"game {number} is not played: the tie goes to a drawing of lots"
    return f"game {number} is not played: the tie was decided in game {state.played}"


def _step(policy: Policy, state: TieState, number: int, result: str) -> TieState:
    """One more game: score it in its block, then see whether the tie or the block ends."""
    points, extra = dict(state.points), dict(state.extra_points)  # states stay immutable
    if result == "N":
        return TieState("decided", number, points, extra, None, "double forfeit")
    if state.phase == "armageddon":
        # A drawn Armageddon game goes to the side with the second colour (E-04).
        winner = result if result != "D" else other(first_colour(number))
        return TieState("decided", number, points, extra, winner, "armageddon")
    block = points if state.phase == "games" else extra
    if result == "D":
        block["A"] += 0.5
        block["B"] += 0.5
    else:
        block[result] += 1.0
    end = policy.games if state.phase == "games" else policy.games + policy.extra_games
    won = _block_state(block, end - number)
    if won is not None:
        how = "games" if state.phase == "games" else "extra games"
        return TieState("decided", number, points, extra, won, how)
    if number < end:
        return TieState(state.phase, number, points, extra)
    if state.phase == "games" and policy.extra_games:
        return TieState("extra", number, points, extra)
    return TieState(policy.tie_break, number, points, extra)


def max_games(policy: Policy) -> int:
    """The most games a tie can take (the Armageddon game included)."""
    return policy.games + policy.extra_games + (policy.tie_break == "armageddon")
