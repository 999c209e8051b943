"""Checking a seating: `report` counts its repeat meetings, wind counts and team clashes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ball.games.mahjong.engine.seating.tables import Seating, SeatingError, check_session
from ball.games.mahjong.engine.seating.tabu import repeat_bound
from ball.games.mahjong.engine.seating.winds import wind_counts, wind_spread


@dataclass(frozen=True)
class Report:
    """What `report` found in a seating."""

    players: int
    sessions: int
    repeats: int  # meetings beyond each pair's first
    repeat_bound: int  # the least possible (see `repeat_bound`)
    repeated_pairs: tuple[tuple[int, int, int], ...]  # (p, q, meetings) for meetings > 1
    repeats_per_session: tuple[int, ...]  # repeat meetings made in each session
    wind_counts: dict[int, list[int]]
    wind_spread: tuple[int, int]  # fewest, most times any player sat one wind
    team_clashes: tuple[tuple[int, int, int], ...]  # (session, p, q) team-mates at a table

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "sessions": self.sessions,
            "repeats": self.repeats,
            "repeat_bound": self.repeat_bound,
            "repeated_pairs": [list(x) for x in self.repeated_pairs],
            "repeats_per_session": list(self.repeats_per_session),
            "wind_counts": {str(p): c for p, c in sorted(self.wind_counts.items())},
            "wind_spread": list(self.wind_spread),
            "team_clashes": [list(x) for x in self.team_clashes],
        }


def report(seating: Seating, teams: Mapping[int, str] | None = None) -> Report:
    """Check a seating (every player once per session) and count what it does."""
    if not seating:
        raise SeatingError("the seating has no sessions")
    players = sum(len(t) for t in seating[0])
    for i, session in enumerate(seating, 1):
        check_session(session, players, f"session {i}")
    meet: Counter[tuple[int, int]] = Counter()
    per_session, clashes = [], []
    for s, session in enumerate(seating, 1):
        made = 0
        for table in session:
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    pair = (min(p, q), max(p, q))
                    made += meet[pair] > 0
                    meet[pair] += 1
                    if teams and p in teams and teams.get(q) == teams[p]:
                        clashes.append((s, *pair))
        per_session.append(made)
    return Report(
        players=players,
        sessions=len(seating),
        repeats=sum(n - 1 for n in meet.values()),
        repeat_bound=repeat_bound(players, len(seating), teams),
        repeated_pairs=tuple(sorted((p, q, n) for (p, q), n in meet.items() if n > 1)),
        repeats_per_session=tuple(per_session),
        wind_counts=wind_counts(seating),
        wind_spread=wind_spread(seating),
        team_clashes=tuple(clashes),
    )
