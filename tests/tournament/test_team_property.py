"""Properties of team events (seed 004 articles 12-14) over random sizes and results: every
team meets every other once (12.4), each board seats one player of each team with the first
colour alternating by board (13.2, 13.3), and the match points of every match add up to 2
while the game points add up to the boards (14.2)."""

from __future__ import annotations

import tempfile
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.tournament import TournamentService


@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n_teams=st.integers(2, 5),
    boards=st.integers(1, 5),
    forfeits=st.lists(st.sampled_from(["A", "B", None]), min_size=60, max_size=60),
)
def test_team_round_robin_invariants(n_teams, boards, forfeits):
    stream = iter(forfeits)
    with tempfile.TemporaryDirectory() as folder:
        svc = TournamentService(Path(folder) / "t.db")
        svc.events.create_event(name="P", system="round-robin", teams=boards)
        team_of = {}
        for t in range(n_teams):
            players = [f"T{t}p{i}={1500 + 10 * i}" for i in range(boards)]
            order = svc.teams.add_team(f"T{t}", players)["order"]
            assert order == [f"T{t}p{i}" for i in reversed(range(boards))]  # by rating (12.1)
            team_of.update({p: f"T{t}" for p in order})
        met = []
        rounds = n_teams - 1 if n_teams % 2 == 0 else n_teams
        for number in range(1, rounds + 1):
            tables = svc.rounds.pair_next_round()
            assert len(tables) == (n_teams // 2) * boards
            for m in range(0, len(tables), boards):
                match = tables[m : m + boards]
                first, second = team_of[match[0]["a"]], team_of[match[0]["b"]]
                met.append(frozenset((first, second)))
                for k, t in enumerate(match, start=1):
                    assert team_of[t["a"]] == (first if k % 2 else second)
                    assert team_of[t["b"]] == (second if k % 2 else first)
            for t in tables:
                side = next(stream)
                if side is None:
                    svc.results.enter_result(number, t["table"], double_forfeit=True)
                else:
                    svc.results.enter_result(number, t["table"], forfeit=side)
        assert sorted(met, key=sorted) == sorted(
            (frozenset(c) for c in combinations(sorted(set(team_of.values())), 2)), key=sorted
        )
        rows = svc.ranking.standings()["teams"]["standings"]
        for row in rows:
            for match in row["matches"]:
                mine, theirs = match["game_points"]
                assert mine + theirs <= boards  # a double forfeit gives nobody a point
                assert match["match_points"] == (2 if mine > theirs else 1 if mine == theirs else 0)
        matches = n_teams * (n_teams - 1) // 2
        assert sum(len(r["matches"]) for r in rows) == 2 * matches
        mps = [r["match_points"] for r in rows]
        assert sum(mps) == 2 * matches and mps == sorted(mps, reverse=True)  # 15.3 first key
