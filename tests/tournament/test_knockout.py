"""Knockout: byes up to the next power of two, seeds kept apart, replays of drawn matches."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentError, TournamentService
from ball.tournament.knockout import first_round, seed_positions


def test_seed_positions_keep_top_seeds_apart():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_round([1, 2, 3, 4, 5, 6]) == [(1, None), (4, 5), (2, None), (3, 6)]


def draw_sheet():
    half = {"td": None, "pb": {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}}
    return {
        "coaches": ["A", "B"],
        "halves": [dict(half, atk_first="A"), dict(half, atk_first="B")],
        "forfeit": None,
    }


def test_knockout_runs_to_a_winner_with_a_replay(tmp_path):
    svc = TournamentService(tmp_path / "ko.db")
    svc.create_event(name="KO", system="knockout", knockout_replays=1)
    for i in range(6):
        svc.add_player(f"S{i + 1}")
    r1 = svc.pair_next_round()
    assert [(t["a"], t["b"]) for t in r1] == [
        ("S1", None),
        ("S4", "S5"),
        ("S2", None),
        ("S3", "S6"),
    ]
    svc.enter_result(1, 2, sheet=draw_sheet())  # S4-S5 drawn: replayed
    svc.enter_result(1, 4, forfeit="B")  # S3 beats S6
    replay = svc.pair_next_round()
    assert [(t["a"], t["b"]) for t in replay] == [("S5", "S4")]
    svc.enter_result(2, 1, forfeit="B")  # S5 wins the replay
    semis = svc.pair_next_round()
    assert [(t["a"], t["b"]) for t in semis] == [("S1", "S5"), ("S2", "S3")]
    svc.enter_result(3, 1, forfeit="B")
    svc.enter_result(3, 2, forfeit="A")
    final = svc.pair_next_round()
    assert [(t["a"], t["b"]) for t in final] == [("S1", "S3")]
    svc.enter_result(4, 1, forfeit="A")
    with pytest.raises(TournamentError, match="complete"):
        svc.pair_next_round()
