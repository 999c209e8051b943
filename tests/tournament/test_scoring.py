"""An organiser's scoring: results that stand for a win or a draw follow the win and the
draw unless set themselves (a 3-1-0 Swiss scored a forfeit win 1 and could not be paired)."""

from __future__ import annotations

from ball.tournament import TournamentService
from ball.tournament.scoring import Scoring


def test_forfeit_win_and_byes_follow_win_and_draw():
    score = Scoring.from_dict({"win": 3, "draw": 1})
    assert (score.forfeit_win, score.pab, score.full_bye, score.half_bye) == (3, 3, 3, 1)
    assert (score.loss, score.forfeit_loss, score.zero_bye) == (0, 0, 0)
    own = Scoring.from_dict({"win": 3, "draw": 1, "pab": 1, "half_bye": 0, "forfeit_win": 2})
    assert (own.forfeit_win, own.pab, own.full_bye, own.half_bye) == (2, 1, 3, 0)
    assert Scoring.from_dict({}) == Scoring()
    assert Scoring.from_json(own.to_json()) == own  # stored scorings are read as they were


def test_a_three_one_zero_swiss_with_forfeits_pairs_round_2(tmp_path):
    svc = TournamentService(tmp_path / "s.db")
    svc.events.create_event(name="S", system="swiss", rounds=3, scoring={"win": 3, "draw": 1})
    for i in range(6):
        svc.entrants.add_player(f"P{i}", rating=2000 - i)
    for t in svc.rounds.pair_next_round():
        svc.results.enter_result(1, t["table"], forfeit="B")
    assert sorted(x["points"] for x in svc.ranking.standings()["standings"]) == [0, 0, 0, 3, 3, 3]
    assert len(svc.rounds.pair_next_round()) == 3


def test_a_round_robin_bye_still_scores_nothing(tmp_path):
    svc = TournamentService(tmp_path / "rr.db")
    info = svc.events.create_event(name="RR", system="round-robin", scoring={"win": 3, "draw": 1})
    assert info["scoring"]["pab"] == 0 and info["scoring"]["forfeit_win"] == 3
