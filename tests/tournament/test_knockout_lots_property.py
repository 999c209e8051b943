"""Property: any field, any drawing seeds and any game results, a knockout drawn each round
with mini-match ties ends with one champion in ceil(log2 n) rounds, every entrant in each
round's draw exactly once, and every logged draw replays to its round."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.tournament import TournamentService
from ball.tournament.lots import replay


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 11),
    seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=4),
    results=st.lists(st.sampled_from(["A", "B", "D"]), min_size=200, max_size=200),
)
def test_a_drawn_knockout_always_ends_with_one_champion(n, seeds, results):
    stream = iter(results)
    with tempfile.TemporaryDirectory() as folder:
        svc = TournamentService(Path(folder) / "ko.db")
        svc.events.create_event(name="P", system="knockout", games_per_tie=3, tie_extra_games=1)
        names = [f"E{i}" for i in range(n)]
        for name in names:
            svc.entrants.add_player(name)
        field = set(names)
        for rnd in range(1, math.ceil(math.log2(n)) + 1):
            drawn = svc.knockout.draw_round(seed=seeds[(rnd - 1) % len(seeds)])
            seated = [x for t in drawn["tables"] for x in (t["a"], t["b"]) if x is not None]
            assert sorted(seated) == sorted(field)  # everyone still in, exactly once
            for t in drawn["tables"]:
                if t["b"] is not None:
                    _play(svc, rnd, t["table"], stream)
            after = svc.rounds.pairings(rnd)
            field = {t["tie"]["winner"] if t["b"] else t["a"] for t in after}
        assert len(field) == 1
        assert svc.ranking.standings()["standings"][0]["name"] in field
        for entry in (e for e in svc.arbiter.log() if e["kind"] == "draw"):
            tables = svc.rounds.pairings(entry["round"])
            again = replay(json.loads(entry["detail"]))
            assert [(t["a"], t["b"]) for t in tables if t["b"]] == again.pairs()


def _play(svc: TournamentService, rnd: int, table: int, stream) -> None:
    """Games from the stream until the tie is decided; lots by seed when they are due."""
    while True:
        tie = svc.rounds.pairings(rnd)[table - 1]["tie"]
        if tie["winner"] is not None:
            return
        if tie["phase"] == "lots":
            svc.knockout.draw_tie_lots(rnd, table, seed=table)
            continue
        game, result = tie["next_game"], next(stream)
        first = "A" if game % 2 else "B"
        if result == "D":
            half = {"td": None, "pb": {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}}
            sheet = {"coaches": ["A", "B"], "forfeit": None,
                     "halves": [dict(half, atk_first="A"), dict(half, atk_first="B")]}  # fmt: skip
            svc.knockout.record_tie_game(rnd, table, game, sheet=sheet)
        else:
            loser = "B" if result == "A" else "A"
            svc.knockout.record_tie_game(rnd, table, game, forfeit="A" if loser == first else "B")
