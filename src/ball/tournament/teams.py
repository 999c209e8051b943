"""Team events (seed 004 articles 12-15), pure: a team's board order, a round's line-up
with substitutes, colours by board, a team match's game and match points, and the team
rankings of 15.3, 15.4 and 15.5.

* 12.1: boards by rating, highest first; unrated players after the rated ones (equal
  ratings keep the order the team registered them in).
* 12.2: substitutes keep that order: a round's line-up is any `boards` players of the
  team, always seated in the team's order (1-2-3-4 or 1-2-3-5, never 2-1-3-4).
* 13.2, 13.3: the first-named team takes the first colour on the odd boards, the other
  team on the even boards.
* 14.1, 14.2: game points 1, 1/2, 0 per board; the team with more game points wins the
  match: match points 2, 1 each for equal game points, 0. Both kinds are kept.
* 15.3 (round robin), 15.4 (points pairing, Swiss): ranked by match points, then the
  criteria below, equal teams sharing a rank; 15.5: by the sum of the players' individual
  ranks, lowest first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ball.tournament.errors import TournamentError


@dataclass(frozen=True)
class Player:
    name: str
    rating: int | None = None


def board_order(players: Sequence[Player]) -> list[Player]:
    """The team's order (12.1): rated by rating, highest first, then the unrated; equal
    ratings and the unrated keep the registration order."""
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise TournamentError("a player is listed twice in the team")
    return sorted(players, key=lambda p: (p.rating is None, -(p.rating or 0)))


def lineup(order: Sequence[str], fielded: Sequence[str], boards: int) -> list[str]:
    """A round's line-up (12.2): `boards` players of the team in the team's order. A
    line-up given out of that order is refused, naming the two players swapped."""
    if len(fielded) != boards:
        raise TournamentError(f"a line-up has {boards} players, got {len(fielded)}")
    place = {name: i for i, name in enumerate(order)}
    for name in fielded:
        if name not in place:
            raise TournamentError(f"{name!r} is not in the team")
    if len(set(fielded)) != len(fielded):
        raise TournamentError("a player is fielded twice")
    for upper, lower in zip(fielded, fielded[1:], strict=False):
        if place[upper] > place[lower]:
            raise TournamentError(
                f"{lower!r} plays above {upper!r} in the team's order: the order cannot be "
                "reversed (12.2)"
            )
    return list(fielded)


def first_colour_team(board: int) -> str:
    """Which team has the first colour on `board` (1-based): the first-named ("first") on
    odd boards, the other ("second") on even boards (13.2, 13.3)."""
    if board < 1:
        raise TournamentError(f"boards are numbered from 1, got {board}")
    return "first" if board % 2 else "second"


@dataclass(frozen=True)
class TeamMatch:
    """One team match from the first-named team's side: game points of both and the match
    points they give (14.2)."""

    game_points: tuple[float, float]
    match_points: tuple[int, int]


GAME_POINTS = {"A": (1.0, 0.0), "B": (0.0, 1.0), "D": (0.5, 0.5)}


def team_match(boards: Sequence[str]) -> TeamMatch:
    """The match from each board's result (A: the first-named team's player won, B: the
    other's, D: a draw)."""
    if not boards:
        raise TournamentError("a team match has at least one board")
    a = b = 0.0
    for i, result in enumerate(boards, start=1):
        if result not in GAME_POINTS:
            raise TournamentError(f"board {i}: {result!r} is not a result (A, B or D)")
        a, b = a + GAME_POINTS[result][0], b + GAME_POINTS[result][1]
    points = (2, 0) if a > b else (0, 2) if b > a else (1, 1)
    return TeamMatch((a, b), points)


# --------------------------------------------------------------------------- rankings


@dataclass(frozen=True)
class Played:
    """A team match as one team saw it."""

    opponent: str
    game_points: float
    opponent_game_points: float

    @property
    def match_points(self) -> int:
        if self.game_points == self.opponent_game_points:
            return 1
        return 2 if self.game_points > self.opponent_game_points else 0


