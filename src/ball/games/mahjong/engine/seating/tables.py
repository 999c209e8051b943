"""Tables of four, sessions and seatings: the types, the sizes allowed, and the checks every
seating module shares (player and session counts, a session's seats, teams kept apart)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

Table = tuple[int, int, int, int]
Session = tuple[Table, ...]
Seating = tuple[Session, ...]

SEATS = 4
MAX_PLAYERS = 1024
MAX_SESSIONS = 64


class SeatingError(ValueError):
    """A seating that cannot be built or read; the message says what is wrong."""


def check_size(players: int, sessions: int) -> None:
    """Refuse a player or session count that cannot make tables of four (decision M-05)."""
    if not 4 <= players <= MAX_PLAYERS:
        raise SeatingError(f"players: must be from 4 to {MAX_PLAYERS}, not {players}")
    if players % SEATS:
        raise SeatingError(
            f"players: {players} is not a multiple of 4; every table seats four "
            "(add or remove players, or seat substitutes)"
        )
    if not 1 <= sessions <= MAX_SESSIONS:
        raise SeatingError(f"sessions: must be from 1 to {MAX_SESSIONS}, not {sessions}")



def team_numbers(players: int, teams: Mapping[int, str] | None) -> list[int]:
    numbers: dict[str, int] = {}
    team = [-1] * (players + 1)
    for p, name in (teams or {}).items():
        if not 1 <= p <= players:
            raise SeatingError(f"teams: player {p} is not one of 1..{players}")
        team[p] = numbers.setdefault(name, len(numbers))
    return team


def teams_separable(players: int, teams: Mapping[int, str] | None) -> bool:
    """Whether no two team-mates need ever share a table: no team has more players than
    there are tables (then a deal round the tables by team always separates them)."""
    sizes = Counter((teams or {}).values())
    return max(sizes.values(), default=0) <= players // SEATS


def check_session(session: Sequence[Sequence[int]], players: int, what: str) -> None:
    """Every player 1..N exactly once, in tables of four."""
    if any(len(table) != SEATS for table in session):
        raise SeatingError(f"{what}: every table seats exactly four players")
    seated = sorted(p for table in session for p in table)
    if seated != list(range(1, players + 1)):
        missing = sorted(set(range(1, players + 1)) - set(seated))
        doubled = sorted(p for p, n in Counter(seated).items() if n > 1)
        if doubled:
            raise SeatingError(f"{what}: player {doubled[0]} is seated twice")
        if missing:
            raise SeatingError(f"{what}: player {missing[0]} has no seat")
        raise SeatingError(f"{what}: players must be numbered 1..{players}")



def as_table(seats: Sequence[int]) -> Table:
    return (seats[0], seats[1], seats[2], seats[3])
