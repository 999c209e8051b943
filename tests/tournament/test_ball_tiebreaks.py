"""BALL's own tie-breaks from hand-computed sheets: TD difference (forfeits 0-2), total SD
(forfeits excluded), PBATK of the scoring halves per touchdown."""

from __future__ import annotations

from ball.tournament import TournamentService


def test_ball_tiebreaks_by_hand(tmp_path):
    svc = TournamentService(tmp_path / "b.db")
    svc.events.create_event(name="B", system="double-round-robin")
    svc.entrants.add_player("X")
    svc.entrants.add_player("Y")
    (t1,) = svc.rounds.pair_next_round()
    assert (t1["a"], t1["b"]) == ("X", "Y")
    # Half 1: X attacks, 4 PB, touchdown X; Y's 2 PBATK in it. Half 2: Y attacks, 5 PB,
    # touchdown Y; X's 1 PBATK. 1-1, X needed 4 PBATK, Y 5: X wins on attack efficiency.
    sheet = {
        "coaches": ["A", "B"],
        "halves": [
            {
                "atk_first": "A",
                "td": "A",
                "pb": {"A": {"atk": 4, "def": 2}, "B": {"atk": 2, "def": 4}},
            },
            {
                "atk_first": "B",
                "td": "B",
                "pb": {"A": {"atk": 1, "def": 5}, "B": {"atk": 5, "def": 1}},
            },
        ],
        "forfeit": None,
    }
    svc.results.enter_result(1, 1, sheet=sheet)
    (t2,) = svc.rounds.pair_next_round()
    assert (t2["a"], t2["b"]) == ("Y", "X")
    svc.results.enter_result(2, 1, forfeit="A")  # Y forfeits: 0-2, no PB
    rows = {r["name"]: r for r in svc.ranking.standings()["standings"]}
    x, y = rows["X"], rows["Y"]
    assert (x["rank"], x["points"], y["points"]) == (1, 2.0, 0.0)
    assert x["tiebreaks"]["td-difference"] == 2.0 and y["tiebreaks"]["td-difference"] == -2.0
    # SD = PBDEF - PBATK: X (2+5) - (4+1) = 2; Y (4+1) - (2+5) = -2.
    assert x["tiebreaks"]["total-sd"] == 2.0 and y["tiebreaks"]["total-sd"] == -2.0
    assert x["tiebreaks"]["pbatk-per-td"] == 4.0 and y["tiebreaks"]["pbatk-per-td"] == 5.0