@dataclass(frozen=True)
class TeamRecord:
    name: str
    matches: tuple[Played, ...] = ()
    fouls: int = 0  # sanctions of the team's players (fewer is better)
    individual_ranks: tuple[int, ...] = field(default=())  # 15.5


# A criterion: (record, the teams still level with it) -> a value, higher is better.
Criterion = Callable[[TeamRecord, Mapping[str, TeamRecord]], float]


def _match_points(t: TeamRecord, _level: Mapping[str, TeamRecord]) -> float:
    return sum(m.match_points for m in t.matches)


def _game_points(t: TeamRecord, _level: Mapping[str, TeamRecord]) -> float:
    return sum(m.game_points for m in t.matches)


def _wins(t: TeamRecord, _level: Mapping[str, TeamRecord]) -> float:
    return sum(1 for m in t.matches if m.match_points == 2)


def _direct(t: TeamRecord, level: Mapping[str, TeamRecord]) -> float:
    """Match points in the matches among the teams still level (direct encounter)."""
    return sum(m.match_points for m in t.matches if m.opponent in level and m.opponent != t.name)


def _fouls(t: TeamRecord, _level: Mapping[str, TeamRecord]) -> float:
    return -t.fouls


def _opponents_points(everyone: Mapping[str, TeamRecord]) -> Criterion:
    def opponents(t: TeamRecord, _level: Mapping[str, TeamRecord]) -> float:
        return sum(
            _match_points(everyone[m.opponent], everyone)
            for m in t.matches
            if m.opponent in everyone
        )

    return opponents


def rank(teams: Sequence[TeamRecord], criteria: Sequence[Criterion]) -> list[tuple[int, str]]:
    """(rank, team) best first: each criterion splits the teams still level, computed on
    that group (so a direct encounter counts only the level teams' matches); teams level
    on every criterion share a rank."""
    out: list[tuple[int, str]] = []
    for group in _split(list(teams), criteria):
        position = len(out) + 1
        out.extend((position, t.name) for t in sorted(group, key=lambda t: t.name))
    return out


def _split(group: list[TeamRecord], criteria: Sequence[Criterion]) -> list[list[TeamRecord]]:
    if len(group) <= 1 or not criteria:
        return [group]
    first, rest = criteria[0], criteria[1:]
    level = {t.name: t for t in group}
    values = {t.name: first(t, level) for t in group}
    out: list[list[TeamRecord]] = []
    for value in sorted(set(values.values()), reverse=True):
        same = [t for t in group if values[t.name] == value]
        out.extend(_split(same, rest))
    return out


def rank_round_robin(teams: Sequence[TeamRecord]) -> list[tuple[int, str]]:
    """15.3: match points, total game points, match wins, direct encounter, fouls."""
    return rank(teams, [_match_points, _game_points, _wins, _direct, _fouls])


def rank_swiss(teams: Sequence[TeamRecord]) -> list[tuple[int, str]]:
    """15.4: match points, opponents' match points, total game points, match wins, fouls."""
    everyone = {t.name: t for t in teams}
    return rank(teams, [_match_points, _opponents_points(everyone), _game_points, _wins, _fouls])


def rank_by_individual_ranks(teams: Sequence[TeamRecord]) -> list[tuple[int, str]]:
    """15.5: the lowest sum of the players' individual ranks first; level: the better best
    individual rank, then the better second rank, and so on; then fewer fouls."""
    width = max((len(t.individual_ranks) for t in teams), default=0)
    for t in teams:
        if not t.individual_ranks or len(t.individual_ranks) != width:
            raise TournamentError(
                f"team {t.name!r} has {len(t.individual_ranks)} individual ranks, "
                f"the others {width}"
            )

    def nth(i: int) -> Criterion:
        return lambda t, _level: -sorted(t.individual_ranks)[i]

    criteria: list[Criterion] = [lambda t, _level: -sum(t.individual_ranks)]
    criteria += [nth(i) for i in range(width)] + [_fouls]
    return rank(teams, criteria)
